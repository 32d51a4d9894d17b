// Decides whether a configured command's program can be found, without running it: the first word after any
// VAR=value assignments is a shell builtin, a path in the checkout, or a name on PATH. Shell constructs
// (subshells, if/for/while) cannot be judged statically and say so.
import { access, constants, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';

export type CommandResolution =
  | { status: 'ok'; program: string; detail: string }
  | { status: 'warn'; program: string; detail: string; fix: string }
  | { status: 'fail'; program: string; detail: string; fix: string };

// POSIX special and regular builtins, plus the common bash/zsh ones: the shell runs them itself.
const BUILTINS = new Set([
  ':',
  '.',
  'source',
  'cd',
  'echo',
  'printf',
  'test',
  '[',
  'true',
  'false',
  'exit',
  'export',
  'set',
  'unset',
  'eval',
  'type',
  'read',
  'wait',
  'trap',
  'umask',
  'ulimit',
  'shift',
  'return',
  'pwd',
  'alias',
  'unalias',
  'let',
  'local',
  'declare',
  'typeset',
  'readonly',
  'times',
  'hash',
  'getopts',
  'jobs',
  'fg',
  'bg',
  'break',
  'continue',
  'shopt',
]);
// Words that run the next word as the program.
const PREFIXES = new Set(['exec', 'command', 'time', 'builtin']);
const CONSTRUCTS = new Set(['(', '{', 'if', 'for', 'while', 'until', 'case', '!', 'function', 'select', '[[']);

export function firstProgram(command: string): string | undefined {
  const words: string[] = command.trim().match(/"[^"]*"|'[^']*'|\S+/g) ?? [];
  let afterPrefix = false;
  for (const word of words) {
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) continue; // VAR=value prefix
    if (PREFIXES.has(word)) {
      afterPrefix = true;
      continue;
    }
    if (afterPrefix && word.startsWith('-')) continue; // options of exec/command/time, e.g. time -p
    return word.replace(/^["']|["']$/g, '');
  }
  return undefined;
}

/**
 * `ensure`: the [repository] ensure commands. A program in the checkout that one of them makes (a virtualenv's
 * `.venv/bin/python` after `python3 -m venv .venv`) is not there before ensure runs, and is no failure.
 */
export async function resolveCommand(
  command: string,
  root: string,
  env: Readonly<Record<string, string | undefined>>,
  ensure: readonly string[] = [],
): Promise<CommandResolution> {
  const program = firstProgram(command);
  if (program === undefined) return { status: 'ok', program: '', detail: 'only variable assignments' };
  if (CONSTRUCTS.has(program) || program.startsWith('(')) {
    return {
      status: 'warn',
      program,
      detail: `starts with the shell construct "${program}", which cannot be checked without running it`,
      fix: 'Move the logic into a script file and configure that script, so it can be checked.',
    };
  }
  if (BUILTINS.has(program)) return { status: 'ok', program, detail: `"${program}" is a shell builtin` };
  if (/[~$`*?]/.test(program)) {
    return {
      status: 'warn',
      program,
      detail: `"${program}" is expanded by the shell (~, $, \`, globs), so it cannot be checked without running it`,
      fix: 'Name the program directly (a path in the checkout or a name on PATH) so it can be checked.',
    };
  }
  if (program.includes('/')) {
    const path = isAbsolute(program) ? program : join(root, program);
    const maker = isAbsolute(program) ? undefined : ensureThatMakes(program, ensure);
    if (maker !== undefined && !(await isExecutableFile(path)))
      return { status: 'ok', program, detail: `${program} is made by the ensure command \`${maker}\`` };
    if (!(await isExecutableFile(path))) {
      return {
        status: 'fail',
        program,
        detail: `${program} is not an executable file${isAbsolute(program) ? '' : ' in the checkout'}`,
        fix: `Create ${program} and make it executable (chmod +x), or correct the command in discern.toml.`,
      };
    }
    return { status: 'ok', program, detail: `${program} is executable` };
  }
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (dir.length > 0 && (await isExecutableFile(join(dir, program))))
      return { status: 'ok', program, detail: `${program} found at ${join(dir, program)}` };
  }
  if (await isExecutableFile(join(root, 'node_modules', '.bin', program))) {
    return {
      status: 'warn',
      program,
      detail: `${program} is only in node_modules/.bin, which is not on PATH`,
      fix: `Call it as \`npx ${program}\` or through an npm script, or add node_modules/.bin to PATH.`,
    };
  }
  return {
    status: 'fail',
    program,
    detail: `${program} is not on PATH`,
    fix: `Install ${program}, or correct the command in discern.toml.`,
  };
}

async function isExecutableFile(path: string): Promise<boolean> {
  try {
    if (!(await stat(path)).isFile()) return false;
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The ensure command that names the first directory of `program`'s path as a word of its own, if any. */
function ensureThatMakes(program: string, ensure: readonly string[]): string | undefined {
  const first = program.replace(/^\.\//, '').split('/')[0] ?? '';
  if (first === '' || first === '.' || first === '..') return undefined;
  const word = new RegExp(`(^|[\\s'"=/])${first.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[\\s'"/])`);
  return ensure.find((command) => word.test(command));
}
