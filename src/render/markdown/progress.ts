// Authored Markdown for `progress`: what the operation is and whether it still runs, the account, per-producer
// counts, failures so far, waits, and where the result is.
import type { DiscernProgressResult } from '../../../generated/types.js';
import { code, table } from './blocks.js';
import { failureState, frame } from './frame.js';

export function renderProgress(result: DiscernProgressResult): string {
  const data = result.data && 'handle' in result.data ? result.data : undefined;
  if (!result.ok || !data) {
    const miss = result.data && 'suggestions' in result.data ? result.data.suggestions ?? [] : [];
    const recent = miss.length > 0 ? `## Recent handles in this checkout\n\n${miss.map((h) => `- ${code(h)}`).join('\n')}` : undefined;
    return frame(result, { state: failureState(result, 'discern progress'), evidence: recent });
  }
  const op = data.operation;
  const status = data.outcome ? `finished: ${data.outcome}` : data.executor === 'running' ? 'running' : data.executor === 'gone' ? 'stopped without finishing (its process is gone)' : 'state unknown (its process cannot be probed from here)';
  const state = [
    `# discern progress ${data.handle}`,
    `${code(op.verb)} in ${code(op.path)}${op.branch ? ` on ${code(op.branch)}` : ''}, started ${op.started_at}${op.finished_at ? `, finished ${op.finished_at}` : ''} — **${status}**.`,
    data.account.map((a) => `> ${a}`).join('\n'),
    `Latest: ${data.progress.phase} — ${data.progress.reason}. Next: ${data.progress.next}.`,
  ].join('\n\n');
  const producers = data.producers.length > 0
    ? `## Producers\n\n${table(['Producer', 'State', 'Units', 'Results'], data.producers.map((p) => [p.producer, p.state, p.units ? `${p.units.completed}/${p.units.total ?? '?'} ${p.units.kind}` : '', `${p.results ? Object.entries(p.results).map(([k, v]) => `${v} ${k}`).join(', ') : ''}${p.partial ? ' (partial)' : ''}`]))}`
    : undefined;
  const failures = data.failures.length > 0
    ? `## Failures so far\n\n${data.failures.map((f) => `- **${f.producer}** ${f.name}: ${f.message}${f.file ? ` (${code(`${f.file}${f.line ? `:${f.line}` : ''}`)})` : ''}${f.reproduce_cmd ? ` — reproduce: ${code(f.reproduce_cmd)}` : ''}`).join('\n')}`
    : undefined;
  const waits = data.waits.length > 0 ? `## Waits\n\n${data.waits.map((w) => `- ${w.reason} (${w.state}, ${Math.round(w.elapsed_ms / 1000)} s)`).join('\n')}` : undefined;
  const where = data.result_path ? `The complete result is at ${code(data.result_path)}.` : undefined;
  return frame(result, { state, evidence: [producers, failures, waits, where].filter(Boolean).join('\n\n') || undefined });
}
