// A landed commit's Proof note, as accept and setup accept write it: the Proof, the consent, and the completion —
// the candidate (the source commit, the trunk commit it landed on, the landed commit and tree, the digest of the
// trunk's policy it was judged under, the requirements that policy sets) — signed with this machine's key.
import type { DiscernProofSummary } from '../../../generated/types.js';
import { git } from '../git/git.js';
import { trunkConfigCommand } from '../gate/trunk-limits.js';
import { trunkPolicyFrom } from '../policy/trunk-policy.js';
import { noteCompletion, policyRequirements, type NoteCompletion, type Requirement } from './completion.js';
import type { ProofNotePayload } from './proof-note.js';
import { signedProofNote, type SignedBody } from './signed-envelope.js';

type Env = Readonly<Record<string, string | undefined>>;

/** What a landing decided before the trunk moved (an acceptance transaction's completion_facts). */
export interface DecidedCompletion {
  candidate_id: string;
  policy: string;
  requirements: Requirement[];
  readings: Record<string, number | null | undefined>;
}

export interface LandingNote {
  cwd: string;
  env: Env;
  trunk: string;
  /** The effort (or setup branch) that landed. */
  source: { id: string; branch: string; head: string };
  landed: string;
  /** The trunk's commit before the landing; without it the note records no completion. */
  predecessor: string | undefined;
  /** The Proof of the landed commit. */
  proof: DiscernProofSummary | undefined;
  /** The source's own Proof, when the landing composed a new commit from it. */
  sourceProof?: DiscernProofSummary | undefined;
  line: string;
  acceptance: NonNullable<ProofNotePayload['acceptance']>;
  /** Decided before the move; when absent, read from the predecessor's discern.toml. */
  decided?: DecidedCompletion | undefined;
}

export async function signedLandingNote(n: LandingNote): Promise<SignedBody> {
  const completion = n.predecessor === undefined ? undefined : await completionOf(n, n.predecessor);
  return signedProofNote(
    {
      subject: { commit: n.landed },
      proof: {
        branch: n.source.branch,
        trunk: n.trunk,
        head: n.landed,
        files_total: n.proof?.files_total ?? 0,
        insertions: n.proof?.insertions ?? 0,
        deletions: n.proof?.deletions ?? 0,
        mode: 'strict',
        ...(completion ? { completion } : {}),
      },
      presentation: { line: n.line, markdown: `# discern Proof\n\n> ${n.line}\n` },
      acceptance: n.acceptance,
    },
    { cwd: n.cwd, env: n.env },
  );
}

async function completionOf(n: LandingNote, predecessor: string): Promise<NoteCompletion | undefined> {
  const decided = n.decided ?? (await decidedAt(n, predecessor));
  if (decided === undefined) return undefined;
  // The trees come from the Proofs when they name these commits; otherwise git answers, replace refs off.
  const known = new Map<string, string>();
  for (const p of [n.proof, n.sourceProof]) if (p) known.set(p.commit, p.tree);
  const unknown = [...new Set([n.landed, n.source.head])].filter((c) => !known.has(c));
  if (unknown.length > 0) {
    const read = await git(['rev-parse', ...unknown.map((c) => `${c}^{tree}`)], {
      cwd: n.cwd,
      env: { ...n.env, GIT_NO_REPLACE_OBJECTS: '1' },
    });
    if (read.code !== 0) return undefined;
    read.stdout
      .trim()
      .split('\n')
      .forEach((tree, i) => known.set(unknown[i] as string, tree));
  }
  const tree = known.get(n.landed);
  const sourceTree = known.get(n.source.head);
  if (tree === undefined || sourceTree === undefined) return undefined;
  const proofId = n.proof?.proof_id ?? `P-${n.landed.slice(0, 16)}`;
  return noteCompletion({
    candidateId: decided.candidate_id,
    proofId,
    attemptId: proofId,
    source: { effort_id: n.source.id, branch: n.source.branch, head: n.source.head, tree: sourceTree },
    predecessor,
    head: n.landed,
    tree,
    policy: decided.policy,
    requirements: decided.requirements,
    ran: n.proof?.jobs ?? [],
    readings: Object.fromEntries(Object.entries(decided.readings).map(([name, value]) => [name, value ?? null])),
    assembledAt: new Date().toISOString(),
  });
}

/** The policy at the trunk's commit before the landing, for a landing that did not decide it beforehand. */
async function decidedAt(n: LandingNote, predecessor: string): Promise<DecidedCompletion | undefined> {
  const shown = await git(trunkConfigCommand(predecessor), { cwd: n.cwd, env: n.env });
  const policy = await trunkPolicyFrom(shown, n.trunk);
  if (policy.state === 'unreadable') return undefined;
  return {
    candidate_id: `S-${n.source.id}`,
    policy: policy.digest,
    requirements: policyRequirements(policy.state === 'present' ? policy.config : undefined),
    readings: {},
  };
}
