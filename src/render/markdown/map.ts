// Authored Markdown for `map`: the index by region with freshness, one page verbatim, or ranked search results.
import type { DiscernMapNotice, DiscernMapResult } from '../../../generated/types.js';
import { code } from './blocks.js';
import { indexEvidence, missEvidence, pageDocument, searchEvidence, searchState } from './corpus.js';
import { failureState, frame } from './frame.js';

export function renderMap(result: DiscernMapResult): string {
  const data = result.data;
  if (!result.ok) {
    const evidence = data && 'target' in data ? missEvidence(data) : data && 'issues' in data ? data.issues.map((i) => `- ${code(i.path)}: ${i.message}`).join('\n') : undefined;
    return frame(result, { state: failureState(result, 'discern map'), evidence });
  }
  if (!data) return frame(result, { state: '# discern map' });
  if ('doc' in data) return pageDocument('Map page', data.doc);
  if ('results' in data) return frame(result, { state: searchState('Map search', data), evidence: searchEvidence(data) });
  if ('docs' in data && 'map_dir' in data) {
    const regions = data.regions.map((r) => {
      const changed = r.pages_changed_at ? `pages changed ${r.pages_changed_at.slice(0, 10)}` : 'pages not committed yet';
      const since = r.code_changes_since !== undefined ? `, ${r.code_changes_since} commit${r.code_changes_since === 1 ? '' : 's'} to the ${r.cited_files} cited file${r.cited_files === 1 ? '' : 's'} since` : '';
      return { name: r.name, title: r.title, note: `${changed}${since}` };
    });
    const state = `# Project map${data.scope ? `: ${data.scope}` : ''}\n\n${data.count} page${data.count === 1 ? '' : 's'} under ${code(data.map_dir)}${data.scope ? '' : ` in ${data.regions.length} region${data.regions.length === 1 ? '' : 's'}`}.`;
    return frame(result, { state, evidence: [indexEvidence(data.docs, regions), noticesEvidence(data.notices)].filter(Boolean).join('\n\n') });
  }
  return frame(result, { state: '# discern map' });
}

const NOTICES_SHOWN = 6;

/** Up to six notices, and how many more the data holds: the evidence stays bounded. */
function noticesEvidence(notices: readonly DiscernMapNotice[] | undefined): string | undefined {
  if (!notices || notices.length === 0) return undefined;
  const lines = notices.slice(0, NOTICES_SHOWN).map((n) => `- ${code(n.path)} (${n.kind}): ${n.message}`);
  const more = notices.length > NOTICES_SHOWN ? `\n\n${notices.length - NOTICES_SHOWN} more in \`data.notices\` (\`--json\`).` : '';
  return `## Not listed as written (${notices.length})\n\n${lines.join('\n')}${more}`;
}
