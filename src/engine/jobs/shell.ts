// Which shell runs a job's commands, and the environment it sees. Commands are shell text from discern.toml, so
// they run through the user's own login shell when it is a POSIX-family shell (their aliases of syntax, e.g.
// bash's `[[`, keep working); anything else (fish, nu, /bin/false as a locked account's shell) would misread
// POSIX syntax, so those fall back to /bin/sh.
import { accessSync, constants, statSync } from 'node:fs';
import { basename } from 'node:path';

const POSIX_SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh']);
export const FALLBACK_SHELL = '/bin/sh';

export function selectShell(env: Readonly<Record<string, string | undefined>>): string {
  const candidate = env['SHELL'];
  if (candidate === undefined || !candidate.startsWith('/') || !POSIX_SHELLS.has(basename(candidate)))
    return FALLBACK_SHELL;
  try {
    if (!statSync(candidate).isFile()) return FALLBACK_SHELL;
    accessSync(candidate, constants.X_OK);
    return candidate;
  } catch {
    return FALLBACK_SHELL;
  }
}

// Variables that point git at a particular repository. discern itself may run under them (a git hook, `git
// rebase --exec`), but a job must operate on the checkout it runs in, never on the caller's repository.
const SCRUBBED = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_PREFIX', 'GIT_COMMON_DIR'];

/** The child's environment: `env` without git's repository pointers, plus DISCERN_JOB naming the job. */
export function jobEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  label: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && !SCRUBBED.includes(key)) out[key] = value;
  }
  out['DISCERN_JOB'] = label;
  return out;
}
