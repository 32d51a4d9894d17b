// Authored Markdown for `done`: the verdict first (the Proof line to relay, or the failed stage), then the
// diagnostics, steps and standards, then the next action.
import type { DiscernDoneResult } from '../../../generated/types.js';
import { code } from './blocks.js';
import { failureState, frame } from './frame.js';
import { diagnosticsSection, planSection, standardsSection, stepsSection } from './gate.js';
import { declarationsSection, dropsSection, questionsSection } from './checkpoints.js';

export function renderDone(result: DiscernDoneResult): string {
  const data = result.data && 'gate_ran' in result.data ? result.data : undefined;
  const cp = data?.checkpoints;
  const checkpoints = cp
    ? [
        questionsSection('Checkpoint questions awaiting a declaration', cp.outstanding),
        questionsSection('Checkpoint questions (report)', cp.review),
        questionsSection('Advise checkpoints', cp.advise),
        declarationsSection(cp.declared_met, cp.declared_unmet),
        dropsSection(cp.drops),
      ]
    : [];
  const evidence = [...checkpoints, diagnosticsSection(result.diagnostics), stepsSection(result.steps), standardsSection(data?.standards), planSection(result.plan)].filter(Boolean).join('\n\n');
  if (!result.ok) {
    const issues = result.data && 'issues' in result.data ? result.data.issues.map((i) => `- ${code(i.path)}: ${i.message}`).join('\n') : '';
    const stage = data?.failed_stage ? `\n\nFailed stage: ${code(data.failed_stage)}.` : '';
    const handle = data?.handle ? `\n\nProgress handle: ${code(data.handle)}.` : '';
    return frame(result, { state: `${failureState(result, 'discern done')}${stage}${handle}`, evidence: [issues, evidence].filter(Boolean).join('\n\n') });
  }
  const lines = ['# discern done'];
  if (result.dry_run) lines.push('Dry run: nothing ran. The plan below is what `discern done` would do.');
  else if (data?.proof) {
    const how = data.replayed_from ? `replayed from ${code(data.replayed_from.slice(0, 12))} (identical tree and config)` : data.gate_ran ? 'the gate ran' : 'current Proof reused; nothing ran';
    lines.push(`**Green** — ${how}.`, `> ${data.proof.line}`);
    if (data.completion?.proof_id) lines.push(`Proof id ${code(data.completion.proof_id)}${data.handle ? `, progress handle ${code(data.handle)}` : ''}.`);
  } else if (data) {
    lines.push(`**Green** — ${data.mode === 'report' ? 'report mode: no landing Proof recorded' : 'standalone diagnostics: no Proof recorded'}.`);
  }
  return frame(result, { state: lines.join('\n\n'), evidence: evidence || undefined });
}
