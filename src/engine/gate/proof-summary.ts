// Builds the Proof for a commit: what changed since the merge-base with the trunk, the identity, the line an
// agent relays verbatim, and the Markdown page kept in the marker.
import { createHash } from 'node:crypto';
import type {
  DiscernGateStandard,
  DiscernProofCheckpoints,
  DiscernProofSummary,
  DiscernStandardProposal,
} from '../../../generated/types.js';
import { git, gitComplaint } from '../git/git.js';
import type { ProducerVerdict } from './proof-records.js';

export interface DiffStats {
  files_total: number;
  insertions: number;
  deletions: number;
}

export async function diffStatsAgainst(
  base: string,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  signal?: AbortSignal,
): Promise<DiffStats> {
  const opts = { cwd, env, ...(signal ? { signal } : {}) };
  const mergeBase = await git(['merge-base', base, 'HEAD'], opts);
  let from = mergeBase.stdout.trim();
  if (mergeBase.code !== 0 || from === '') {
    // Unrelated histories: everything in HEAD is new, measured from the empty tree of this repository's hash.
    const empty = await git(['hash-object', '-t', 'tree', '--stdin'], opts);
    from = empty.stdout.trim();
  }
  return diffStatsFrom(from, cwd, env, signal);
}

/** The same counts from a commit already known to be the merge-base (or the empty tree). */
export async function diffStatsFrom(
  from: string,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  signal?: AbortSignal,
): Promise<DiffStats> {
  const stat = await git(['diff', '--shortstat', '--no-renames', from, 'HEAD'], {
    cwd,
    env,
    ...(signal ? { signal } : {}),
  });
  if (stat.code !== 0) throw new Error(`git diff --shortstat failed: ${gitComplaint(stat)}`);
  return parseShortstat(stat.stdout);
}

export function parseShortstat(text: string): DiffStats {
  const number = (re: RegExp): number => Number(re.exec(text)?.[1] ?? 0);
  return {
    files_total: number(/(\d+) files? changed/),
    insertions: number(/(\d+) insertions?\(\+\)/),
    deletions: number(/(\d+) deletions?\(-\)/),
  };
}

export interface ProofFacts {
  branch: string | null;
  trunk: string;
  commit: string;
  tree: string;
  configDigest: string;
  version: string;
  mode: 'strict' | 'report';
  stats: DiffStats;
  producers: readonly ProducerVerdict[];
  standards: readonly DiscernGateStandard[];
  recordedAt: string;
  replayedFrom?: string;
  /** The checkpoint declarations (and dropped evidence) the Proof is recorded with. */
  checkpoints?: DiscernProofCheckpoints;
  /** Their identity (checkpoints/store.ts): part of the Proof id, so another declaration is another Proof. */
  checkpointsIdentity?: string;
  /** The commit a `standards --pin` commit carried this Proof from (docs/decisions/0027-standards-verbs.md). */
  carriedFrom?: string;
  /** Loosened limits the never-loosen check let pass under a recorded proposal. */
  standardProposals?: readonly DiscernStandardProposal[];
  /** The sparse-checkout patterns the jobs ran under, in a sparse checkout. */
  sparse?: { digest: string; cone: boolean };
  /** The filesystem keeps no exec bits: file modes were not compared with the commit's. */
  fileModesUnverified?: boolean;
  /** No job ran: the change touches only these neutral scopes of the trunk's discern.toml. */
  neutralScopes?: readonly string[];
}

export function proofId(
  facts: Pick<ProofFacts, 'commit' | 'tree' | 'configDigest' | 'version' | 'mode' | 'checkpointsIdentity'>,
): string {
  // Declarations join the identity only when there are any, so a Proof without them keeps the id it always had.
  const declared =
    facts.checkpointsIdentity !== undefined && facts.checkpointsIdentity !== '[]' ? [facts.checkpointsIdentity] : [];
  const digest = createHash('sha256')
    .update([facts.commit, facts.tree, facts.configDigest, facts.version, facts.mode, ...declared].join('\0'))
    .digest('hex');
  return `P-${digest.slice(0, 16)}`;
}

