// The improvement audit's shapes: the facts gathered once from the repository and discern's records, and the
// rules evaluated over them. A rule is a pure function of the facts (docs/decisions/0030), so every verdict
// can be tested on crafted facts and the audit costs one gathering however many rules there are.
import type { DiscernConfig } from '../../../generated/types.js';

export type RuleStatus = 'pass' | 'partial' | 'fail';
export type ActionKind = 'fix' | 'review' | 'decide';

export interface Review {
  subject: string;
  reason: string;
}

/** What one rule found. */
export interface Verdict {
  status: RuleStatus;
  /** What was found, with counts, in a sentence. */
  detail: string;
  /** What was read: project-relative paths, records, git facts. */
  read: string[];
  counts?: Record<string, number>;
  /** The exact command or edit that makes the rule pass (required unless it passes). */
  fix?: string;
  /** The file, folder, branch or record the fix applies to. */
  against?: string;
  /** Things found that need reading and judgment. */
  reviews?: Review[];
  /** The rule could not look at its subject because this rule failed first: it is not ranked on its own. */
  blockedBy?: string;
}

export interface Rule {
  id: string;
  title: string;
  /** 3 high, 1 low: how much the rule counts in its category, and in ranking. */
  severity: 1 | 2 | 3;
  kind: ActionKind;
  evaluate(facts: Facts): Verdict;
}

export interface Category {
  name: string;
  title: string;
  /** The category's weight in the overall score (docs/30-verbs/improvement.md lists them). */
  weight: number;
  rules: readonly Rule[];
}

/** A gate operation from the journal, reduced to what the audit reads. */
export interface OperationFact {
  handle: string;
  verb: string;
  started_at: string;
  outcome?: 'completed' | 'failed' | 'cancelled';
  /** Unfinished and its process is gone: it died without finishing. */
  abandoned: boolean;
}

export interface ProofFact {
  state: 'missing' | 'unreadable' | 'present';
  commit?: string;
  recorded_at?: string;
  /** Recorded under the current discern.toml and discern version. */
  current_config?: boolean;
  producers?: { label: string; outcome: string; duration_ms: number }[];
}

export interface LastRunFact {
  commit: string;
  verdict: 'green' | 'red';
  failed_stage: string | null;
  at: string;
}

export interface StandardValueFact {
  value: number;
  measured_at: string;
  /** Where the value was read: a measurements file or a Proof marker. */
  source: string;
}

export interface MapPageFact {
  /** Repository-relative. */
  path: string;
  has_front_matter: boolean;
  title?: string;
  description?: string;
}

export interface RegionFact {
  name: string;
  page_count: number;
  code_changes_since?: number;
  /** The region's pages last changed before the history read: the lag is at least code_changes_since. */
  lower_bound?: boolean;
}

export interface CheckpointFact {
  id: string;
  mode: 'stop' | 'advise';
  scope?: string;
  paths: string[];
  exclude_paths: string[];
  question?: string;
  question_file?: string;
  /** question_file exists and is not empty. */
  question_file_ok?: boolean;
}

export interface RefreshTargetFact {
  path: string;
  kind: 'instructions' | 'mcp' | 'hooks' | 'adr-index' | 'skill' | 'gitattributes';
  action: 'create' | 'update' | 'delete';
  removes: boolean;
}

export interface SkillFact {
  name: string;
  source: 'builtin' | 'authored';
  excluded: boolean;
  copies: { path: string; state: 'current' | 'stale' | 'missing' | 'blocked' }[];
}

export interface Facts {
  /** Milliseconds since the epoch when the facts were read: ages are measured from it. */
  now: number;
  config: DiscernConfig;
  configFile: string;
  trunk: string;
  head: { commit: string | null; clean: boolean };
  /** Tracked files (git ls-files), repository-relative. */
  tracked: readonly string[];
  gate: {
    proof: ProofFact;
    lastRun?: LastRunFact;
    /** Gate operations (done, prepare, test) from the journal's retention window. */
    operations: OperationFact[];
    /** HEAD's Proof note, when HEAD is a landing (its gate ran where accept ran it). */
    landing?: { commit: string; line: string };
    /** Where the records were read, for evidence. */
    read: string[];
  };
  setup: {
    /** A setup begun and not accepted: its phase and the command that moves it on. */
    unfinished?: { phase: string; branch: string; next: string };
    stateUnreadable?: string;
    configErrors: { path: string; message: string }[];
    configWarnings: { path: string; message: string }[];
    /** [meta] schema_version as written (undefined when absent). */
    schemaVersion?: number;
    currentSchemaVersion: number;
  };
  refresh: {
    /** The plan could not be made at all (the message). */
    failed?: string;
    agents: string[];
    targets: RefreshTargetFact[];
    /** Files refresh cannot plan, by the part they hold. */
    errors: { path: string; message: string; area: 'instructions' | 'wiring' | 'skills' | 'adr-index' }[];
    skipped: { path: string; reason: string }[];
    sources: string[];
    /** Characters of project text across the sources used. */
    sourceChars: number;
    skillsDir: string;
    skillsDirExists: boolean;
    skills: SkillFact[];
    skillProblems: { path: string; message: string }[];
    ignoredSkillFolders: string[];
  };
  instructions: {
    /** The gotchas document: `[project] gotchas_doc` (read loosely), else the shortest tracked path named *gotcha*. */
    gotchas?: { path: string; configured: boolean; /** undefined when it does not exist */ bytes?: number };
  };
  map: {
    dir: string;
    /** The folder exists (tracked or not). */
    exists: boolean;
    pages: MapPageFact[];
    brokenLinks: { page: string; line: number; target: string }[];
    regions: RegionFact[];
    decisionsDir: string;
    decisions?: { number: string; file: string }[];
  };
  worktrees: {
    linked: { path: string; branch: string | null; broken?: string; locked?: string }[];
    /** Effort branches not merged into the trunk, with their last commit time (seconds). */
    unlanded: { branch: string; committed_at: number }[];
    submissions: { effort: string; branch: string; submitted_at: string; failure?: string }[];
    /** Landings that began and did not finish. */
    transactions: { effort: string; step: string; started_at: string }[];
    /** An accept holds its repository lock now. */
    accept_running: boolean;
  };
  standards: {
    /** The latest recorded value of each standard across this repository's checkouts. */
    values: Record<string, StandardValueFact>;
  };
  checkpoints: {
    list: CheckpointFact[];
    /** A [checkpoints] table that could not be read as checkpoints, with why. */
    unreadable: string[];
  };
}
