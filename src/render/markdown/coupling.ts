// Authored Markdown for `coupling`: the partners as a table with the sample each number rests on, or the
// evidence for one pair with the commits that changed both.
import type { DiscernCouplingReport, DiscernCouplingResult } from '../../../generated/types.js';
import { code, configIssueList, table } from './blocks.js';
import { failureState, frame } from './frame.js';

export function renderCoupling(result: DiscernCouplingResult): string {
  const data = result.data && 'partners' in result.data ? result.data : undefined;
  if (!result.ok || !data) {
    const issues = result.data && 'issues' in result.data ? configIssueList(result.data.issues) : undefined;
    const suggestions = result.data && 'suggestions' in result.data && result.data.suggestions && result.data.suggestions.length > 0 ? `Known paths like it: ${result.data.suggestions.map(code).join(', ')}.` : undefined;
    return frame(result, { state: failureState(result, 'discern coupling'), evidence: issues ?? suggestions });
  }
  return frame(result, { state: [`# discern coupling`, summary(data)].join('\n\n'), evidence: evidence(data) });
}

function summary(data: DiscernCouplingReport): string {
  const h = data.history;
  const sample =
    h.head === null
      ? 'HEAD has no commit yet.'
      : `${h.commits} analysed commit${h.commits === 1 ? '' : 's'} up to ${code(h.head.slice(0, 12))}${h.bulk_commits > 0 ? ` (${h.bulk_commits} bulk commit${h.bulk_commits === 1 ? '' : 's'} left out)` : ''}${h.shallow ? ', shallow clone' : ''}; history ${h.cache === 'hit' ? 'from the cache' : h.cache === 'extended' ? 'extended from the cache' : 'read from git log'}.`;
  if (data.mode === 'evidence') {
    return `${code(data.a ?? '')} and ${code(data.b ?? '')} changed together in ${data.together ?? 0} commit${data.together === 1 ? '' : 's'}; ${code(data.a ?? '')} in ${data.of_a ?? 0}, ${code(data.b ?? '')} in ${data.of_b ?? 0}. ${sample}`;
  }
  const count = `${data.partners_total} partner${data.partners_total === 1 ? '' : 's'}`;
  const subject =
    data.mode === 'diff'
      ? (data.changed_total ?? 0) === 0
        ? 'No change since the merge-base with the trunk.'
        : `${count} of the ${data.changed_total} changed file${data.changed_total === 1 ? '' : 's'} (${(data.changed ?? []).map(code).join(', ')}${(data.changed_total ?? 0) > (data.changed ?? []).length ? ', …' : ''}) ${data.partners_total === 1 ? 'is' : 'are'} not in the change.`
      : `${count} of ${(data.target ?? []).map(code).join(', ')}.`;
  const generated = data.excluded_generated ? ` ${data.excluded_generated} generated partner${data.excluded_generated === 1 ? '' : 's'} left out.` : '';
  return `${subject}${generated} ${sample}`;
}

function evidence(data: DiscernCouplingReport): string | undefined {
  if (data.mode === 'evidence') {
    const pair = data.partners[0];
    const numbers = pair ? `Confidence ${pair.confidence} (${pair.cochanges} of ${pair.of}), lift ${pair.lift}.` : undefined;
    const commits = data.commits ?? [];
    const list = commits.length > 0 ? `## Commits that changed both\n\n${commits.map((c) => `- ${code(c.sha.slice(0, 12))} ${c.date} ${c.subject}`).join('\n')}${(data.together ?? 0) > commits.length ? `\n- … and ${(data.together ?? 0) - commits.length} more` : ''}` : undefined;
    return [numbers, list].filter(Boolean).join('\n\n') || undefined;
  }
  if (data.partners.length === 0) return undefined;
  const rows = data.partners.map((p) => [code(p.path), code(p.from), `${p.cochanges} of ${p.of}`, String(p.confidence), String(p.lift)]);
  const more = data.partners_total > data.partners.length ? `\n\n… and ${data.partners_total - data.partners.length} more.` : '';
  return `## Partners\n\n${table(['Partner', 'Changes with', 'Together', 'Confidence', 'Lift'], rows)}${more}`;
}
