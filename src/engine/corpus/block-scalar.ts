// YAML block scalars in front matter — `description: >-` (folded) and `title: |` (literal), with the chomping
// indicators - and + and an optional indentation digit — because that is how long descriptions are written.

const HEADER = /^([|>])(?:([+-])([1-9])?|([1-9])([+-])?)?$/;

export interface BlockHeader {
  style: '|' | '>';
  chomp: 'strip' | 'clip' | 'keep';
  /** Explicit indentation, or undefined to take the first non-blank line's. */
  indent: number | undefined;
}

/** The header after `key:` (`|`, `>-`, `|2+`…), or undefined when the value is not a block scalar. */
export function blockHeader(raw: string): BlockHeader | undefined {
  const match = HEADER.exec(raw);
  if (!match) return undefined;
  const chomp = match[2] ?? match[5];
  const digit = match[3] ?? match[4];
  return {
    style: match[1] === '|' ? '|' : '>',
    chomp: chomp === '-' ? 'strip' : chomp === '+' ? 'keep' : 'clip',
    indent: digit === undefined ? undefined : Number(digit),
  };
}

/**
 * Reads the block's lines from `lines[start]` on: blank lines and lines indented at least as far as the block.
 * Returns the value and the index of the first line after the block.
 */
export function readBlock(
  header: BlockHeader,
  lines: readonly string[],
  start: number,
): { value: string; next: number } {
  let indent = header.indent;
  let end = start;
  for (; end < lines.length; end++) {
    const line = lines[end] ?? '';
    if (line.trim() === '') continue;
    const spaces = line.length - line.trimStart().length;
    indent ??= spaces;
    if (spaces < indent || indent === 0) break;
  }
  // Blank lines are kept as empty lines: they are line breaks, and trailing ones matter to chomping.
  const body = lines.slice(start, end).map((line) => (line.trim() === '' ? '' : line.slice(indent ?? 0)));
  const content = header.style === '|' ? body.join('\n') : fold(body);
  const trailing = /\n*$/.exec(`${content}\n`)?.[0] ?? '\n';
  const text = content.replace(/\n+$/, '');
  const value =
    text === '' ? '' : header.chomp === 'strip' ? text : header.chomp === 'clip' ? `${text}\n` : `${text}${trailing}`;
  return { value, next: end };
}

/**
 * Folding: a line break between two text lines becomes a space; each blank line is one line break; lines
 * indented beyond the block ("spaced") keep their breaks.
 */
function fold(lines: readonly string[]): string {
  const spaced = (line: string): boolean => /^\s/.test(line);
  let out = '';
  let lastText: string | undefined;
  for (const [i, line] of lines.entries()) {
    if (line === '') {
      out += '\n';
      continue;
    }
    const previous = lines[i - 1];
    if (previous === undefined) out += line;
    else if (previous === '') out += (lastText !== undefined && (spaced(lastText) || spaced(line)) ? '\n' : '') + line;
    else out += (spaced(previous) || spaced(line) ? '\n' : ' ') + line;
    lastText = line;
  }
  return out;
}
