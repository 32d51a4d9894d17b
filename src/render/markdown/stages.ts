// Authored Markdown for `prepare` and `test`: the verdict, the diagnostics and steps, files the fixers and
// generators changed, then the next action.
import type { DiscernPrepareResult, DiscernTestResult } from '../../../generated/types.js';
import { code } from './blocks.js';
import { failureState, frame } from './frame.js';
import { diagnosticsSection, stepsSection } from './gate.js';

export function renderStages(result: DiscernPrepareResult | DiscernTestResult): string {
  const title = `discern ${result.verb}`;
  const data = result.data && 'failed_stage' in result.data ? result.data : undefined;
  const changed = data && 'changed_by_fix' in data && data.changed_by_fix && data.changed_by_fix.length > 0
    ? `## Changed by fixers and generators (${data.changed_by_fix_total ?? data.changed_by_fix.length})\n\n${data.changed_by_fix.map((p) => `- ${code(p)}`).join('\n')}`
    : undefined;
  const waited = result.waited_ms ? `Waited ${Math.round(result.waited_ms / 100) / 10} s for a test slot.` : undefined;
  const handle = data && 'handle' in data && data.handle ? `Progress handle ${code(data.handle)}.` : undefined;
  const evidence = [diagnosticsSection(result.diagnostics), changed, stepsSection(result.steps)].filter(Boolean).join('\n\n');
  if (!result.ok) {
    const issues = result.data && 'issues' in result.data ? result.data.issues.map((i) => `- ${code(i.path)}: ${i.message}`).join('\n') : '';
    return frame(result, { state: [failureState(result, title), waited, handle].filter(Boolean).join('\n\n'), evidence: [issues, evidence].filter(Boolean).join('\n\n') });
  }
  const ran = (result.steps ?? []).filter((s) => s.disposition === 'run').length;
  return frame(result, { state: [`# ${title}`, `**Passed** — ${ran} job${ran === 1 ? '' : 's'} ran.`, waited, handle].filter(Boolean).join('\n\n'), evidence: evidence || undefined });
}
