// A reproduce command for one failure: the job's own command with the runner's test or file selection replaced by
// the failure's (narrowing.ts). The job's other options stay (a config file, a reporter, a marker), its positional
// selections and name filters go, since they would run more than the one test. A package script that is one
// runner command (`"test": "jest --ci"`) is read through. Anything this cannot rewrite with certainty — shell
// syntax, a runner the command does not run, a script that chains tools — gives undefined, and the diagnostic
// keeps the job's whole command, which still reproduces the failure. Pure.
import { basename } from 'node:path';
import { shellQuote } from '../process/shell-quote.js';
import { simpleCommandWords, type ShellWord } from '../process/shell-words.js';
import type { Narrowing, RunnerName, RunnerNarrowing } from './narrowing.js';

interface RunnerSyntax {
  /** Index of the runner's first own argument in `words`, or undefined when the command does not run it. */
  locate: (words: readonly string[]) => number | undefined;
  /** Options whose value is the next word (when not written `--opt=value`). */
  values: readonly string[];
  /** Options the narrowing replaces (a name filter, a last-failed mode): dropped with their value. */
  drop?: readonly string[];
  /** A word that must follow the located runner (vitest's `run`, so the rerun does not watch). */
  insert?: string;
  /** Node bins run through the package manager's exec when read from a package script. */
  bin?: boolean;
}

const program = (name: string) => (words: readonly string[]) => {
  const at = words.findIndex((w) => basename(w) === name);
  return at === -1 ? undefined : at + 1;
};
const module_ = (name: string) => (words: readonly string[]) => {
  for (let i = 0; i + 1 < words.length; i++) if (words[i] === '-m' && words[i + 1] === name) return i + 2;
  return undefined;
};
const either =
  (...locators: ((w: readonly string[]) => number | undefined)[]) =>
  (words: readonly string[]) => {
    for (const locate of locators) {
      const at = locate(words);
      if (at !== undefined) return at;
    }
    return undefined;
  };
const subcommand = (name: string, subs: readonly string[]) => (words: readonly string[]) => {
  for (let i = 0; i + 1 < words.length; i++)
    if (basename(words[i] ?? '') === name) {
      // `cargo +nightly test`: a toolchain override sits between cargo and its subcommand.
      const next = words[i + 1]?.startsWith('+') === true ? i + 2 : i + 1;
      if (subs.includes(words[next] ?? '')) return next + 1;
    }
  return undefined;
};

