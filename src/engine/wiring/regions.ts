// The part of a text file discern owns: one region between a begin line and an end line (an HTML comment pair
// in Markdown, `#` comment lines in TOML). Text outside the region is never touched. The edits are each
// other's exact inverse: inserting a region into a file and stripping it again gives back the original bytes,
// and a file that held nothing but the region strips to nothing (the caller removes it).
//
// Inserting into an existing file appends one line break and the region, then a final line break: after
// `text\n` that leaves a blank line before the region, after `text` (no final newline) the region starts on
// the next line. Stripping removes the region, the line break after it, and the one before it, unless that
// would join the lines around it.
//
// The begin line names the region and carries the digest of the body refresh wrote under it:
// `<!-- discern:begin <name> sha256:<16 hex>: <note> -->` (Markdown) or `# discern:begin <name> sha256:<16 hex>:
// <note>` (TOML). A region whose body still matches its own digest is one discern wrote, on any clone of the
// repository, and one whose body does not was edited (ownership.ts has the whole rule). A begin line without
// the digest (written before discern carried one, `<name>: <note>`) is still a begin line, and every reader
// finds a region by its `discern:begin` prefix alone, so older and newer versions read each other's regions.
import { createHash } from 'node:crypto';

export interface RegionSyntax {
  /** The begin line for a region, with its note (what wrote it and how to change it). */
  begin(note: string): string;
  end: string;
  isBegin(line: string): boolean;
  isEnd(line: string): boolean;
}

export const MARKDOWN_REGION: RegionSyntax = {
  begin: (note) => `<!-- discern:begin ${note} -->`,
  end: '<!-- discern:end -->',
  isBegin: (line) => /^<!--\s*discern:begin\b/.test(line.trim()),
  isEnd: (line) => /^<!--\s*discern:end\s*-->$/.test(line.trim()),
};

export const TOML_REGION: RegionSyntax = {
  begin: (note) => `# discern:begin ${note}`,
  end: '# discern:end',
  isBegin: (line) => /^#\s*discern:begin\b/.test(line.trim()),
  isEnd: (line) => /^#\s*discern:end\b/.test(line.trim()),
};

/** Where the region lies: from the start of its begin line to the end of its end line (before the line break). */
export interface RegionSpan {
  start: number;
  end: number;
  /** The text between the begin and end lines, without their line breaks. */
  inner: string;
  /** 1-based line of the begin marker. */
  line: number;
  /** The body digest the begin line carries (see bodyStamp), if it carries one. */
  stamp?: string;
}

/**
 * The digest a begin line carries for the body under it: the first 16 hex digits of the sha256 of the body as
 * written, with LF line breaks (a checkout that turns them into CRLF has not edited it) and no final line break.
 * A prefix is enough: the digest tells discern's text from an edit, and is not a security boundary (whoever can
 * edit the body can write any digest beside it), so it only has to make a chance match unlikely, which 64 bits
 * do, while keeping the begin line short.
 */
export function bodyStamp(body: string): string {
  const text = body.replace(/\r\n/g, '\n').replace(/\n+$/, '');
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16);
}

/** The body digest in a begin line, right after the region's name; undefined when it has none. */
export function stampOf(beginLine: string): string | undefined {
  return /discern:begin\s+[^\s:]+\s+sha256:([0-9a-f]{16})(?![0-9a-f])/.exec(beginLine)?.[1];
}

export type RegionFind = { ok: true; span: RegionSpan | undefined } | { ok: false; line: number; reason: string };

export function findRegion(text: string, syntax: RegionSyntax): RegionFind {
  let offset = 0;
  let begin: { start: number; innerStart: number; line: number; stamp: string | undefined } | undefined;
  let found: RegionSpan | undefined;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const lineEnd = offset + line.length;
    if (syntax.isBegin(line)) {
      if (begin)
        return {
          ok: false,
          line: i + 1,
          reason: `a second discern:begin line before the discern:end of the one on line ${begin.line}`,
        };
      if (found)
        return {
          ok: false,
          line: i + 1,
          reason: `a second discern region (the first starts on line ${found.line}); discern owns one region per file`,
        };
      begin = { start: offset, innerStart: offset + raw.length + 1, line: i + 1, stamp: stampOf(line) };
    } else if (syntax.isEnd(line)) {
      if (!begin)
        return { ok: false, line: i + 1, reason: 'a discern:end line without a discern:begin line before it' };
      const inner =
        begin.innerStart <= offset
          ? text.slice(begin.innerStart, Math.max(begin.innerStart, offset - 1)).replace(/\r$/, '')
          : '';
      const { stamp } = begin;
      found = { start: begin.start, end: lineEnd, inner, line: begin.line, ...(stamp === undefined ? {} : { stamp }) };
      begin = undefined;
    }
    offset += raw.length + 1;
  }
  if (begin) return { ok: false, line: begin.line, reason: 'a discern:begin line without a discern:end line after it' };
  return { ok: true, span: found };
}

/** The line break the file already uses: CRLF when it has any, else LF. */
export function lineBreakOf(text: string | null): string {
  return text !== null && text.includes('\r\n') ? '\r\n' : '\n';
}

/**
 * The whole region as text (no line break after the end line), with the file's own line breaks: the begin line
 * names the region, carries the digest of its body and says what wrote it (`note`).
 */
export function regionText(syntax: RegionSyntax, name: string, note: string, body: string, eol: string): string {
  const inner = body.replace(/\r\n/g, '\n').replace(/\n+$/, '');
  const lines = [syntax.begin(`${name} sha256:${bodyStamp(inner)}: ${note}`), ...inner.split('\n'), syntax.end];
  return lines.join(eol);
}

/**
 * The file with the region set to `region` (from regionText): replaced where it is, appended where there is
 * none, or the region alone (and a final line break) for a file that does not exist yet.
 */
export function upsertRegion(text: string | null, region: string, syntax: RegionSyntax): RegionEdit {
  const eol = lineBreakOf(text ?? region);
  if (text === null) return { ok: true, text: `${region}${eol}` };
  const found = findRegion(text, syntax);
  if (!found.ok) return found;
  if (found.span) return { ok: true, text: text.slice(0, found.span.start) + region + text.slice(found.span.end) };
  if (text === '') return { ok: true, text: `${region}${eol}` };
  return { ok: true, text: `${text}${eol}${region}${eol}` };
}

export type RegionEdit = { ok: true; text: string } | { ok: false; line: number; reason: string };

/** The file without its region (unchanged when it has none); '' when the region was all it held. */
export function stripRegion(text: string, syntax: RegionSyntax): RegionEdit {
  const found = findRegion(text, syntax);
  if (!found.ok) return found;
  if (!found.span) return { ok: true, text };
  const eol = lineBreakOf(text);
  let before = text.slice(0, found.span.start);
  let after = text.slice(found.span.end);
  if (after.startsWith(eol)) after = after.slice(eol.length);
  else if (after.startsWith('\n')) after = after.slice(1);
  const trimmed = before.endsWith(eol)
    ? before.slice(0, -eol.length)
    : before.endsWith('\n')
      ? before.slice(0, -1)
      : undefined;
  // Removing the line break before the region would join the text around it onto one line.
  if (trimmed !== undefined && (after === '' || trimmed === '' || trimmed.endsWith('\n'))) before = trimmed;
  return { ok: true, text: before + after };
}
