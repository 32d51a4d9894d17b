// Authored Markdown for `impact`: which scopes the change brings in, whether it counts as code, and the
// paths no scope claims.
import type { DiscernImpactResult } from '../../../generated/types.js';
import { code } from './blocks.js';
import { failureState, frame } from './frame.js';

export function renderImpact(result: DiscernImpactResult): string {
  const data = result.data && 'scopes' in result.data ? result.data : undefined;
  if (!result.ok || !data) {
    const issues = result.data && 'issues' in result.data ? result.data.issues.map((i) => `- ${code(i.path)}: ${i.message}`).join('\n') : undefined;
    return frame(result, { state: failureState(result, 'discern impact'), evidence: issues });
  }
  const base = data.base === null ? `the empty tree (no history shared with ${code(data.trunk)})` : `the merge-base with ${code(data.trunk)} (${code(data.base.slice(0, 12))})`;
  const summary =
    data.changed_files === 0
      ? `No change since ${base}.`
      : `${data.changed_files} changed path${data.changed_files === 1 ? '' : 's'} since ${base}; ${data.scopes.length === 0 ? 'no scope activated' : `scopes ${data.scopes.map(code).join(', ')}`}${data.neutral.length > 0 ? ` (neutral: ${data.neutral.map(code).join(', ')})` : ''}. ${data.code ? 'It counts as code.' : 'Only neutral scopes: it does not count as code.'}`;
  const membership = data.membership ? `\`${data.membership.scope}\`: ${data.membership.present ? 'activated' : 'not activated'}.` : undefined;
  const unscoped =
    data.unscoped_total > 0
      ? `## Paths no scope matches (${data.unscoped_total})\n\n${data.unscoped.map((p) => `- ${code(p)}`).join('\n')}${data.unscoped_total > data.unscoped.length ? `\n- … and ${data.unscoped_total - data.unscoped.length} more` : ''}`
      : undefined;
  return frame(result, { state: [`# discern impact`, summary, membership].filter(Boolean).join('\n\n'), evidence: unscoped });
}
