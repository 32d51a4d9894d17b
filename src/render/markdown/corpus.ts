// Presentations shared by docs and map: an index by region, one page verbatim, ranked search results, and what a
// target could have meant.
import type { DiscernDocumentEntry, DiscernDocumentPage, DiscernDocumentSearch, DiscernLookupMiss } from '../../../generated/types.js';
import { code, table } from './blocks.js';

export interface RegionLine {
  name: string;
  title: string;
  /** Extra facts to show beside the region's title (map freshness). */
  note?: string;
}

export function indexEvidence(docs: readonly DiscernDocumentEntry[], regions: readonly RegionLine[]): string {
  const sections = regions.map((region) => {
    const pages = docs.filter((d) => d.section === region.name);
    return `## ${region.title}${region.note ? ` — ${region.note}` : ''}\n\n${table(['Page', 'Target', 'About'], pages.map((p) => [p.title, code(p.target), p.description]))}`;
  });
  const loose = docs.filter((d) => d.section === '');
  if (loose.length > 0) sections.unshift(table(['Page', 'Target', 'About'], loose.map((p) => [p.title, code(p.target), p.description])));
  return sections.join('\n\n');
}

/** The page is whitespace-significant: reproduced exactly, after one line saying which page it is. */
export function pageDocument(kind: string, doc: DiscernDocumentPage): string {
  return `${kind} ${code(doc.target)} (${doc.path}).\n\n${doc.content}`;
}

export function searchState(what: string, data: DiscernDocumentSearch): string {
  const count = data.count === 0 ? 'No page matches.' : `${data.count} matching page${data.count === 1 ? '' : 's'}${data.truncated ? `, showing the best ${data.results.length}` : ''}${data.scope ? ` within ${code(data.scope)}` : ''}.`;
  return `# ${what}: ${code(data.query)}\n\n${count}`;
}

export function searchEvidence(data: DiscernDocumentSearch): string {
  const lines = data.results.map((r, i) => `${i + 1}. **${r.title}** — ${code(r.target)} (${r.match}${r.heading ? `, under “${r.heading}”` : ''})\n   ${r.snippet}`);
  const suggestions = data.suggestions && data.suggestions.length > 0 ? `Did you mean: ${data.suggestions.map((s) => `“${s}”`).join(', ')}?` : undefined;
  return [lines.join('\n'), suggestions].filter(Boolean).join('\n\n');
}

export function missEvidence(data: DiscernLookupMiss): string | undefined {
  if (data.suggestions && data.suggestions.length > 0) return `Closest pages:\n\n${data.suggestions.map((s) => `- ${code(s)}`).join('\n')}`;
  if (data.candidates && data.candidates.length > 0) return `Pages it could mean:\n\n${data.candidates.map((s) => `- ${code(s)}`).join('\n')}`;
  return undefined;
}
