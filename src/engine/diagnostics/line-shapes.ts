// Runs the line-oriented parsers over one output. A gate often runs several tools in one job (tsc then eslint),
// so every parser sees every line; a line claimed by an earlier parser is not reported again by a later one.
// The format reported is the one that found the most.
import { parseCompiler } from './compiler.js';
import { parseEslintStylish } from './eslint-stylish.js';
import type { Finding, LineFinding } from './finding.js';
import { parsePython } from './python.js';
import { parseTsc } from './tsc.js';

export type LineFormat = 'tsc' | 'eslint' | 'compiler' | 'python';

// Lines longer than this are minified bundles, base64 or JSON dumps, never a diagnostic; skipping them keeps
// regex work per line bounded.
export const MAX_LINE_CHARS = 16 * 1024;

// A job that prints hundreds of thousands of error lines is described by its first ones (the cause) and its
// last ones (the summary); parsing every line would hold one object per line in memory for no better report.
export const HEAD_LINES = 20_000;
export const TAIL_LINES = 5_000;

const PARSERS: readonly (readonly [LineFormat, (lines: readonly string[], cwd?: string) => LineFinding[]])[] = [
  ['tsc', parseTsc],
  ['eslint', parseEslintStylish],
  ['compiler', parseCompiler],
  ['python', parsePython],
];

export function parseLineShapes(
  lines: readonly string[],
  cwd?: string,
): { findings: Finding[]; format: LineFormat } | undefined {
  // Giant lines become blank rather than disappearing, so line indices (and block structure) stay honest.
  const kept =
    lines.length > HEAD_LINES + TAIL_LINES ? [...lines.slice(0, HEAD_LINES), '', ...lines.slice(-TAIL_LINES)] : lines;
  const bounded = kept.map((line) => (line.length > MAX_LINE_CHARS ? '' : line));
  const claimed = new Set<number>();
  const all: LineFinding[] = [];
  const counts = new Map<LineFormat, number>();
  for (const [format, parse] of PARSERS) {
    let count = 0;
    for (const finding of parse(bounded, cwd)) {
      if (claimed.has(finding.at)) continue;
      claimed.add(finding.at);
      all.push(finding);
      count++;
    }
    counts.set(format, count);
  }
  if (all.length === 0) return undefined;
  let format: LineFormat = 'tsc';
  for (const [candidate] of PARSERS) if ((counts.get(candidate) ?? 0) > (counts.get(format) ?? 0)) format = candidate;
  // Output order: the first problem printed is usually the cause of the rest.
  all.sort((a, b) => a.at - b.at);
  return { findings: all.map(({ at: _at, ...finding }) => finding), format };
}
