// The authored Markdown of any result — MCP content[0].text and `--markdown`, and the source the terminal
// renderer draws for `--render` and the human view. Every verb's presentation is its template beside its spec
// (spec/verbs/<verb>/presentation.md, docs/decisions/0031), parsed and checked by codegen; one frame adds the
// other actions and the next action from the result's hints.
import type { DiscernResult } from '../../../generated/types.js';
import { PRESENTATIONS } from '../../../generated/presentations.js';
import { evaluateTemplate, type PresentOptions } from '../template/evaluate.js';
import { BLOCKS } from './blocks-registry.js';
import { frame } from './frame.js';

/** `compact` is the human view's summary: shared blocks show counts and what needs attention, not every row. */
export function renderMarkdown(result: DiscernResult, options: PresentOptions = {}): string {
  const template = PRESENTATIONS[result.verb];
  // Codegen refuses a verb without a template, so this only fires on a result no verb of this version produces.
  if (!template) throw new Error(`no presentation for verb ${JSON.stringify(result.verb)}`);
  const s = evaluateTemplate(template, result, BLOCKS, options);
  return frame(result, { state: s.state ?? '', evidence: s.evidence, authority: s.authority, ownerAttention: s.owner });
}
