// The env step of a pass over an effort's worktree for [worktree] port and inherit_env: PORT and the inherited
// names' current values from the main checkout are written into the worktree's first env file (writes go to the
// first of env_files), replacing those names' lines and keeping every other line. A name the main checkout does
// not set is skipped and named in the step's note; it is not a failure, the worktree works without it as main does.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { DiscernStep } from '../../../generated/types.js';
import { git } from '../git/git.js';
import { readEnvAssignments, setEnvValues } from './env-file-edit.js';

export interface EnvWrite {
  /** [worktree] env_files: the first is written, all of them are read in the main checkout. */
  envFiles: readonly string[];
  /** The port the effort holds, when [worktree] port is on. */
  port?: number;
  /** [worktree] inherit_env. */
  inherit: readonly string[];
}

/** What to write and what main does not set: decided before anything is written. */
export function planEnvWrite(
  write: EnvWrite,
  mainValues: ReadonlyMap<string, string>,
): { values: Map<string, string>; unset: string[] } {
  const values = new Map<string, string>();
  const unset: string[] = [];
  for (const name of write.inherit) {
    const value = mainValues.get(name);
    if (value === undefined) unset.push(name);
    else values.set(name, value);
  }
  // The effort's own port, never main's: a PORT that main sets and inherit_env names would have every worktree
  // compete for one port.
  if (write.port !== undefined) values.set('PORT', String(write.port));
  return { values, unset };
}

export async function writeEnvValues(
  write: EnvWrite,
  worktree: string,
  mainRoot: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ ok: true; step: DiscernStep } | { ok: false; step: DiscernStep; message: string }> {
  const at = performance.now();
  const target = write.envFiles[0];
  const { values, unset } = planEnvWrite(write, readEnvAssignments(mainRoot, write.envFiles));
  const names = [...values.keys()];
  const unsetNote =
    unset.length > 0 ? `the main checkout's env files set no ${unset.join(', ')}: not written (inherit_env)` : '';
  const step = (outcome: 'ok' | 'skipped' | 'failed', label: string, note: string): DiscernStep => ({
    kind: 'env',
    label,
    disposition: 'run',
    ...(note !== '' ? { note } : {}),
    outcome,
    duration_s: Math.round((performance.now() - at) / 1000),
  });
  if (target === undefined)
    return {
      ok: true,
      step: step('skipped', 'write env values', '[worktree] env_files is empty: there is no env file to write to'),
    };
  if (names.length === 0) return { ok: true, step: step('skipped', `write ${target}`, unsetNote) };
  const label = `write ${names.join(', ')} to ${target}`;
  // A committed env file is the change's, not the worktree's settings: writing it would dirty the worktree.
  const tracked = await git(['ls-files', '--', target], { cwd: worktree, env });
  if (tracked.code === 0 && tracked.stdout.trim() !== '')
    return {
      ok: true,
      step: step(
        'skipped',
        label,
        [`${target} is tracked by git: discern does not edit a committed file`, unsetNote].filter(Boolean).join('; '),
      ),
    };
  try {
    const path = join(worktree, target);
    await mkdir(dirname(path), { recursive: true });
    const before = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '';
      throw error;
    });
    const after = setEnvValues(before, values);
    if (after !== before) await writeFile(path, after, { mode: 0o600 });
    return { ok: true, step: step('ok', label, unsetNote) };
  } catch (error) {
    const message = `${target} could not be written in ${worktree}: ${(error as Error).message}`;
    return { ok: false, step: step('failed', label, unsetNote), message };
  }
}
