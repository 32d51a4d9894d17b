// Authored Markdown for `docs`: the index by section, one page verbatim, or ranked search results.
import type { DiscernDocsResult } from '../../../generated/types.js';
import { code, table } from './blocks.js';
import { failureState, frame } from './frame.js';

export function renderDocs(result: DiscernDocsResult): string {
  const data = result.data;
  if (!result.ok) {
    const evidence =
      data && 'suggestions' in data && data.suggestions && data.suggestions.length > 0
        ? `Closest pages:\n\n${data.suggestions.map((s) => `- ${code(s)}`).join('\n')}`
        : data && 'candidates' in data && data.candidates
          ? `Pages it could mean:\n\n${data.candidates.map((s) => `- ${code(s)}`).join('\n')}`
          : undefined;
    return frame(result, { state: failureState(result, 'discern docs'), evidence });
  }
  if (!data) return frame(result, { state: '# discern docs' });
  if ('doc' in data) {
    // The page is whitespace-significant: it is reproduced exactly, after one line saying which page it is.
    return `Manual page ${code(data.doc.target)} (${data.doc.path}).\n\n${data.doc.content}`;
  }
  if ('results' in data) {
    const state = `# Manual search: ${code(data.query)}\n\n${data.count === 0 ? 'No page matches.' : `${data.count} matching page${data.count === 1 ? '' : 's'}${data.truncated ? `, showing the best ${data.results.length}` : ''}${data.scope ? ` within ${code(data.scope)}` : ''}.`}`;
    const lines = data.results.map((r, i) => `${i + 1}. **${r.title}** — ${code(r.target)} (${r.match}${r.heading ? `, under “${r.heading}”` : ''})\n   ${r.snippet}`);
    const suggestions = data.suggestions && data.suggestions.length > 0 ? `Did you mean: ${data.suggestions.map((s) => `“${s}”`).join(', ')}?` : undefined;
    return frame(result, { state, evidence: [lines.join('\n'), suggestions].filter(Boolean).join('\n\n') });
  }
  if ('docs' in data) {
    const sections = data.regions.map((region) => {
      const pages = data.docs.filter((d) => d.section === region.name);
      return `## ${region.title}\n\n${table(['Page', 'Target', 'About'], pages.map((p) => [p.title, code(p.target), p.description]))}`;
    });
    const state = `# discern manual${data.scope ? `: ${data.scope}` : ''}\n\n${data.count} page${data.count === 1 ? '' : 's'}${data.scope ? '' : ` in ${data.regions.length} sections`}.`;
    return frame(result, { state, evidence: sections.join('\n\n') });
  }
  return frame(result, { state: '# discern docs' });
}
