// Runs the line-oriented parsers over one output. A gate often runs several tools in one job (tsc then eslint),
// so every parser sees every line; a line claimed by an earlier parser is not reported again by a later one. The
// test-runner parsers go first and claim whole failure blocks, since a block holds shapes the generic parsers
// would also read (a Python traceback in a unittest report, a stack frame). The format reported is the one that
// found the most.
import { parseCompiler } from './compiler.js';
import { parseEslintStylish } from './eslint-stylish.js';
import type { Finding, LineFinding } from './finding.js';
import type { ProjectFacts } from './project-facts.js';
import { parsePython } from './python.js';
import { parseAva } from './runners/ava.js';
import { parseBiome } from './runners/biome.js';
import { parseCargoTest } from './runners/cargo-test.js';
import { parseCodedLines } from './runners/coded-lines.js';
import { parseEslintJson } from './runners/eslint-json.js';
import { parseGoTest } from './runners/go-test.js';
import { parseJest } from './runners/jest.js';
import { parseMocha } from './runners/mocha.js';
import { parseNodeSpec } from './runners/node-spec.js';
import { parsePrettyLint } from './runners/pretty-lint.js';
import { parsePytest } from './runners/pytest.js';
import { parseRuff } from './runners/ruff.js';
import { parseRustc } from './runners/rustc.js';
import { parseTap } from './runners/tap.js';
import { parseUnittest } from './runners/unittest.js';
import { parseVitest } from './runners/vitest.js';
import { parseTsc } from './tsc.js';

export type LineFormat =
  | 'tap'
  | 'node-test'
  | 'jest'
  | 'vitest'
  | 'mocha'
  | 'ava'
  | 'pytest'
  | 'unittest'
  | 'go-test'
  | 'cargo-test'
  | 'rustc'
  | 'eslint-json'
  | 'biome'
  | 'pretty-lint'
  | 'ruff'
  | 'coded-lines'
  | 'tsc'
  | 'eslint'
  | 'compiler'
  | 'python';

// Lines longer than this are minified bundles, base64 or JSON dumps, never a diagnostic; skipping them keeps
// regex work per line bounded. ESLint's json formatter is the exception: its whole report is one line.
export const MAX_LINE_CHARS = 16 * 1024;
const MAX_JSON_LINE_CHARS = 4 * 1024 * 1024;

// A job that prints hundreds of thousands of error lines is described by its first ones (the cause) and its
// last ones (the summary); parsing every line would hold one object per line in memory for no better report.
export const HEAD_LINES = 20_000;
export const TAIL_LINES = 5_000;

type Parser = (lines: readonly string[], cwd: string | undefined, facts: ProjectFacts) => LineFinding[];

const PARSERS: readonly (readonly [LineFormat, Parser])[] = [
  ['tap', parseTap],
  ['node-test', parseNodeSpec],
  ['jest', parseJest],
  ['vitest', parseVitest],
  ['mocha', parseMocha],
  ['ava', parseAva],
  ['pytest', parsePytest],
  ['unittest', parseUnittest],
  [
    'go-test',
    (lines, cwd, facts) => parseGoTest(lines, cwd, facts.goModule === undefined ? {} : { module: facts.goModule }),
  ],
  ['cargo-test', parseCargoTest],
  ['rustc', parseRustc],
  ['eslint-json', parseEslintJson],
  ['biome', parseBiome],
  ['pretty-lint', parsePrettyLint],
  ['ruff', parseRuff],
  ['coded-lines', parseCodedLines],
  ['tsc', parseTsc],
  ['eslint', parseEslintStylish],
  ['compiler', parseCompiler],
  ['python', parsePython],
];

export function parseLineShapes(
  lines: readonly string[],
  cwd?: string,
  facts: ProjectFacts = {},
): { findings: Finding[]; format: LineFormat } | undefined {
  // Giant lines become blank rather than disappearing, so line indices (and block structure) stay honest.
  const kept =
    lines.length > HEAD_LINES + TAIL_LINES ? [...lines.slice(0, HEAD_LINES), '', ...lines.slice(-TAIL_LINES)] : lines;
  const bounded = kept.map((line) => (line.length > MAX_LINE_CHARS ? '' : line));
  // ESLint's json report is one line of any length: only its own parser sees it whole, never the regexes of
  // the others, which were written for lines of ordinary length.
  const withJson = kept.map((line, i) =>
    line.length > MAX_LINE_CHARS && line.length <= MAX_JSON_LINE_CHARS && line.startsWith('[{"filePath":')
      ? line
      : (bounded[i] ?? ''),
  );
  const claimed = new Set<number>();
  const all: LineFinding[] = [];
  const counts = new Map<LineFormat, number>();
  for (const [format, parse] of PARSERS) {
    let count = 0;
    // A parser may read several findings from one line (ESLint's json report); its claims bind later parsers.
    const claims: number[] = [];
    for (const finding of parse(format === 'eslint-json' ? withJson : bounded, cwd, facts)) {
      if (claimed.has(finding.at)) continue;
      for (let i = finding.at; i <= (finding.through ?? finding.at); i++) claims.push(i);
      all.push(finding);
      count++;
    }
    for (const line of claims) claimed.add(line);
    counts.set(format, count);
  }
  if (all.length === 0) return undefined;
  let format: LineFormat = PARSERS[0]?.[0] ?? 'tsc';
  for (const [candidate] of PARSERS) if ((counts.get(candidate) ?? 0) > (counts.get(format) ?? 0)) format = candidate;
  // Output order, errors before warnings: the first problem printed is usually the cause of the rest, and a
  // warning the build only mentions in passing is not what failed it.
  all.sort((a, b) => rank(a) - rank(b) || a.at - b.at);
  return { findings: all.map(({ at: _at, through: _through, ...finding }) => finding), format };
}

function rank(finding: Finding): number {
  return finding.severity === 'error' ? 0 : 1;
}