export function buildProofSummary(facts: ProofFacts): DiscernProofSummary {
  const head = facts.commit.slice(0, 12);
  const jobs = facts.producers.filter((p) => p.outcome === 'ok').map((p) => p.label);
  return {
    branch: facts.branch,
    trunk: facts.trunk,
    head,
    commit: facts.commit,
    tree: facts.tree,
    files_total: facts.stats.files_total,
    insertions: facts.stats.insertions,
    deletions: facts.stats.deletions,
    line: proofLine(facts, head, jobs),
    mode: facts.mode,
    recorded_at: facts.recordedAt,
    proof_id: proofId(facts),
    jobs,
    ...(facts.replayedFrom ? { replayed_from: facts.replayedFrom } : {}),
    ...(facts.neutralScopes ? { gate_skipped: { reason: 'neutral' as const, scopes: [...facts.neutralScopes] } } : {}),
    ...(facts.checkpoints ? { checkpoints: facts.checkpoints } : {}),
    ...(facts.carriedFrom ? { carried_from: facts.carriedFrom } : {}),
    ...(facts.standardProposals && facts.standardProposals.length > 0
      ? { standard_proposals: facts.standardProposals.map((p) => ({ ...p })) }
      : {}),
    ...(facts.sparse ? { sparse: true as const, sparse_patterns: { ...facts.sparse } } : {}),
    ...(facts.fileModesUnverified === true ? { file_modes: 'unverified' as const } : {}),
  };
}

function proofLine(facts: ProofFacts, head: string, jobs: readonly string[]): string {
  const where = `${facts.branch ?? 'detached HEAD'} @ ${head}`;
  const standards = facts.standards
    .filter((s) => s.value !== undefined)
    .map((s) => `${s.name} ${s.value} ${s.direction === 'up' ? '≥' : '≤'} ${s.limit}`);
  const ran = [...jobs.filter((j) => !j.startsWith('standard:')), ...standards];
  const gate = facts.neutralScopes
    ? `no job needed (a neutral change: ${facts.neutralScopes.join(', ')})`
    : ran.length > 0
      ? `gate green (${ran.join(', ')})`
      : 'gate green (no jobs configured)';
  const change = `${facts.stats.files_total} file${facts.stats.files_total === 1 ? '' : 's'}, +${facts.stats.insertions} −${facts.stats.deletions} against ${facts.trunk}`;
  const mode = facts.mode === 'report' ? ' [report only]' : '';
  const proposed =
    facts.standardProposals && facts.standardProposals.length > 0
      ? ` — loosened, awaiting the owner's approval: ${facts.standardProposals.map((p) => `${p.name} ${p.from} → ${p.to}`).join(', ')}`
      : '';
  const carried = facts.carriedFrom ? ` — carried from ${facts.carriedFrom.slice(0, 12)} (standards pinned)` : '';
  const checkout = `${facts.sparse ? ` — sparse checkout (${facts.sparse.cone ? 'cone' : 'non-cone'} patterns ${facts.sparse.digest.slice(0, 12)})` : ''}${facts.fileModesUnverified === true ? ' — file modes unverified' : ''}`;
  return `discern Proof${mode}: ${where} — ${gate} — ${change}${facts.replayedFrom ? ` — replayed from ${facts.replayedFrom.slice(0, 12)}` : ''}${carried}${proposed}${checkout}`;
}

export function proofMarkdown(
  summary: DiscernProofSummary,
  producers: readonly ProducerVerdict[],
  standards: readonly DiscernGateStandard[],
): string {
  const lines = [
    `## Proof — ${summary.branch ?? 'detached HEAD'} @ ${summary.head}`,
    '',
    summary.line,
    '',
    '| Producer | Outcome | Time |',
    '| --- | --- | --- |',
  ];
  for (const p of producers) lines.push(`| ${p.label} | ${p.outcome} | ${Math.round(p.duration_ms / 100) / 10} s |`);
  if (standards.length > 0) {
    lines.push('', '| Standard | Value | Limit | Verdict |', '| --- | --- | --- | --- |');
    for (const s of standards)
      lines.push(
        `| ${s.name} | ${s.value ?? '—'} | ${s.direction === 'up' ? '≥' : '≤'} ${s.limit} | ${s.verdict ?? s.measurement} |`,
      );
  }
  if (summary.checkpoints) {
    const c = summary.checkpoints;
    if (c.declared_met.length > 0) lines.push('', `Checkpoints declared met: ${c.declared_met.join(', ')}.`);
    for (const u of c.declared_unmet) lines.push('', `Checkpoint ${u.id} declared unmet (${u.mode}): ${u.why}`);
    for (const d of c.drops ?? [])
      lines.push('', `Checkpoint evidence dropped${d.checkpoint ? ` (${d.checkpoint})` : ''}: ${d.reason}`);
  }
  lines.push('', `Commit \`${summary.commit}\`, tree \`${summary.tree}\`, recorded ${summary.recorded_at}.`);
  return `${lines.join('\n')}\n`;
}