const SYNTAX: Record<RunnerName, RunnerSyntax> = {
  'node-test': {
    locate: (words) => {
      const at = words.findIndex((w) => basename(w) === 'node');
      return at !== -1 && words.slice(at + 1).includes('--test') ? at + 1 : undefined;
    },
    values: [
      '--import',
      '--require',
      '-r',
      '--loader',
      '--experimental-loader',
      '--test-reporter',
      '--test-reporter-destination',
      '--test-concurrency',
      '--test-timeout',
      '--conditions',
      '-C',
      '--env-file',
    ],
    drop: ['--test-name-pattern', '--test-skip-pattern', '--test-only'],
  },
  jest: {
    locate: program('jest'),
    values: [
      '-c',
      '--config',
      '--selectProjects',
      '--shard',
      '-w',
      '--maxWorkers',
      '--testTimeout',
      '--reporters',
      '--coverageReporters',
      '--rootDir',
      '--roots',
      '--outputFile',
      '--testEnvironment',
      '--env',
      '--seed',
      '--coverageDirectory',
      '--testPathIgnorePatterns',
      '-t',
      '--testNamePattern',
      '--testPathPattern',
      '--testPathPatterns',
    ],
    drop: [
      '-t',
      '--testNamePattern',
      '--testPathPattern',
      '--testPathPatterns',
      '-o',
      '--onlyChanged',
      '--lastCommit',
      '--changedSince',
      '--onlyFailures',
      '-f',
      '--findRelatedTests',
    ],
    bin: true,
  },
  vitest: {
    locate: (words) => {
      const at = program('vitest')(words);
      return at === undefined ? undefined : words[at] === 'run' ? at + 1 : at;
    },
    values: [
      '-c',
      '--config',
      '-r',
      '--root',
      '--dir',
      '--project',
      '--reporter',
      '--outputFile',
      '--pool',
      '--shard',
      '--environment',
      '--mode',
      '--maxWorkers',
      '--testTimeout',
      '--exclude',
      '-t',
      '--testNamePattern',
    ],
    drop: ['-t', '--testNamePattern', '--changed', '--watch', '-w'],
    insert: 'run',
    bin: true,
  },
  mocha: {
    locate: program('mocha'),
    values: [
      '--config',
      '--require',
      '-r',
      '--reporter',
      '-R',
      '--reporter-option',
      '-O',
      '--timeout',
      '-t',
      '--slow',
      '-s',
      '--ui',
      '-u',
      '--extension',
      '--ignore',
      '--file',
      '--package',
      '--node-option',
      '-n',
      '--jobs',
      '-j',
      '--retries',
      '--spec',
      '--grep',
      '-g',
      '--fgrep',
      '-f',
    ],
    drop: ['--spec', '--grep', '-g', '--fgrep', '-f', '--invert', '-i'],
    bin: true,
  },
  ava: {
    locate: program('ava'),
    values: ['--concurrency', '-c', '--timeout', '-T', '--node-arguments', '--config', '--match', '-m'],
    drop: ['--match', '-m'],
    bin: true,
  },
  tap: {
    locate: (words) => {
      const at = program('tap')(words);
      return at === undefined ? undefined : words[at] === 'run' ? at + 1 : at;
    },
    values: [
      '--reporter',
      '-R',
      '--timeout',
      '-t',
      '--grep',
      '-g',
      '--jobs',
      '-j',
      '--node-arg',
      '--before',
      '--after',
      '--save',
      '--changed',
    ],
    drop: ['--grep', '-g', '--only', '-O', '--save', '--changed'],
    bin: true,
  },
  pytest: {
    locate: either(program('pytest'), program('py.test'), module_('pytest')),
    values: [
      '-k',
      '-m',
      '-p',
      '-c',
      '-o',
      '-W',
      '-r',
      '--tb',
      '--rootdir',
      '--basetemp',
      '--confcutdir',
      '--maxfail',
      '--deselect',
      '--ignore',
      '--ignore-glob',
      '--junitxml',
      '--junit-xml',
      '--cov-report',
      '--cov-config',
      '-n',
      '--numprocesses',
      '--dist',
      '--log-level',
      '--durations',
      '--import-mode',
      '--capture',
      '--color',
      '--override-ini',
      '--timeout',
      '--reruns',
      '--config-file',
    ],
    drop: [
      '-k',
      '--lf',
      '--last-failed',
      '--ff',
      '--failed-first',
      '--sw',
      '--stepwise',
      '--deselect',
      '-x',
      '--exitfirst',
      '--maxfail',
    ],
  },
  unittest: {
    locate: (words) => {
      const at = module_('unittest')(words);
      return at !== undefined && words[at] === 'discover' ? at + 1 : at;
    },
    values: ['-k', '-s', '--start-directory', '-p', '--pattern', '-t', '--top-level-directory'],
    drop: ['-k'],
  },
  'go-test': {
    locate: subcommand('go', ['test']),
    values: [
      '-run',
      '-skip',
      '-bench',
      '-benchtime',
      '-count',
      '-timeout',
      '-tags',
      '-p',
      '-parallel',
      '-cpu',
      '-coverprofile',
      '-covermode',
      '-coverpkg',
      '-o',
      '-exec',
      '-ldflags',
      '-gcflags',
      '-mod',
      '-vet',
      '-shuffle',
      '-failfast',
    ],
    drop: ['-run', '-skip'],
  },
  'cargo-test': {
    locate: subcommand('cargo', ['test', 't']),
    values: [
      '-p',
      '--package',
      '-F',
      '--features',
      '--target',
      '--manifest-path',
      '--test',
      '--bin',
      '--example',
      '--bench',
      '-j',
      '--jobs',
      '--profile',
      '--target-dir',
      '--color',
      '--config',
      '-Z',
      '--exclude',
    ],
    drop: [
      '--test',
      '--bin',
      '--example',
      '--bench',
      '--lib',
      '--bins',
      '--tests',
      '--examples',
      '--benches',
      '--all-targets',
      '--doc',
    ],
  },
  eslint: {
    locate: program('eslint'),
    values: [
      '-c',
      '--config',
      '-f',
      '--format',
      '--ext',
      '--rule',
      '--plugin',
      '--parser',
      '--parser-options',
      '--resolve-plugins-relative-to',
      '--ignore-path',
      '--ignore-pattern',
      '-o',
      '--output-file',
      '--max-warnings',
      '--cache-location',
      '--cache-strategy',
      '--env',
      '--global',
      '--rulesdir',
      '--flag',
      '--report-unused-disable-directives-severity',
      '--concurrency',
    ],
    bin: true,
  },
  biome: {
    locate: subcommand('biome', ['lint', 'check', 'ci']),
    values: [
      '--config-path',
      '--max-diagnostics',
      '--reporter',
      '--diagnostic-level',
      '--log-level',
      '--log-kind',
      '--only',
      '--skip',
      '--vcs-root',
      '--vcs-default-branch',
      '--since',
      '--stdin-file-path',
      '--colors',
    ],
    drop: ['--changed', '--staged', '--since'],
    bin: true,
  },
  xo: {
    locate: program('xo'),
    values: [
      '--reporter',
      '--cwd',
      '--ignore',
      '--env',
      '--global',
      '--plugin',
      '--extend',
      '--parser',
      '--extension',
      '--stdin-filename',
    ],
    bin: true,
  },
  flake8: {
    locate: either(program('flake8'), module_('flake8')),
    values: [
      '--select',
      '--ignore',
      '--extend-ignore',
      '--extend-select',
      '--max-line-length',
      '--max-doc-length',
      '--config',
      '--append-config',
      '--exclude',
      '--extend-exclude',
      '--format',
      '--max-complexity',
      '--per-file-ignores',
      '--output-file',
      '-j',
      '--jobs',
    ],
  },
  ruff: {
    locate: subcommand('ruff', ['check']),
    values: [
      '--config',
      '--select',
      '--ignore',
      '--extend-select',
      '--extend-ignore',
      '--output-format',
      '--target-version',
      '--line-length',
      '--exclude',
      '--extend-exclude',
      '--per-file-ignores',
      '--cache-dir',
      '-o',
      '--output-file',
    ],
  },
  mypy: {
    locate: either(program('mypy'), module_('mypy')),
    values: [
      '--config-file',
      '--python-version',
      '--platform',
      '--cache-dir',
      '--exclude',
      '--always-true',
      '--always-false',
      '--enable-error-code',
      '--disable-error-code',
      '--custom-typeshed-dir',
      '--python-executable',
      '-p',
      '--package',
      '-m',
      '--module',
    ],
    drop: ['-p', '--package', '-m', '--module'],
  },
};

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

