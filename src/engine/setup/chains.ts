// Splits a package script that chains tools (`"test": "xo && ava && tsd"`) into one job per part, so a lint
// failure and a test failure read apart and the parts run side by side. Only where it is safe: every part is a
// tool whose effect is known — a read-only check (a linter, a `--noEmit` type check, tsd), a test runner, or a
// build whose output later parts read (it becomes a build job, which runs first) — or a reference to another
// script of the same kind. Anything else (a `||`, a pipe, a redirection, a variable, a `--fix`, a tool not in
// the table, a pre- or post- script) keeps the script one job. Pure.
import type { JobStage } from '../config/jobs.js';

export interface ChainPart {
  /** The job's name: the tool's, or the referenced script's. */
  name: string;
  stage: Exclude<JobStage, 'fix'>;
  /** The command the job runs: the part with the package manager's exec in front for a tool's bin. */
  run: string;
  /** What the part is, for the draft's comment. */
  kind: 'check' | 'test' | 'build' | 'script';
}

export interface ChainContext {
  /** How a bin of node_modules runs outside npm: `npx`, `pnpm exec`, `yarn`, `bunx`. */
  exec: string;
  /** The package's scripts, to follow `npm run <name>` parts. */
  scripts: Readonly<Record<string, string>>;
  /** How a script runs: `npm run lint`, `pnpm run lint`. */
  runScript: (name: string) => string;
}

type Judge = (args: readonly string[]) => Exclude<ChainPart['kind'], 'script'> | undefined;

const changesFiles = (args: readonly string[]): boolean =>
  args.some((a) => /^--(fix|write|apply|apply-unsafe|fix-dry-run)$/.test(a) || a === '-w');
const readOnly: Judge = (args) => (changesFiles(args) ? undefined : 'check');
const test: Judge = (args) => (changesFiles(args) || args.includes('--watch') ? undefined : 'test');

const TOOLS: Readonly<Record<string, Judge>> = {
  xo: readOnly,
  eslint: readOnly,
  standard: readOnly,
  stylelint: readOnly,
  tsd: readOnly,
  markdownlint: readOnly,
  'markdownlint-cli2': readOnly,
  'type-coverage': readOnly,
  publint: readOnly,
  prettier: (args) => (args.some((a) => ['--check', '-c', '--list-different', '-l'].includes(a)) ? 'check' : undefined),
  biome: (args) => (['check', 'lint', 'ci'].includes(args[0] ?? '') && !changesFiles(args) ? 'check' : undefined),
  tsc: (args) =>
    args.includes('--noEmit') ? 'check' : args.some((a) => a === '--watch' || a === '-w') ? undefined : 'build',
  ava: test,
  mocha: test,
  jest: test,
  tap: test,
  tape: test,
  uvu: test,
  vitest: (args) => (args[0] === 'run' || args.includes('--run') ? test(args) : undefined),
};
/** Coverage wrappers: safe when what they wrap is a test runner. */
const WRAPPERS = new Set(['c8', 'nyc']);
/** Shell syntax a part may not hold: with it, the part's effect is the shell's, not the tool's. */
const SHELL = /[|;&<>`$(){}\\]|^\s*\w+=/;

const STAGE: Record<Exclude<ChainPart['kind'], 'script'>, ChainPart['stage']> = {
  check: 'check',
  test: 'test',
  build: 'build',
};

/** The parts of `script`'s text, or undefined when it is not a chain that can be split safely. */
export function splitChain(
  script: string,
  ctx: ChainContext,
  seen: ReadonlySet<string> = new Set(),
): ChainPart[] | undefined {
  const text = ctx.scripts[script];
  if (text === undefined || seen.has(script)) return undefined;
  // npm runs pre<name> and post<name> around the script: split, they would be lost.
  if (ctx.scripts[`pre${script}`] !== undefined || ctx.scripts[`post${script}`] !== undefined) return undefined;
  const pieces = text.split('&&').map((p) => p.trim());
  if (pieces.length < 2 || pieces.some((p) => p === '' || SHELL.test(p))) return undefined;
  const parts: ChainPart[] = [];
  for (const piece of pieces) {
    const part = partOf(piece, ctx, new Set([...seen, script]));
    if (part === undefined) return undefined;
    parts.push(part);
  }
  return named(parts);
}

function partOf(piece: string, ctx: ChainContext, seen: ReadonlySet<string>): ChainPart | undefined {
  const words = piece.split(/\s+/);
  const [tool = '', ...args] = words;
  const ref = scriptReference(words);
  if (ref !== undefined) {
    const referenced = ctx.scripts[ref];
    if (referenced === undefined || seen.has(ref)) return undefined;
    // A referenced script is one job when it is one safe part; its stage is that part's.
    const inner = splitChain(ref, ctx, seen);
    if (inner !== undefined) return undefined;
    const single = referenced.includes('&&') ? undefined : partOf(referenced.trim(), ctx, new Set([...seen, ref]));
    if (single === undefined) return undefined;
    return { name: ref, stage: single.stage, run: ctx.runScript(ref), kind: 'script' };
  }
  if (tool === 'node')
    return args.includes('--test') && !args.includes('--watch') ? tool_('node-test', 'test', piece) : undefined;
  if (WRAPPERS.has(tool)) {
    const wrapped = partOf(args.join(' '), ctx, seen);
    return wrapped?.kind === 'test' ? { ...wrapped, run: `${ctx.exec} ${piece}` } : undefined;
  }
  const kind = TOOLS[tool]?.(args);
  return kind === undefined ? undefined : tool_(tool, kind, `${ctx.exec} ${piece}`);
}

function tool_(name: string, kind: Exclude<ChainPart['kind'], 'script'>, run: string): ChainPart {
  return { name, stage: STAGE[kind], run, kind };
}

/** `npm run x`, `npm test`, `pnpm run x`, `pnpm x`, `yarn x`, `yarn run x`, `bun run x`: the script named, else undefined. */
function scriptReference(words: readonly string[]): string | undefined {
  const [manager = '', first, second, ...rest] = words;
  if (rest.length > 0 || !['npm', 'pnpm', 'yarn', 'bun'].includes(manager)) return undefined;
  if (manager === 'npm' && (first === 'test' || first === 't') && second === undefined) return 'test';
  if (first === 'run') return second;
  const bare = (manager === 'yarn' || manager === 'pnpm') && second === undefined && first !== undefined;
  return bare && !first.startsWith('-') && !['exec', 'install', 'add', 'dlx'].includes(first) ? first : undefined;
}

/** Distinct names: a tool that appears twice gets -2, -3 after the first. */
function named(parts: ChainPart[]): ChainPart[] {
  const count = new Map<string, number>();
  return parts.map((p) => {
    const n = (count.get(p.name) ?? 0) + 1;
    count.set(p.name, n);
    return n === 1 ? p : { ...p, name: `${p.name}-${n}` };
  });
}
