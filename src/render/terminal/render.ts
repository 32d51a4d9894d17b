// Blocks → terminal lines. Two arrangements of the same blocks, neither adding nor dropping a fact:
// - render (--render): blocks a blank line apart, h1/h2 underlined, code indented;
// - compact (the human view): headings as single bold lines that their content follows directly, and the
//   frame's final "## Next" section as one highlighted `→` line at the end.
import { parseInline, type Run } from './inline.js';
import type { Block } from './lexer.js';
import type { TerminalOptions } from './options.js';
import { paint, type Role } from './palette.js';
import { textWidth, visibleWidth } from './text.js';
import { wrapRuns } from './wrap.js';
import { renderTable } from './table.js';

/** Code keeps its content byte for byte; this indent is the only thing added in front of each line. */
export const CODE_INDENT = '    ';
/** Narrower than this, nested content (a list inside a quote inside a list) stops indenting further. */
const MIN_INNER = 20;

const HEADING_ROLE: readonly Role[] = ['h1', 'h2', 'h3'];

export function renderDocument(blocks: readonly Block[], options: TerminalOptions): string[] {
  return options.compact ? compact(blocks, options) : spaced(blocks, options.width, options, 0);
}

/** Blocks a blank line apart. */
function spaced(blocks: readonly Block[], width: number, options: TerminalOptions, depth: number): string[] {
  const out: string[] = [];
  for (const block of blocks) {
    const lines = renderBlock(block, width, options, depth);
    if (lines.length === 0) continue;
    if (out.length > 0) out.push('');
    out.push(...lines);
  }
  return out;
}

function compact(blocks: readonly Block[], options: TerminalOptions): string[] {
  const out: string[] = [];
  const next = finalNext(blocks);
  let afterHeading = false;
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i] as Block;
    if (i === next) {
      // The frame's last section: everything after the heading (only deeper headings can follow) is the action.
      const lines = nextAction(blocks.slice(i + 1), options);
      if (lines.length > 0) {
        if (out.length > 0) out.push('');
        out.push(...lines);
      }
      break;
    }
    if (block.type === 'heading') {
      if (out.length > 0 && !afterHeading) out.push('');
      out.push(...headingLines(block.text, block.level, options.width, options, false));
      afterHeading = true;
      continue;
    }
    const lines = renderBlock(block, options.width, options, 0);
    if (lines.length === 0) continue;
    if (out.length > 0 && !afterHeading) out.push('');
    out.push(...lines);
    afterHeading = false;
  }
  return out;
}

/**
 * The index of the frame's next-action heading, or -1: the document's last heading of level 1 or 2, when it is
 * a level-2 heading reading exactly "Next". A page's own "## Next steps", or a "## Next" followed by more
 * sections, is content and is drawn like any other heading.
 */
function finalNext(blocks: readonly Block[]): number {
  for (let i = blocks.length - 1; i >= 0; i--) {
    const block = blocks[i];
    if (block?.type !== 'heading' || block.level > 2) continue;
    return block.level === 2 && block.text.trim() === 'Next' ? i : -1;
  }
  return -1;
}

/** The next action: its first paragraph highlighted behind an arrow, anything else indented under it. */
function nextAction(blocks: readonly Block[], options: TerminalOptions): string[] {
  const arrow = options.unicode ? '→' : '->';
  const indent = ' '.repeat(textWidth(arrow) + 1);
  const width = options.width - indent.length;
  const lines: string[] = [];
  blocks.forEach((block, k) => {
    if (k > 0) lines.push('');
    if (block.type === 'paragraph')
      lines.push(...wrapRuns(parseInline(block.text, options.color, ['next']), width, options));
    else lines.push(...renderBlock(block, width, options, 0));
  });
  return lines.map((l, k) =>
    k === 0 ? `${paint(arrow, ['next'], options.palette, options.color)} ${l}` : l === '' ? '' : `${indent}${l}`,
  );
}

function renderBlock(block: Block, width: number, options: TerminalOptions, depth: number): string[] {
  const style = { palette: options.palette, color: options.color };
  switch (block.type) {
    case 'heading':
      return headingLines(block.text, block.level, width, options, !options.plain);
    case 'paragraph':
      return wrapRuns(parseInline(block.text, options.color), width, style);
    case 'code':
      return block.lines.map((l) => (l === '' ? '' : CODE_INDENT + paint(l, ['code'], options.palette, options.color)));
    case 'table':
      return renderTable(block.header, block.align, block.rows, width, options);
    case 'rule':
      return [
        options.plain
          ? '---'
          : paint((options.unicode ? '─' : '-').repeat(width), ['border'], options.palette, options.color),
      ];
    case 'quote': {
      const bar = options.unicode ? '│' : '>';
      const inner = spaced(block.blocks, Math.max(MIN_INNER, width - 2), options, depth);
      const mark = paint(bar, ['quote'], options.palette, options.color);
      return inner.map((l) => (l === '' ? mark : `${mark} ${l}`));
    }
    case 'list':
      return listLines(block, width, options, depth);
  }
}

function headingLines(
  text: string,
  level: number,
  width: number,
  options: TerminalOptions,
  underline: boolean,
): string[] {
  const role = HEADING_ROLE[Math.min(level, 3) - 1] ?? 'h3';
  const runs: Run[] = parseInline(text, options.color, [role]);
  const lines = wrapRuns(runs, width, options);
  if (!underline || level > 2 || lines.length === 0) return lines;
  const w = Math.min(width, Math.max(...lines.map(visibleWidth)));
  const ch = level === 1 ? (options.unicode ? '═' : '=') : options.unicode ? '─' : '-';
  return [...lines, paint(ch.repeat(w), [role], options.palette, options.color)];
}

const BULLETS_UNICODE = ['•', '◦', '▪'];

function listLines(
  block: Extract<Block, { type: 'list' }>,
  width: number,
  options: TerminalOptions,
  depth: number,
): string[] {
  const markers = block.items.map((_, k) =>
    block.ordered
      ? `${block.start + k}.`
      : options.unicode
        ? (BULLETS_UNICODE[depth % BULLETS_UNICODE.length] ?? '•')
        : '-',
  );
  const markerWidth = Math.max(...markers.map(textWidth));
  const indent = ' '.repeat(markerWidth + 1);
  const inner = Math.max(MIN_INNER, width - indent.length);
  const out: string[] = [];
  block.items.forEach((item, k) => {
    const lines: string[] = [];
    for (const child of item) {
      const rendered = renderBlock(child, inner, options, child.type === 'list' ? depth + 1 : depth);
      // Paragraphs and nested lists of an item sit tight; code and tables keep a blank line around them.
      if (lines.length > 0 && (child.type === 'code' || child.type === 'table' || child.type === 'quote'))
        lines.push('');
      lines.push(...rendered);
    }
    const marker = (markers[k] ?? '-').padStart(markerWidth);
    const painted = block.ordered ? marker : paint(marker, ['border'], options.palette, options.color);
    if (lines.length === 0) out.push(painted);
    lines.forEach((l, n) => out.push(n === 0 ? `${painted} ${l}` : l === '' ? '' : `${indent}${l}`));
  });
  return out;
}
