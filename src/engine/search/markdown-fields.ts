// Splits a Markdown page into the fields the search index weighs differently. Block structure is read line
// by line; inline markup is delegated to markdown-inline.ts.
import { collapseWhitespace, flattenInline } from './markdown-inline.js';

export interface MarkdownFields {
  /** Headings of depth 2 and more, each with the offset where its text starts in `body`. */
  headings: { depth: number; text: string; offset: number }[];
  code: string[];
  body: string;
}

// Fences may be indented (inside list items), so any leading whitespace is accepted.
const FENCE_OPEN = /^([ \t]*)(`{3,}|~{3,})(.*)$/;
const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/;
const ATX_CLOSING = /(?:^|[ \t]+)#+[ \t]*$/;
const THEMATIC_BREAK = /^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,}|=+[ \t]*)$/;
const TABLE_DELIMITER = /^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)+\|?[ \t]*$/;
const LINK_DEFINITION = /^ {0,3}\[[^\]]+\]:\s*\S+/;
const BLOCKQUOTE_MARKER = /^[ \t]*(?:>[ \t]?)+/;
const LIST_MARKER = /^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?/;

interface OpenFence {
  marker: string;
  indent: number;
  lines: string[];
}

function closesFence(line: string, fence: OpenFence): boolean {
  const trimmed = line.trim();
  const char = fence.marker.charAt(0);
  if (trimmed.length < fence.marker.length) return false;
  return [...trimmed].every((c) => c === char);
}

/** Drops at most the fence's own indentation, as CommonMark does for fenced content. */
function unindent(line: string, indent: number): string {
  let cut = 0;
  while (cut < indent && (line[cut] === ' ' || line[cut] === '\t')) cut += 1;
  return line.slice(cut);
}

export function extractFields(markdown: string): MarkdownFields {
  const headings: { depth: number; text: string; offset: number }[] = [];
  const code: string[] = [];
  // The body is built as it is read, so each heading's offset in it is known exactly rather than searched for.
  let body = '';
  const append = (text: string): number => {
    const collapsed = collapseWhitespace(text);
    if (collapsed === '') return -1;
    const at = body === '' ? 0 : body.length + 1;
    body = body === '' ? collapsed : `${body} ${collapsed}`;
    return at;
  };
  let paragraph: string[] = [];
  let fence: OpenFence | null = null;

  const flushParagraph = (): void => {
    if (paragraph.length === 0) return;
    append(flattenInline(paragraph.join('\n'), code));
    paragraph = [];
  };
  const closeFence = (open: OpenFence): void => {
    // Trailing blank lines are layout, not code; an unclosed fence would otherwise keep the file's last newline.
    const content = open.lines.join('\n').replace(/\n+$/, '');
    if (content.trim() === '') return;
    code.push(content);
    append(content);
  };

  for (const line of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    if (fence) {
      if (closesFence(line, fence)) {
        closeFence(fence);
        fence = null;
      } else {
        fence.lines.push(unindent(line, fence.indent));
      }
      continue;
    }
    const fenceOpen = FENCE_OPEN.exec(line);
    // A backtick fence's info string may not contain backticks; otherwise it is an inline code span.
    if (fenceOpen && !(fenceOpen[2]?.startsWith('`') && fenceOpen[3]?.includes('`'))) {
      flushParagraph();
      fence = { marker: fenceOpen[2] ?? '```', indent: fenceOpen[1]?.length ?? 0, lines: [] };
      continue;
    }
    const heading = ATX_HEADING.exec(line);
    if (heading) {
      flushParagraph();
      const depth = heading[1]?.length ?? 1;
      const text = collapseWhitespace(flattenInline((heading[2] ?? '').replace(ATX_CLOSING, ''), code));
      const offset = append(text);
      if (depth >= 2 && text !== '') headings.push({ depth, text, offset });
      continue;
    }
    if (line.trim() === '' || THEMATIC_BREAK.test(line) || TABLE_DELIMITER.test(line) || LINK_DEFINITION.test(line)) {
      flushParagraph();
      continue;
    }
    paragraph.push(line.replace(BLOCKQUOTE_MARKER, '').replace(LIST_MARKER, ''));
  }
  // An unclosed fence runs to the end of the document.
  if (fence) closeFence(fence);
  flushParagraph();

  return { headings, code, body };
}

export interface FrontMatterSplit {
  frontMatter: string | null;
  body: string;
}

/** Separates a leading "---" block without interpreting it; parsing YAML is the caller's business. */
export function splitFrontMatter(text: string): FrontMatterSplit {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const opening = /^---[ \t]*\r?\n/.exec(source);
  if (!opening) return { frontMatter: null, body: source };
  const rest = source.slice(opening[0].length);
  const closing = /^---[ \t]*(?:\r?\n|$)/m.exec(rest);
  if (!closing) return { frontMatter: null, body: source };
  return {
    frontMatter: rest.slice(0, closing.index).replace(/\r?\n$/, ''),
    body: rest.slice(closing.index + closing[0].length),
  };
}
