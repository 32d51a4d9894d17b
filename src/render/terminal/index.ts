// The terminal renderer: authored Markdown → text for a terminal, for `--render` and the human view
// (docs/decisions/0032). It is our own small block lexer and painter for exactly the Markdown the presentations
// are written in, so loading it costs a few milliseconds; the CLI imports it only for those two views.
import { lexBlocks } from './lexer.js';
import type { TerminalOptions } from './options.js';
import { renderDocument } from './render.js';
import { visibleControls } from './text.js';

export {
  DEFAULT_PRESENTATION,
  terminalOptions,
  type Presentation,
  type TerminalOptions,
  type TerminalTarget,
  type Theme,
} from './options.js';

/** The Markdown as terminal text, ending in one newline (empty input gives empty output). */
export function renderTerminal(markdown: string, options: TerminalOptions): string {
  // Control characters in the content are made visible first: the renderer's own colours are then the only
  // control sequences in what it prints, and none at all when colour is off.
  const source = visibleControls(markdown.replace(/\r\n/g, '\n'));
  const lines = renderDocument(lexBlocks(source), options);
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
