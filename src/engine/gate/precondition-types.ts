// The shapes the gate's preconditions share (preconditions.ts runs them; a check in its own module, such as
// filters-check.ts, reads them from here and not from preconditions.ts, which imports it).
import type {
  DiscernDiagnostic,
  DiscernDoneStandardsLimits,
  DiscernFailedStage,
  DiscernStandardProposal,
  DiscernStep,
} from '../../../generated/types.js';
import type { GitResult } from '../git/git.js';
import type { StandardDefinition } from '../config/standards.js';
import type { Project } from '../project/resolve.js';

export interface PreconditionContext {
  root: string;
  env: Readonly<Record<string, string | undefined>>;
  signal: AbortSignal;
  /** The ref the branch must contain and the standards compare against (the trunk, or policy_base), as named to people. */
  base: string;
  /** The same ref as git is given it: refs/heads/<trunk> (a tag of the same name must not stand in), or policy_base. */
  baseRef: string;
  /** Run the merge check (a linked worktree, not standalone). */
  mergeCheck: boolean;
  standards: readonly StandardDefinition[];
  /** The repository's git common dir, where its refs are read (without it, git is asked). */
  commonDir?: string;
  /** discern's per-checkout state directory, probed for writing. */
  stateDir: string;
  /** `[map] dir`, for the map-integrity check. */
  mapDir?: string;
  /** The project, for the refresh-currency check. */
  project?: Project;
  /** HEAD's commit, when the caller has it: standards proposals are bound to it. */
  head?: string;
  /** The checks' git reads, when the caller started them early (startPreconditionReads). */
  reads?: PreconditionReads;
}

/** The git reads the checks make: each depends only on the repository, not on an earlier check. */
export interface PreconditionReads {
  replaceRefs?: Promise<string[]>;
  containsBase?: Promise<GitResult>;
  trunkConfig?: Promise<GitResult>;
  ignoredTracked?: Promise<GitResult>;
  /** `git ls-files -v -z`, when the caller read it: the filters check looks for .gitattributes in its directories. */
  indexFlags?: Promise<GitResult>;
}

export interface PreconditionOutcome {
  steps: DiscernStep[];
  failure?: {
    failedStage: DiscernFailedStage;
    error: 'gate_failed' | 'write_denied' | 'proposal_stale';
    message: string;
    diagnostics: DiscernDiagnostic[];
    target?: string;
  };
  standardsLimits?: DiscernDoneStandardsLimits;
  /** The recorded proposals the loosened standards passed under (standards_limits status loosened). */
  standardProposals?: DiscernStandardProposal[];
}
