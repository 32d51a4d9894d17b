// A block lexer for the Markdown authored presentations are written in: ATX and setext headings, paragraphs,
// `-`/`*`/`+` and ordered lists (nested by indentation), fenced and indented code, GFM pipe tables, `>` quotes
// and thematic breaks. Code content is kept byte for byte: it is the one place whitespace is the payload.
// Anything else (an HTML comment, a line it does not recognise) is paragraph text, never dropped.

export type Align = 'left' | 'right' | 'center';

export type Block =
  | { type: 'heading'; level: number; text: string }
  | { type: 'paragraph'; text: string }
  | { type: 'code'; info: string; lines: string[] }
  | { type: 'list'; ordered: boolean; start: number; items: Block[][] }
  | { type: 'table'; header: string[]; align: Align[]; rows: string[][] }
  | { type: 'quote'; blocks: Block[] }
  | { type: 'rule' };

const FENCE = /^( {0,3})(`{3,}|~{3,})(.*)$/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const BULLET = /^( {0,3})([-*+])( +|$)/;
const ORDERED = /^( {0,3})(\d{1,9})([.)])( +|$)/;
const QUOTE = /^ {0,3}> ?/;
const DELIMITER_ROW = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

export function lexBlocks(source: string): Block[] {
  return lex(source.split('\n'));
}

function blank(line: string): boolean {
  return line.trim() === '';
}

/** Columns of leading indentation, a tab counting to the next multiple of four. */
function indentOf(line: string): number {
  let n = 0;
  for (const ch of line) {
    if (ch === ' ') n++;
    else if (ch === '\t') n += 4 - (n % 4);
    else break;
  }
  return n;
}

/** The line without its first `n` columns of indentation (a partly used tab becomes spaces). */
function dedent(line: string, n: number): string {
  let col = 0;
  let i = 0;
  while (i < line.length && col < n) {
    const ch = line[i];
    if (ch === ' ') col++;
    else if (ch === '\t') {
      const next = col + 4 - (col % 4);
      if (next > n) return ' '.repeat(next - n) + line.slice(i + 1);
      col = next;
    } else break;
    i++;
  }
  return line.slice(i);
}

/** Whether `line` starts a block that interrupts a paragraph. */
function interrupts(line: string): boolean {
  if (FENCE.test(line) || ATX.test(line) || RULE.test(line) || QUOTE.test(line)) return true;
  const bullet = BULLET.exec(line);
  if (bullet && !blank(line.slice(bullet[0].length))) return true;
  const ordered = ORDERED.exec(line);
  return ordered !== null && ordered[2] === '1' && !blank(line.slice(ordered[0].length));
}

function lex(lines: string[]): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    if (blank(line)) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence && !(fence[2]?.startsWith('`') && fence[3]?.includes('`'))) {
      const indent = fence[1]?.length ?? 0;
      const marker = fence[2] ?? '```';
      const close = new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}[ \\t]*$`);
      const content: string[] = [];
      i++;
      while (i < lines.length && !close.test(lines[i] ?? '')) content.push(dedentUpTo(lines[i++] ?? '', indent));
      i++;
      blocks.push({ type: 'code', info: (fence[3] ?? '').trim(), lines: content });
      continue;
    }
    if (indentOf(line) >= 4) {
      const content: string[] = [];
      while (i < lines.length && (indentOf(lines[i] ?? '') >= 4 || blank(lines[i] ?? '')))
        content.push(dedent(lines[i++] ?? '', 4));
      while (content.length > 0 && blank(content[content.length - 1] ?? '')) content.pop();
      blocks.push({ type: 'code', info: '', lines: content });
      continue;
    }
    const atx = ATX.exec(line);
    if (atx) {
      blocks.push({ type: 'heading', level: atx[1]?.length ?? 1, text: (atx[2] ?? '').trim() });
      i++;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ type: 'rule' });
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const inner: string[] = [];
      while (i < lines.length) {
        const l = lines[i] ?? '';
        if (QUOTE.test(l)) inner.push(l.replace(QUOTE, ''));
        // A lazy continuation: a paragraph line without its `>`.
        else if (!blank(l) && !interrupts(l) && inner.length > 0 && !blank(inner[inner.length - 1] ?? ''))
          inner.push(l);
        else break;
        i++;
      }
      blocks.push({ type: 'quote', blocks: lex(inner) });
      continue;
    }
    if (BULLET.test(line) || ORDERED.test(line)) {
      i = lexList(lines, i, blocks);
      continue;
    }
    const next = lines[i + 1] ?? '';
    if (line.includes('|') && DELIMITER_ROW.test(next) && next.includes('-')) {
      const header = cells(line);
      const align = cells(next).map(alignOf);
      if (align.length === header.length) {
        const rows: string[][] = [];
        i += 2;
        while (
          i < lines.length &&
          !blank(lines[i] ?? '') &&
          (lines[i] ?? '').includes('|') &&
          !interrupts(lines[i] ?? '')
        ) {
          const row = cells(lines[i++] ?? '');
          rows.push(header.map((_, c) => row[c] ?? ''));
        }
        blocks.push({ type: 'table', header, align, rows });
        continue;
      }
    }
    // A paragraph: up to a blank line or a block that interrupts it; a setext underline makes it a heading.
    const text: string[] = [line.replace(/^[ \t]+/, '')];
    i++;
    let heading = 0;
    while (i < lines.length && !blank(lines[i] ?? '')) {
      const l = lines[i] ?? '';
      const setext = SETEXT.exec(l);
      if (setext) {
        heading = setext[1]?.startsWith('=') ? 1 : 2;
        i++;
        break;
      }
      if (interrupts(l)) break;
      text.push(l.replace(/^[ \t]+/, ''));
      i++;
    }
    const joined = text.join('\n').replace(/[ \t]+$/, '');
    blocks.push(heading > 0 ? { type: 'heading', level: heading, text: joined } : { type: 'paragraph', text: joined });
  }
  return blocks;
}

/** Removes up to `n` leading spaces (what a fence's own indentation takes from its content lines). */
function dedentUpTo(line: string, n: number): string {
  let i = 0;
  while (i < n && line[i] === ' ') i++;
  return line.slice(i);
}

/**
 * A list from line `start`: items of the same kind (bullet character, or ordered delimiter). An item holds the
 * lines indented to its content column, blank lines between them, and lazy paragraph continuations; its
 * content is lexed again, so lists nest and an item can hold code.
 */
function lexList(lines: string[], start: number, blocks: Block[]): number {
  const first = lines[start] ?? '';
  const ordered = ORDERED.exec(first);
  const kind = ordered ? `o${ordered[3] ?? '.'}` : `b${BULLET.exec(first)?.[2] ?? '-'}`;
  const items: Block[][] = [];
  let i = start;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    const o = ORDERED.exec(line);
    const b = o ? null : BULLET.exec(line);
    const match = o ?? b;
    if (!match || (o ? `o${o[3] ?? '.'}` : `b${b?.[2] ?? '-'}`) !== kind) break;
    const rest = line.slice(match[0].length);
    // The content column: after the marker and its spaces, or one space after the marker when the item opens
    // with indented code or is empty.
    const markerEnd = match[0].length - (o ? (o[4]?.length ?? 0) : (b?.[3]?.length ?? 0));
    const spaces = match[0].length - markerEnd;
    const contentCol = blank(rest) || spaces > 4 ? markerEnd + 1 : match[0].length;
    const content: string[] = [blank(rest) ? '' : spaces > 4 ? line.slice(markerEnd + 1) : rest];
    i++;
    while (i < lines.length) {
      const l = lines[i] ?? '';
      if (blank(l)) {
        // A blank line stays inside the item only when indented content follows it.
        let j = i;
        while (j < lines.length && blank(lines[j] ?? '')) j++;
        if (j < lines.length && indentOf(lines[j] ?? '') >= contentCol) {
          for (; i < j; i++) content.push('');
          continue;
        }
        break;
      }
      if (indentOf(l) >= contentCol) content.push(dedent(l, contentCol));
      else if (BULLET.test(l) || ORDERED.test(l)) break;
      else if (!interrupts(l) && !blank(content[content.length - 1] ?? '') && !inCode(content)) content.push(l);
      else break;
      i++;
    }
    items.push(lex(content));
    // Blank lines between items keep the list going when the next item is of the same kind.
    let j = i;
    while (j < lines.length && blank(lines[j] ?? '')) j++;
    const nextLine = lines[j] ?? '';
    const nextMatch = ORDERED.exec(nextLine) ?? BULLET.exec(nextLine);
    if (j > i && nextMatch && indentOf(nextLine) < 4) i = j;
  }
  blocks.push({ type: 'list', ordered: ordered !== null, start: ordered ? Number(ordered[2]) : 1, items });
  return i;
}

/** Whether the item's content so far ends inside an open fence (a lazy line cannot continue code). */
function inCode(content: readonly string[]): boolean {
  let open = false;
  for (const l of content) if (FENCE.test(l)) open = !open;
  return open;
}

/** A table row's cells: split at pipes not escaped, outer pipes dropped, `\|` read as a pipe. */
function cells(line: string): string[] {
  let text = line.trim();
  if (text.startsWith('|')) text = text.slice(1);
  if (text.endsWith('|') && !text.endsWith('\\|')) text = text.slice(0, -1);
  const out: string[] = [];
  let cell = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\' && text[i + 1] === '|') {
      cell += '|';
      i++;
    } else if (ch === '|') {
      out.push(cell.trim());
      cell = '';
    } else cell += ch;
  }
  out.push(cell.trim());
  return out;
}

function alignOf(cell: string): Align {
  const left = cell.startsWith(':');
  const right = cell.endsWith(':');
  return left && right ? 'center' : right ? 'right' : 'left';
}
