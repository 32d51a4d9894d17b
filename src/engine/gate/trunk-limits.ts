// This branch's [standards] against the trunk's committed discern.toml: the never-loosen comparison done runs as a
// precondition and the standards verbs report (measure) or build on (propose). The trunk's file is read from the
// ref, never from a checkout of it, so an uncommitted edit on the trunk's checkout changes nothing.
import type { StandardDefinition } from '../config/standards.js';
import { git, gitComplaint, type GitResult } from '../git/git.js';
import { limitBreaches, readTrunkStandards, type LimitBreach } from './standards-limits.js';

export type TrunkComparison =
  /** The trunk's discern.toml cannot be read (no such ref or file): nothing can be held. */
  | { status: 'unverified'; reason: string }
  /** It can be read but not compared (not TOML, or a standard without direction, limit and run). */
  | { status: 'parse_failed'; reason: string }
  | { status: 'compared'; trunk: StandardDefinition[]; breaches: LimitBreach[] };

export interface TrunkRef {
  root: string;
  env: Readonly<Record<string, string | undefined>>;
  signal?: AbortSignal;
  /** The trunk as named to people. */
  base: string;
  /** The same as git is given it (refs/heads/<trunk>, so a tag of that name cannot stand in). */
  baseRef: string;
  /** trunkConfigRead's answer, when the caller started it early. */
  shown?: Promise<GitResult>;
}

/** `git show <trunk>:discern.toml`: the trunk's committed file (callers that batch it answer as this command would). */
export function trunkConfigCommand(baseRef: string): string[] {
  return ['show', `${baseRef}:discern.toml`];
}

export function trunkConfigRead(ref: TrunkRef): Promise<GitResult> {
  return git(trunkConfigCommand(ref.baseRef), {
    cwd: ref.root,
    env: ref.env,
    ...(ref.signal ? { signal: ref.signal } : {}),
  });
}

export async function compareWithTrunk(
  ref: TrunkRef,
  current: readonly StandardDefinition[],
): Promise<TrunkComparison> {
  const shown = await (ref.shown ?? trunkConfigRead(ref));
  if (shown.code !== 0)
    return { status: 'unverified', reason: `${ref.base}:discern.toml cannot be read (${gitComplaint(shown)})` };
  const trunk = readTrunkStandards(shown.stdout);
  if (!trunk.ok) return { status: 'parse_failed', reason: trunk.reason };
  return { status: 'compared', trunk: trunk.standards, breaches: limitBreaches(trunk.standards, current) };
}