function narrowRunner(command: string, narrowing: RunnerNarrowing, context: ReproduceContext): string | undefined {
  const words = simpleCommandWords(command);
  if (words === undefined) return undefined;
  const syntax = SYNTAX[narrowing.runner];
  const direct = rewrite(words, narrowing, syntax);
  if (direct !== undefined) return direct;
  const script = scriptOf(
    words.map((w) => w.value),
    context.scripts,
  );
  if (script === undefined) return undefined;
  const scriptWords = simpleCommandWords(script.text);
  if (scriptWords === undefined) return undefined;
  const rewritten = rewrite(scriptWords, narrowing, syntax);
  if (rewritten === undefined) return undefined;
  // A script runs with node_modules/.bin on PATH; outside it, the package manager's exec finds the same bin.
  const first = basename(scriptWords[0]?.value ?? '');
  return syntax.bin === true && !NOT_BINS.has(first) ? `${script.exec} ${rewritten}` : rewritten;
}

const NOT_BINS = new Set(['node', 'npx', 'pnpm', 'yarn', 'bunx', 'bun', 'python', 'python3', 'uv', 'poetry']);

function rewrite(words: readonly ShellWord[], narrowing: RunnerNarrowing, syntax: RunnerSyntax): string | undefined {
  const at = syntax.locate(words.map((w) => w.value));
  if (at === undefined) return undefined;
  const kept: string[] = words.slice(0, at).map((w) => w.raw);
  if (syntax.insert !== undefined && words[at - 1]?.value !== syntax.insert) kept.push(syntax.insert);
  const rest = words.slice(at);
  const separator = rest.findIndex((w) => w.value === '--');
  const own = separator === -1 ? rest : rest.slice(0, separator);
  const after = separator === -1 ? [] : rest.slice(separator + 1);
  const values = new Set(syntax.values);
  const drop = new Set(syntax.drop ?? []);
  for (let i = 0; i < own.length; i++) {
    const word = own[i] as ShellWord;
    const [name, attached] = splitOption(word.value);
    const takesValue = attached === undefined && values.has(name);
    if (drop.has(name)) {
      if (takesValue) i++;
      continue;
    }
    if (!word.value.startsWith('-') || word.value === '-') continue; // a positional selection: replaced below
    kept.push(word.raw);
    if (takesValue && i + 1 < own.length) kept.push((own[++i] as ShellWord).raw);
  }
  kept.push(...narrowing.args.map(shellQuote));
  const binary = [...after.map((w) => w.raw), ...(narrowing.binaryArgs ?? []).map(shellQuote)];
  if (narrowing.runner === 'cargo-test' && binary.length > 0) kept.push('--', ...dedupe(binary));
  else if (after.length > 0) kept.push('--', ...after.map((w) => w.raw));
  return kept.join(' ');
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
