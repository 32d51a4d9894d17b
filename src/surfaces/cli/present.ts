// Writes a result in the requested format: exactly one compact JSON envelope (--json), the authored Markdown
// (--markdown), or that Markdown through the terminal renderer (--render, and compacted for the human view,
// with no format flag). Results go to stdout only. The Markdown renderers load only when Markdown is asked for,
// and the terminal renderer only for --render and the human view: a --json call parses neither, a --markdown
// call not the terminal one.
import type { DiscernResult } from '../../../generated/types.js';
import { serializeResult } from '../../core/serialize.js';
import type { Presentation, TerminalTarget } from '../../render/terminal/options.js';
import type { Format } from './argv-check.js';

// A copy of the renderer's DEFAULT_PRESENTATION: importing the value would load the renderer on every call.
const DEFAULT: Presentation = { noColor: false, plain: false, theme: 'auto' };

export async function present(
  result: DiscernResult,
  format: Format,
  presentation: Presentation = DEFAULT,
  target: TerminalTarget = stdoutTarget(),
): Promise<string> {
  if (format === 'json') return `${serializeResult(result)}\n`;
  const { renderMarkdown } = await import('../../render/markdown/index.js');
  const markdown = renderMarkdown(result, { compact: format === 'human' });
  if (format === 'markdown') return markdown;
  const { renderTerminal, terminalOptions } = await import('../../render/terminal/index.js');
  return renderTerminal(markdown, terminalOptions(presentation, target, format === 'human'));
}

function stdoutTarget(): TerminalTarget {
  return { env: process.env, isTTY: process.stdout.isTTY === true, columns: process.stdout.columns };
}
