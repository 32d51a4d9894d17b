// Authored Markdown for `docs`: the index by section, one page verbatim, or ranked search results.
import type { DiscernDocsResult } from '../../../generated/types.js';
import { indexEvidence, missEvidence, pageDocument, searchEvidence, searchState } from './corpus.js';
import { failureState, frame } from './frame.js';

export function renderDocs(result: DiscernDocsResult): string {
  const data = result.data;
  if (!result.ok) return frame(result, { state: failureState(result, 'discern docs'), evidence: data && 'target' in data ? missEvidence(data) : undefined });
  if (!data) return frame(result, { state: '# discern docs' });
  if ('doc' in data) return pageDocument('Manual page', data.doc);
  if ('results' in data) return frame(result, { state: searchState('Manual search', data), evidence: searchEvidence(data) });
  if ('docs' in data) {
    const state = `# discern manual${data.scope ? `: ${data.scope}` : ''}\n\n${data.count} page${data.count === 1 ? '' : 's'}${data.scope ? '' : ` in ${data.regions.length} sections`}.`;
    return frame(result, { state, evidence: indexEvidence(data.docs, data.regions) });
  }
  return frame(result, { state: '# discern docs' });
}
