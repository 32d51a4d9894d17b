// The Proof note's `proof.completion` (spec/proof-note.schema.json NoteCompletion): what the landing completed —
// the candidate (the effort's source, the trunk commit it landed on, the landed commit and tree, the policy it
// was judged under and its requirement set) and how each requirement was met. `verify` checks the candidate
// against git and the trunk. Pure: the caller gathers the facts.
import { createHash } from 'node:crypto';
import type { DiscernConfig } from '../../../generated/types.js';
import { canonicalJson } from '../gate/canonical-json.js';
import { configuredJobs } from '../config/jobs.js';

export interface Requirement {
  id: string;
  kind: 'job' | 'standard';
  definition: string;
}

export interface NoteCompletion {
  candidate_id: string;
  proof_id: string;
  candidate: {
    attempt_id: string;
    source: { effort_id: string; branch: string; head: string; tree: string };
    predecessor: string;
    head: string;
    tree: string;
    policy: string;
    requirement_set: string;
  };
  validation: {
    mode: 'strict';
    requirements: Requirement[];
    receipts: { requirement: string; evidence_id: string; reading: number | null }[];
    assembled_at: string;
  };
  components: {
    id: string;
    evidence: {
      sequence: number;
      purpose: 'completion';
      mode: 'strict';
      applicability: { producer: string; command: string };
    };
  }[];
}

/** What the owner's policy requires of a change: its jobs and standards, each with its definition. */
export function policyRequirements(config: DiscernConfig | undefined): Requirement[] {
  if (config === undefined) return [];
  const jobs = configuredJobs(config)
    .filter((job) => job.commands.length > 0)
    .map((job): Requirement => ({ id: `job:${job.name}`, kind: 'job', definition: job.commands.join(' && ') }));
  const standards = Object.entries(config.standards ?? {}).map(([name, standard]): Requirement => ({
    id: `standard:${name}`,
    kind: 'standard',
    definition: canonicalJson(standard),
  }));
  return [...jobs, ...standards].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** sha256 of the requirements in canonical JSON: two landings under the same rules name the same set. */
export function requirementSetDigest(requirements: readonly Requirement[]): string {
  return createHash('sha256').update(canonicalJson(requirements)).digest('hex');
}

export interface CompletionFacts {
  candidateId: string;
  proofId: string;
  attemptId: string;
  source: NoteCompletion['candidate']['source'];
  predecessor: string;
  head: string;
  tree: string;
  policy: string;
  requirements: readonly Requirement[];
  /** The jobs the Proof ran, in stage order. */
  ran: readonly string[];
  /** Standards' recorded values, by name. */
  readings: Readonly<Record<string, number | null>>;
  assembledAt: string;
}

export function noteCompletion(f: CompletionFacts): NoteCompletion {
  const requirements = [...f.requirements];
  const commandOf = new Map(requirements.map((r) => [r.id, r.definition]));
  return {
    candidate_id: f.candidateId,
    proof_id: f.proofId,
    candidate: {
      attempt_id: f.attemptId,
      source: f.source,
      predecessor: f.predecessor,
      head: f.head,
      tree: f.tree,
      policy: f.policy,
      requirement_set: requirementSetDigest(requirements),
    },
    validation: {
      mode: 'strict',
      requirements,
      receipts: requirements.map((r) => ({
        requirement: r.id,
        evidence_id: f.proofId,
        reading: r.kind === 'standard' ? (f.readings[r.id.slice('standard:'.length)] ?? null) : null,
      })),
      assembled_at: f.assembledAt,
    },
    components: f.ran.map((label, sequence) => ({
      id: `job:${label}`,
      evidence: {
        sequence,
        purpose: 'completion',
        mode: 'strict',
        applicability: { producer: label, command: commandOf.get(`job:${label}`) ?? '' },
      },
    })),
  };
}
