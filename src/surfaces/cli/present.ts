// Writes a result in the requested format: exactly one compact JSON envelope (--json), the authored Markdown
// (--markdown, --render, and the human view until the terminal renderer lands). Results go to stdout only.
import type { DiscernResult } from '../../../generated/types.js';
import { serializeResult } from '../../core/serialize.js';
import { renderMarkdown } from '../../render/markdown/index.js';
import type { Format } from './argv-check.js';

export function present(result: DiscernResult, format: Format): string {
  if (format === 'json') return `${serializeResult(result)}\n`;
  return renderMarkdown(result);
}
