// A reproduce command for one failure: the job's own command with the runner's test or file selection replaced by
// the failure's (narrowing.ts). The job's other options stay (a config file, a reporter, a marker), its positional
// selections and name filters go, since they would run more than the one test. A package script that is one
// runner command (`"test": "jest --ci"`) is read through. Anything this cannot rewrite with certainty — shell
// syntax, a runner the command does not run, a script that chains tools — gives undefined, and the diagnostic
// keeps the job's whole command, which still reproduces the failure. Pure.
import { basename } from 'node:path';
import { inCheckout } from './checkout-path.js';
import { shellQuote } from '../process/shell-quote.js';
import { simpleCommandWords, type ShellWord } from '../process/shell-words.js';
import type { Narrowing, RunnerName, RunnerNarrowing } from './narrowing.js';
import { RUNNER_SYNTAX, type RunnerSyntax } from './runner-syntax.js';

export interface ReproduceContext {
  /** The package's scripts (package.json), to read a script reference (`npm test`) through. */
  scripts?: Readonly<Record<string, string>>;
}

/** The job's command narrowed to one failure, or undefined when it cannot be done with certainty. */
export function narrowCommand(
  command: string,
  narrowing: Narrowing,
  context: ReproduceContext = {},
): string | undefined {
  if ('file' in narrowing) {
    if (!inCheckout(narrowing.file) || narrowing.file.startsWith('-')) return undefined;
    // A linter's finding names a file; whichever linter the command runs is narrowed to it.
    for (const runner of LINTERS) {
      const narrowed = narrowRunner(command, { runner, args: [narrowing.file] }, context);
      if (narrowed !== undefined) return narrowed;
    }
    return undefined;
  }
  return narrowRunner(command, narrowing, context);
}

const LINTERS: readonly RunnerName[] = ['eslint', 'biome', 'xo', 'flake8', 'ruff', 'mypy'];

// The options a narrowing itself adds. Everything else it appends (a file, a node id, a test name) comes from the
// job's output, which the change under test wrote: a word there that starts with `-` would reach the runner as an
// option (`--config=evil.js`), so such a narrowing is not used and the job's own command stands.
const OWN_OPTIONS = new Set(['-t', '--grep', '--match', '-run', '-k', '--lib', '--test', '--bin', '--exact']);

function ownArguments(narrowing: RunnerNarrowing): boolean {
  return [...narrowing.args, ...(narrowing.binaryArgs ?? [])].every(
    (arg) => (!arg.startsWith('-') || OWN_OPTIONS.has(arg) || /^--test-name-pattern=\^/.test(arg)) && inCheckout(arg),
  );
}

// A file or node id from the output that names a place outside the checkout (an absolute path, a `..` step) would
// make the rerun run code the project does not hold: such a narrowing is not used.

