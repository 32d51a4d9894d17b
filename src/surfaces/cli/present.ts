// Writes a result in the requested format: exactly one compact JSON envelope (--json), the authored Markdown
// (--markdown, --render, and the human view until the terminal renderer lands). Results go to stdout only.
// The Markdown renderers load only when Markdown is asked for: a --json call does not parse them.
import type { DiscernResult } from '../../../generated/types.js';
import { serializeResult } from '../../core/serialize.js';
import type { Format } from './argv-check.js';

export async function present(result: DiscernResult, format: Format): Promise<string> {
  if (format === 'json') return `${serializeResult(result)}\n`;
  const { renderMarkdown } = await import('../../render/markdown/index.js');
  return renderMarkdown(result);
}
