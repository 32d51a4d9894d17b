// How each test runner and linter reads its command line, as far as narrowing a command needs: where the
// runner's own arguments start, which options take the next word as their value, and which options the
// narrowing replaces (a name filter, a last-failed mode). Option lists come from each tool's --help.
import { basename } from 'node:path';
import type { RunnerName } from './narrowing.js';

export interface RunnerSyntax {
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

export const RUNNER_SYNTAX: Record<RunnerName, RunnerSyntax> = {
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
