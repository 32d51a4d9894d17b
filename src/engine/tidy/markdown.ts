// Markdown discern owns, tidied: trailing whitespace removed and runs of blank lines collapsed to one, no blank
// lines at the start or the end, one final newline. Code is left byte for byte, leading and trailing spaces and
// blank lines included: fenced code (``` or ~~~, closed by the same character at least as long), indented code
// (four spaces or a tab, and the blank lines between such lines), and the HTML blocks whose content is raw
// text (<pre>, <script>, <style>, <textarea>) or a comment, up to the line that closes them.
import { detectEol } from '../toml-edit/document.js';

const OPENING = /^ {0,3}(`{3,}|~{3,})/;
const INDENTED = /^(?: {4}|\t| {0,3}\t)/;
const RAW_HTML = /^ {0,3}<(pre|script|style|textarea)(?:[\s>]|$)/i;
const COMMENT = /^ {0,3}<!--/;

export function tidyMarkdown(text: string): string {
  const eol = detectEol(text);
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  const verbatim = verbatimLines(lines);
  const out: string[] = [];
  let pendingBlank = false;
  for (const [index, raw] of lines.entries()) {
    if (!verbatim[index]) {
      const line = raw.replace(/[ \t]+$/, '');
      if (line === '') {
        pendingBlank = true;
        continue;
      }
      if (pendingBlank && out.length > 0) out.push('');
      pendingBlank = false;
      out.push(line);
      continue;
    }
    if (pendingBlank && out.length > 0) out.push('');
    pendingBlank = false;
    out.push(raw);
  }
  return out.length === 0 ? '' : out.join(eol) + eol;
}

/** Which lines are code or raw HTML, kept exactly as they are. A fence's opening line is tidied like text. */
function verbatimLines(lines: readonly string[]): boolean[] {
  const verbatim = lines.map(() => false);
  const indented = lines.map(() => false);
  let fence: string | undefined;
  let html: RegExp | undefined;
  for (const [index, raw] of lines.entries()) {
    if (fence !== undefined) {
      verbatim[index] = true;
      if (closes(raw, fence)) fence = undefined;
      continue;
    }
    if (html !== undefined) {
      verbatim[index] = true;
      if (html.test(raw)) html = undefined;
      continue;
    }
    if (isBlank(raw)) continue;
    if (INDENTED.test(raw)) {
      verbatim[index] = true;
      indented[index] = true;
      continue;
    }
    const rawHtml = RAW_HTML.exec(raw);
    const end = rawHtml ? new RegExp(`</${rawHtml[1]}>`, 'i') : COMMENT.test(raw) ? /-->/ : undefined;
    if (end !== undefined) {
      verbatim[index] = true;
      // The closing tag may be on the opening line itself, after the opening tag.
      if (!end.test(raw.slice(raw.indexOf('<') + 1))) html = end;
      continue;
    }
    const line = raw.replace(/[ \t]+$/, '');
    const open = OPENING.exec(line);
    // A backtick fence's info string may not hold a backtick; otherwise it is inline code, not a fence.
    if (open && !(open[1]?.startsWith('`') && line.slice(open[0].length).includes('`'))) fence = open[1];
  }
  // Blank lines between two indented lines belong to the code block they are in.
  let lastIndented = -1;
  for (const [index, raw] of lines.entries()) {
    if (isBlank(raw) && !verbatim[index]) continue;
    if (indented[index] && lastIndented >= 0 && lastIndented === previousNonBlank(lines, verbatim, index))
      for (let between = lastIndented + 1; between < index; between++) verbatim[between] = true;
    lastIndented = indented[index] ? index : -1;
  }
  return verbatim;
}

/** The index of the last line before `index` that is not a (non-verbatim) blank line. */
function previousNonBlank(lines: readonly string[], verbatim: readonly boolean[], index: number): number {
  for (let i = index - 1; i >= 0; i--) if (verbatim[i] || !isBlank(lines[i] ?? '')) return i;
  return -1;
}

function isBlank(line: string): boolean {
  return /^[ \t]*$/.test(line);
}

function closes(line: string, fence: string): boolean {
  const m = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
  return m !== null && m[1] !== undefined && m[1][0] === fence[0] && m[1].length >= fence.length;
}
