// Markdown discern owns, tidied: trailing whitespace removed and runs of blank lines collapsed to one outside
// fenced code, no blank lines at the start or the end, one final newline. Inside a fence (``` or ~~~, closed by
// the same character at least as long) nothing changes, leading and trailing spaces included.
import { detectEol } from '../toml-edit/document.js';

const OPENING = /^ {0,3}(`{3,}|~{3,})/;

export function tidyMarkdown(text: string): string {
  const eol = detectEol(text);
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  const out: string[] = [];
  let fence: string | undefined;
  let pendingBlank = false;
  for (const raw of lines) {
    if (fence !== undefined) {
      out.push(raw);
      if (closes(raw, fence)) fence = undefined;
      continue;
    }
    const line = raw.replace(/[ \t]+$/, '');
    if (line === '') {
      pendingBlank = true;
      continue;
    }
    if (pendingBlank && out.length > 0) out.push('');
    pendingBlank = false;
    out.push(line);
    const open = OPENING.exec(line);
    // A backtick fence's info string may not hold a backtick; otherwise it is inline code, not a fence.
    if (open && !(open[1]?.startsWith('`') && line.slice(open[0].length).includes('`'))) fence = open[1];
  }
  return out.length === 0 ? '' : out.join(eol) + eol;
}

function closes(line: string, fence: string): boolean {
  const m = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
  return m !== null && m[1] !== undefined && m[1][0] === fence[0] && m[1].length >= fence.length;
}
