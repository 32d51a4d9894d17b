// Resource readers. A resource returns the same data as its tool, computed fresh on every read and without an
// envelope: discern://docs is the docs index payload (JSON); discern://docs/{+target} is one page's Markdown.
// `{+target}` arrives percent-encoded (the SDK does not decode it): it is decoded once, then confined by the
// same lookup that refuses `..`, absolute paths, backslashes and any remaining encoding.
import { ResourceNotFoundError, type ReadResourceResult } from '@modelcontextprotocol/server';
import { MANUAL } from '../../engine/manual/bundle.js';
import type { McpResourceName } from '../../../generated/mcp-table.js';
import { lookupTarget } from '../../engine/corpus/lookup.js';
import { invoke, type InvokeOptions } from '../../verbs/invoke.js';
import type { VerbId } from '../../../generated/registry.js';
import { renderMarkdown } from '../../render/markdown/index.js';

export type ResourceReader = (uri: URL, variables: Readonly<Record<string, string | string[]>>, options: InvokeOptions) => Promise<ReadResourceResult>;

/** A resource that is one verb's data for a fixed input: fresh on every read, without the envelope. */
function dataOf(verb: VerbId, input: Record<string, unknown>): ResourceReader {
  return async (uri, _variables, options) => {
    const result = await invoke(verb, input, options);
    if (!result.ok) throw new ResourceNotFoundError(uri.href, `${result.message} ${result.hints.at(-1) ?? ''}`.trim());
    return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(result.data) }] };
  };
}

export const RESOURCE_READERS: Readonly<Record<McpResourceName, ResourceReader>> = {
  docs: dataOf('docs', {}),
  status: dataOf('status', {}),
  impact: dataOf('impact', {}),
  'docs-page': async (uri, variables, options) => {
    const raw = variables['target'];
    const encoded = Array.isArray(raw) ? raw.join('/') : (raw ?? '');
    let target: string;
    try {
      target = decodeURIComponent(encoded);
    } catch {
      throw new ResourceNotFoundError(uri.href, 'the target is not valid percent-encoding');
    }
    const found = lookupTarget(MANUAL, target, 'docs');
    if (found.kind === 'page') {
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: found.page.content }] };
    }
    if (found.kind === 'region') {
      const result = await invoke('docs', { target: found.region.name }, options);
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: renderMarkdown(result) }] };
    }
    const why = found.kind === 'refused' ? `refused: ${found.reason}` : found.kind === 'ambiguous' ? `ambiguous: ${found.candidates.join(', ')}` : 'no such page';
    throw new ResourceNotFoundError(uri.href, `discern manual: ${why}`);
  },
};

/** Every page as a listable resource of the docs-page template. */
export function listManualPages(): { uri: string; name: string; title: string; description: string; mimeType: string }[] {
  return MANUAL.pages.map((p) => ({ uri: `discern://docs/${p.target}`, name: p.target, title: p.title, description: p.description, mimeType: 'text/markdown' }));
}
