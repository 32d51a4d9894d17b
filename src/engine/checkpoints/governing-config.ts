// Which discern.toml governs checkpoints: the one committed at the merge-base with the trunk, so a branch can
// neither add a question to itself nor remove one it should answer (docs/decisions/0028). Only the sections
// checkpoints read ([checkpoints], [scopes], [generated]) are taken and checked, so a merge-base file written for
// another discern version still governs as long as those parse. When it cannot be read, the working file
// governs instead and the result says so (a drop); a merge-base without discern.toml governs nothing.
import { withVariables } from '../config/substitutions.js';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { DiscernConfig } from '../../../generated/types.js';
import { decodeToml } from '../config/toml.js';
import { git, gitComplaint, type GitResult } from '../git/git.js';
import type { Run } from './change-facts.js';

export type GoverningSource = 'merge-base' | 'working';

export interface CheckpointDrop {
  kind: 'governing_config_unreadable' | 'definition_unusable' | 'question_file_unreadable' | 'evidence_unavailable';
  reason: string;
  checkpoint?: string;
}

export interface GoverningConfig {
  source: GoverningSource;
  /** The commit the config was read from; null for the working file. */
  commit: string | null;
  config: Pick<DiscernConfig, 'checkpoints' | 'scopes' | 'generated'>;
  drops: CheckpointDrop[];
  /** Reads a question_file from the same place the config came from. */
  readQuestion(path: string): Promise<{ ok: true; text: string } | { ok: false; reason: string }>;
}

export const QUESTION_FILE_LIMIT = 64 * 1024;

/** The command that reads the merge-base's discern.toml (callers that batch it answer as this command would). */
export function mergeBaseConfigCommand(base: string): string[] {
  return ['cat-file', 'blob', `${base}:discern.toml`];
}

/** `prefetched`: that command's answer for this base, when the caller read it together with other files. */
export async function readGoverningConfig(
  run: Run,
  base: string | null,
  working: DiscernConfig,
  root: string,
  prefetched?: Promise<GitResult | undefined>,
): Promise<GoverningConfig> {
  const fallback = (reason: string): GoverningConfig => ({
    source: 'working',
    commit: null,
    config: sections(working),
    drops: [{ kind: 'governing_config_unreadable', reason: `${reason}; the working discern.toml governs instead` }],
    readQuestion: (path) => readWorkingQuestion(root, path),
  });
  if (base === null) return fallback('HEAD shares no history with the trunk, so there is no merge-base discern.toml');
  const shown =
    (await prefetched) ??
    (await git(mergeBaseConfigCommand(base), {
      cwd: run.cwd,
      env: run.env,
      ...(run.signal ? { signal: run.signal } : {}),
    }));
  if (shown.code !== 0) {
    if (
      /does not exist|exists on disk, but not in|not a valid object name|Not a valid object name/.test(shown.stderr)
    ) {
      // The trunk had no discern.toml when this branch left it (a setup branch, say): nothing governs yet.
      return {
        source: 'merge-base',
        commit: base,
        config: {},
        drops: [],
        readQuestion: (path) => readCommittedQuestion(run, base, path),
      };
    }
    return fallback(`the merge-base's discern.toml cannot be read (${gitComplaint(shown)})`);
  }
  const decoded = decodeToml(Buffer.from(shown.stdout, 'utf8'), `discern.toml at ${base.slice(0, 12)}`);
  if (!decoded.ok) return fallback(decoded.problem.message.replace(/\.$/, ''));
  // Variables take their values from the whole file, before the governing sections are picked out of it.
  const picked = sections(withVariables((decoded.value ?? {}) as DiscernConfig).config);
  // No checkpoint at the merge-base: nothing governs, and the schema validator need not load.
  if (picked.checkpoints === undefined)
    return {
      source: 'merge-base',
      commit: base,
      config: {},
      drops: [],
      readQuestion: (path) => readCommittedQuestion(run, base, path),
    };
  const { validateDecoded } = await import('../config/validate.js');
  const checked = validateDecoded(picked, decoded.text, `discern.toml at ${base.slice(0, 12)}`);
  if (!checked.ok) return fallback(checked.message.replace(/\.$/, ''));
  return {
    source: 'merge-base',
    commit: base,
    config: picked,
    drops: [],
    readQuestion: (path) => readCommittedQuestion(run, base, path),
  };
}

function sections(config: DiscernConfig): Pick<DiscernConfig, 'checkpoints' | 'scopes' | 'generated'> {
  return {
    ...(config.checkpoints !== undefined ? { checkpoints: config.checkpoints } : {}),
    ...(config.scopes !== undefined ? { scopes: config.scopes } : {}),
    ...(config.generated !== undefined ? { generated: config.generated } : {}),
  };
}

async function readCommittedQuestion(
  run: Run,
  commit: string,
  path: string,
): Promise<{ ok: true; text: string } | { ok: false; reason: string }> {
  const o = { cwd: run.cwd, env: run.env, ...(run.signal ? { signal: run.signal } : {}) };
  const size = await git(['cat-file', '-s', `${commit}:${path}`], o);
  if (size.code !== 0) return { ok: false, reason: `${path} is not in the merge-base (${commit.slice(0, 12)})` };
  if (Number(size.stdout.trim()) > QUESTION_FILE_LIMIT) return { ok: false, reason: `${path} is larger than 64 KiB` };
  const blob = await git(['cat-file', 'blob', `${commit}:${path}`], o);
  if (blob.code !== 0) return { ok: false, reason: `${path} cannot be read at the merge-base (${gitComplaint(blob)})` };
  return { ok: true, text: blob.stdout.trim() };
}

async function readWorkingQuestion(
  root: string,
  path: string,
): Promise<{ ok: true; text: string } | { ok: false; reason: string }> {
  try {
    const info = await stat(join(root, path));
    if (!info.isFile()) return { ok: false, reason: `${path} is not a file` };
    if (info.size > QUESTION_FILE_LIMIT) return { ok: false, reason: `${path} is larger than 64 KiB` };
    return { ok: true, text: (await readFile(join(root, path), 'utf8')).trim() };
  } catch (error) {
    return { ok: false, reason: `${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
}