function narrowRunner(command: string, narrowing: RunnerNarrowing, context: ReproduceContext): string | undefined {
  if (!ownArguments(narrowing)) return undefined;
  const words = simpleCommandWords(command);
  if (words === undefined) return undefined;
  const syntax = RUNNER_SYNTAX[narrowing.runner];
  const direct = rewrite(words, narrowing, syntax);
  if (direct !== undefined) return direct.join(' ');
  const script = scriptOf(
    words.map((w) => w.value),
    context.scripts,
  );
  if (script === undefined) return undefined;
  const scriptWords = simpleCommandWords(script.text);
  if (scriptWords === undefined) return undefined;
  const rewritten = rewrite(scriptWords, narrowing, syntax);
  if (rewritten === undefined) return undefined;
  // A script runs with node_modules/.bin on PATH; outside it, the package manager's exec finds the same bin. The
  // script's leading `NAME=value` words stay in front, where the shell reads them as the command's environment.
  const assignments = scriptWords.findIndex((w) => !ASSIGNMENT.test(w.value));
  if (assignments === -1) return undefined;
  const first = basename(scriptWords[assignments]?.value ?? '');
  if (syntax.bin !== true || NOT_BINS.has(first)) return rewritten.join(' ');
  return [...rewritten.slice(0, assignments), script.exec, ...rewritten.slice(assignments)].join(' ');
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

const NOT_BINS = new Set(['node', 'npx', 'pnpm', 'yarn', 'bunx', 'bun', 'python', 'python3', 'uv', 'poetry']);

/** The command's words with the narrowing in place of its selections, or undefined when an option's arity is unknown. */
function rewrite(words: readonly ShellWord[], narrowing: RunnerNarrowing, syntax: RunnerSyntax): string[] | undefined {
  const at = syntax.locate(words.map((w) => w.value));
  if (at === undefined) return undefined;
  const kept: string[] = words.slice(0, at).map((w) => w.raw);
  if (syntax.insert !== undefined && words[at - 1]?.value !== syntax.insert) kept.push(syntax.insert);
  const rest = words.slice(at);
  const separator = rest.findIndex((w) => w.value === '--');
  const own = separator === -1 ? rest : rest.slice(0, separator);
  const after = separator === -1 ? [] : rest.slice(separator + 1);
  const values = new Set(syntax.values);
  const flags = new Set(syntax.flags);
  const keepPositionals = syntax.keepPositionals?.(words.map((w) => w.value)) === true;
  const drop = new Set(syntax.drop ?? []);
  for (let i = 0; i < own.length; i++) {
    const word = own[i] as ShellWord;
    const [name, attached] = splitOption(word.value);
    const takesValue = attached === undefined && values.has(name);
    if (drop.has(name)) {
      if (takesValue) i++;
      continue;
    }
    if (!word.value.startsWith('-') || word.value === '-') {
      // A positional selection is replaced below, except where the runner reads positionals as settings
      // (unittest discover's start directory and pattern).
      if (keepPositionals) kept.push(word.raw);
      continue;
    }
    // An option this table does not know, followed by a plain word: that word may be its value (`--cov src`) or a
    // selection, and guessing wrong runs other tests or drops the failing one. The job's command stands.
    const next = own[i + 1]?.value;
    if (attached === undefined && !values.has(name) && !flags.has(name) && next !== undefined && !next.startsWith('-'))
      return undefined;
    kept.push(word.raw);
    if (takesValue && i + 1 < own.length) kept.push((own[++i] as ShellWord).raw);
  }
  kept.push(...narrowing.args.map(shellQuote));
  const binary = [...after.map((w) => w.raw), ...(narrowing.binaryArgs ?? []).map(shellQuote)];
  if (narrowing.runner === 'cargo-test' && binary.length > 0) kept.push('--', ...dedupe(binary));
  else if (after.length > 0) kept.push('--', ...after.map((w) => w.raw));
  return kept;
}

function splitOption(word: string): [string, string | undefined] {
  const eq = word.indexOf('=');
  return word.startsWith('-') && eq > 0 ? [word.slice(0, eq), word.slice(eq + 1)] : [word, undefined];
}

function dedupe(words: readonly string[]): string[] {
  return [...new Set(words)];
}

/** `npm test`, `npm run x`, `pnpm x`, `yarn x`, `bun run x`: the script's text and how its bins run outside it. */
function scriptOf(
  words: readonly string[],
  scripts: Readonly<Record<string, string>> | undefined,
): { text: string; exec: string } | undefined {
  if (scripts === undefined) return undefined;
  const [manager = '', first, second, ...rest] = words;
  const exec = { npm: 'npx', pnpm: 'pnpm exec', yarn: 'yarn', bun: 'bunx' }[manager];
  if (exec === undefined || rest.length > 0) return undefined;
  let name: string | undefined;
  if ((first === 'test' || first === 't') && second === undefined) name = 'test';
  else if (first === 'run' || first === 'run-script') name = second;
  else if ((manager === 'pnpm' || manager === 'yarn') && second === undefined) name = first;
  if (name === undefined || name.startsWith('-')) return undefined;
  // pre- and post- scripts run around the script: reading it through would drop them.
  if (scripts[`pre${name}`] !== undefined || scripts[`post${name}`] !== undefined) return undefined;
  const text = scripts[name];
  return text === undefined ? undefined : { text, exec };
}
