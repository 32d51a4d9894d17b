// Authored Markdown for `status`: where you are in one paragraph, then the jobs, scopes and fleet as bounded
// evidence, with what the projection left out.
import type { DiscernGateProofCheck, DiscernStatusResult } from '../../../generated/types.js';
import { code, table } from './blocks.js';
import { failureState, frame } from './frame.js';

function proofSentence(check: DiscernGateProofCheck): string {
  switch (check.status) {
    case 'honored':
      return `Proof is current for HEAD: ${check.proof?.line ?? ''}`;
    case 'missing':
      return 'No Proof recorded in this checkout yet: `discern done` proves the committed tip.';
    default:
      return `Proof: ${check.status}${check.reason ? ` — ${check.reason}` : ''}${check.head ? ` (recorded for ${code(check.head)})` : ''}.`;
  }
}

export function renderStatus(result: DiscernStatusResult): string {
  const data = result.data && 'git' in result.data ? result.data : undefined;
  if (!result.ok || !data) {
    const issues = result.data && 'issues' in result.data ? result.data.issues.map((i) => `- ${code(i.path)}${i.line !== undefined ? ` (line ${i.line})` : ''}: ${i.message}`).join('\n') : undefined;
    return frame(result, { state: failureState(result, 'discern status'), evidence: issues });
  }
  const g = data.git;
  const where = g.detached ? `detached HEAD at ${code((g.head ?? '').slice(0, 12))}` : `branch ${code(g.branch ?? '?')}${g.unborn ? ' (no commits yet)' : ''}`;
  const distance =
    g.ahead_trunk === null || g.behind_trunk === null
      ? `distance from trunk ${code(g.trunk)} unknown${g.shallow ? ' (shallow clone)' : ''}`
      : `${g.ahead_trunk} ahead of and ${g.behind_trunk} behind trunk ${code(g.trunk)}`;
  const changes = g.clean ? 'clean' : `${g.changed_files} changed file${g.changed_files === 1 ? '' : 's'}${g.untracked_files > 0 ? ` (${g.untracked_files} untracked)` : ''}`;
  const proof = proofSentence(data.gate_proof);
  const running = data.operation ? `Running now: ${code(data.operation.verb)} ${code(data.operation.handle)} (${data.operation.phase}: ${data.operation.reason}, ${Math.round(data.operation.elapsed_ms / 1000)} s) — read it back with ${code(data.operation.read_back)}.` : undefined;
  const setup = data.setup_unfinished ? `Setup is unfinished (${data.setup_unfinished.phase}, on ${code(data.setup_unfinished.branch)}): the work loop waits for it. Next: ${code(data.setup_unfinished.next)}.` : undefined;
  const state = [`# ${data.project.name}: ${data.location === 'main' ? 'main checkout' : 'linked worktree'}\n\n${code(data.root)} — ${where}, ${distance}, ${changes}.`, setup, proof, running].filter(Boolean).join('\n\n');

  const jobs = data.gate.jobs.length > 0 ? `## Jobs\n\n${table(['Job', 'Stage', 'Commands'], data.gate.jobs.map((j) => [j.name, j.stage, j.commands.map(code).join('; ') || '—']))}` : '## Jobs\n\nNone configured.';
  const scopes = data.scopes.length > 0 ? `## Scopes\n\n${table(['Scope', 'Paths', 'Neutral'], data.scopes.map((s) => [s.name, s.paths.map(code).join(', '), s.neutral ? 'yes' : 'no']))}` : undefined;
  const gates = data.gate.scope_gates.length > 0 ? `## Scope gates\n\n${data.gate.scope_gates.map((s) => `- ${code(s.scope)}: ${s.commands.map(code).join('; ')}`).join('\n')}` : undefined;
  const fleet = data.fleet
    ? `## Fleet (${data.fleet_total ?? data.fleet.length})\n\n${table(
        ['Worktree', 'Branch', 'State', 'Trunk', 'Proof'],
        data.fleet.map((r) => [
          `${code(r.path)}${r.is_main ? ' (main)' : ''}${r.is_current ? ' (here)' : ''}${r.id ? ` effort ${code(r.id)}` : ''}`,
          r.branch === null ? 'detached' : code(r.branch),
          r.broken ? `broken: ${r.reason ?? ''}` : r.clean ? 'clean' : `${r.changed_files ?? 0} changed`,
          r.ahead === undefined || r.ahead === null ? '—' : `+${r.ahead} / -${r.behind ?? 0}`,
          r.gate_proof?.status ?? '—',
        ]),
      )}`
    : undefined;
  const collisions = data.fleet_collisions && data.fleet_collisions.length > 0
    ? `## Efforts changing the same paths

${data.fleet_collisions.map((c) => `- ${c.efforts.map(code).join(' and ')}: ${c.shared} shared (${(c.paths ?? []).map(code).join(', ')}${c.shared > (c.paths?.length ?? 0) ? ', …' : ''})`).join('\n')}`
    : undefined;
  const queue = data.queue && data.queue.length > 0
    ? `## Landing queue (${data.queue.length})\n\n${table(['#', 'Effort', 'Head', 'Authority', 'Ready'], data.queue.map((q) => [String(q.position), code(q.effort), code(q.head.slice(0, 12)), q.authority, q.readiness === 'ready' ? 'ready' : `waiting: ${q.reason ?? ''}`]))}`
    : undefined;
  const landed = data.landed_proof ? `Last landing on the trunk (Proof note on ${code(data.landed_proof.commit.slice(0, 12))}):\n\n> ${data.landed_proof.line}` : undefined;
  const exception = data.landed_exception ? `Last landing on the trunk was an **emergency exception, not Proof** (${code(data.landed_exception.landing_id)} on ${code(data.landed_exception.commit.slice(0, 12))}; reason: ${data.landed_exception.reason}):\n\n> ${data.landed_exception.line}` : undefined;
  const interrupted = data.emergency_pending && data.emergency_pending.length > 0 ? `## Interrupted emergency landings\n\n${data.emergency_pending.map((e) => `- ${code(e.landing_id)}: ${code(e.effort)} (${code(e.branch)}), reached ${e.step}; finish it with \`discern accept --recover ${e.landing_id}\``).join('\n')}` : undefined;
  const unlanded = data.unlanded_branches && data.unlanded_branches.length > 0 ? `## Effort branches with no worktree, not on the trunk\n\n${data.unlanded_branches.map((b) => `- ${code(b)}`).join('\n')}` : undefined;
  const omitted = data.projection.omitted ? `Left out by the default projection: ${Object.entries(data.projection.omitted).map(([k, n]) => `${code(k)} ${n}`).join(', ')}.` : undefined;
  return frame(result, { state, evidence: [jobs, gates, scopes, fleet, collisions, queue, landed, exception, interrupted, unlanded, omitted].filter(Boolean).join('\n\n') });
}
