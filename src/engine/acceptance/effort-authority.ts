// An effort's landing authority as things stand, without consent from this call: the owner's grant for the
// effort, or the trunk's [acceptance] pre_authorized scopes covering every changed path. The caller passes the
// trunk's policy (never the effort's own discern.toml) and the changed paths; the grant is read here (one file).
import type { DiscernLandingAuthority } from '../../../generated/types.js';
import type { CompiledScope } from '../scopes/index.js';
import { decideAuthority } from './authority.js';
import { acceptancePaths, grants } from './records.js';

export interface EffortAuthorityFacts {
  commonDir: string;
  effort: string;
  /** The effort's branch: a grant names the branch it was given for, and counts only on that branch. */
  branch: string;
  /** The trunk's [acceptance] pre_authorized. */
  preAuthorized: readonly string[];
  /** The trunk's [scopes], compiled. */
  scopes: readonly CompiledScope[];
  changed: readonly string[];
}

export async function effortLandingAuthority(facts: EffortAuthorityFacts): Promise<DiscernLandingAuthority> {
  // A grant that cannot be read, or one not sealed by discern, grants nothing here, as at accept.
  // The effort id comes from the worktree's own task record, which its agent can edit: the grant must also name
  // this branch, so borrowing another effort's id borrows nothing.
  const read = await grants.read(acceptancePaths(facts.commonDir), facts.effort).catch(() => undefined);
  const grant = read?.branch === facts.branch ? read : undefined;
  return decideAuthority({
    confirmed: false,
    ...(grant ? { grant } : {}),
    preAuthorized: facts.preAuthorized,
    scopes: facts.scopes,
    changed: facts.changed,
  }).landing;
}
