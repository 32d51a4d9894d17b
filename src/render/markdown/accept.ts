// Authored Markdown for `accept`: what landed (the Proof line to relay) or why not, the landing queue, the
// authority, the owner's decision when one is needed, then the next action.
import type { DiscernAcceptResult } from '../../../generated/types.js';
import { code, table } from './blocks.js';
import { failureState, frame } from './frame.js';
import { diagnosticsSection, planSection, stepsSection } from './gate.js';
import { emergencyLandedLines, emergencyOwnerAttention, emergencyPlanSection, emergencyPreparationSection } from './accept-emergency.js';
import { acceptCheckpointSections, varianceOwnerAttention } from './checkpoints.js';

export function renderAccept(result: DiscernAcceptResult): string {
  const data = result.data && !('issues' in result.data) ? result.data : undefined;
  const queue = data?.queue && data.queue.length > 0
    ? `## Landing queue (${data.queue.length})\n\n${table(['#', 'Effort', 'Branch', 'Head', 'Authority', 'Ready'], data.queue.map((q) => [String(q.position), code(q.effort), code(q.branch), code(q.head.slice(0, 12)), q.authority, q.readiness === 'ready' ? 'ready' : `waiting: ${q.reason ?? ''}`]))}`
    : undefined;
  // An emergency's plan is in the envelope's plan when one is; otherwise (a landed or stopped one) it is shown here.
  const emergency = data?.emergency && !result.plan ? emergencyPlanSection(data.emergency) : undefined;
  const preparation = data?.emergency ? emergencyPreparationSection(data.emergency) : undefined;
  const evidence = [acceptCheckpointSections(data), diagnosticsSection(result.diagnostics), queue, emergency, preparation, stepsSection(result.steps), planSection(result.plan)].filter(Boolean).join('\n\n') || undefined;
  const authority = data?.landing_authority
    ? `## Landing authority\n\n${data.landing_authority.kind === 'authorized' ? `Authorized: ${data.landing_authority.source ?? 'verified'}.` : 'The owner\'s consent is needed.'}${data.landing_authority.uncovered && data.landing_authority.uncovered.length > 0 ? `\n\nOutside every standing scope (${data.landing_authority.uncovered_total ?? data.landing_authority.uncovered.length}): ${data.landing_authority.uncovered.map((u) => code(u.path)).join(', ')}.` : ''}`
    : undefined;
  if (!result.ok) {
    const issues = result.data && 'issues' in result.data ? result.data.issues.map((i) => `- ${code(i.path)}: ${i.message}`).join('\n') : undefined;
    const owner = result.error === 'awaiting_consent' && data?.revision
      ? `Land ${code(data.revision.branch)} at ${code(data.revision.head.slice(0, 12))} on the trunk? ${data.revision.proof ? `Its Proof:\n\n> ${data.revision.proof.line}\n\n` : ''}To consent, run \`discern accept ${data.revision.effort} --grant\`, or tell the agent to call again with \`confirmed: true\`.`
      : result.error === 'awaiting_variance' ? varianceOwnerAttention(data)
      : data?.emergency ? emergencyOwnerAttention(data.emergency) : undefined;
    return frame(result, { state: failureState(result, 'discern accept'), evidence: [issues, evidence].filter(Boolean).join('\n\n') || undefined, authority, ownerAttention: owner });
  }
  const lines = ['# discern accept'];
  if (result.dry_run) lines.push(`Dry run: nothing changed. ${result.plan?.title ?? ''}`);
  else if (data?.emergency && data.landing) lines.push(...emergencyLandedLines(data, data.emergency));
  else if (data?.emergency?.preparation?.receipt) lines.push(`**Prepared** the emergency landing of ${code(data.emergency.repair.branch)} at ${code(data.emergency.repair.head.slice(0, 12))}: every stop checkpoint question is declared met. Preparation receipt: ${code(data.emergency.preparation.receipt)}.`);
  else if (data?.landing) {
    lines.push(`**Landed** ${code(data.revision?.branch ?? '')} on the trunk at ${code((data.landing.landed_commit ?? '').slice(0, 12))}${data.landing.fast_forward === false ? ' (composed with the moved trunk)' : data.landing.fast_forward ? ' by fast-forward' : ''}${data.landing.recovery_performed ? ', finishing an interrupted acceptance' : ''}.`);
    if (data.proof_line) lines.push(`> ${data.proof_line}`);
    lines.push(
      [
        `- Consent: ${data.consent?.source ?? 'unknown'}${data.consent?.scopes ? ` (${data.consent.scopes.map(code).join(', ')})` : ''}`,
        `- Proof note: ${data.proof_note?.write.status ?? 'not written'}`,
        ...(data.variances && data.variances.length > 0 ? [`- Variances: ${data.variances.map((v) => `${code(v.checkpoint)} (${v.why})`).join(', ')}`] : []),
        `- Worktree ${data.landing.worktree_removed ? 'removed' : 'kept'}; branch ${data.landing.branch_deleted ? 'deleted' : 'kept'}${data.landing.resources_destroyed ? `; resources destroyed: ${data.landing.resources_destroyed.map(code).join(', ')}` : ''}`,
        ...(data.root ? [`- Surviving checkout: ${code(data.root)}`] : []),
      ].join('\n'),
    );
  } else if (data?.submission) {
    lines.push(`**Queued** ${code(data.revision?.branch ?? '')} at ${code((data.revision?.head ?? '').slice(0, 12))} (${data.submission.authority}).`);
    if (data.revision?.proof) lines.push(`> ${data.revision.proof.line}`);
  }
  return frame(result, { state: lines.join('\n\n'), evidence, authority });
}
