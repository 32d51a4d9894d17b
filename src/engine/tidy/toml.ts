// discern.toml tidied: no trailing whitespace (outside strings), `key = value` spacing on top-level keys, one
// blank line before each table (and the comments directly above it), runs of blank lines collapsed, none at
// the start, one final newline. Comments, order and values are kept: the result must parse to the same data,
// or tidying refuses.
import { parseDocument, type Header } from '../toml-edit/document.js';
import { TomlEditError } from '../toml-edit/errors.js';
import { attachedStart } from '../toml-edit/locate.js';
import { parseTree, sameData } from '../toml-edit/values.js';

export function tidyToml(text: string): string {
  const before = parseTree(text);
  const tidied = blankLines(spacing(text));
  if (!sameData(parseTree(tidied), before))
    throw new TomlEditError('tidying would change a value; the file is left as it is');
  return tidied;
}

/** Token-level: whitespace before a line break, trailing blanks of comments, and the span around `=`. */
function spacing(text: string): string {
  const doc = parseDocument(text);
  const edits: { start: number; end: number; text: string }[] = [];
  doc.tokens.forEach((t, i) => {
    const next = doc.tokens[i + 1];
    if (t.kind === 'whitespace' && (next === undefined || next.kind === 'newline'))
      edits.push({ start: t.start, end: t.end, text: '' });
    if (t.kind === 'comment') {
      const body = text.slice(t.start, t.end);
      const trimmed = body.replace(/[ \t]+$/, '');
      if (trimmed !== body) edits.push({ start: t.start, end: t.end, text: trimmed });
    }
  });
  for (const e of doc.entries) {
    if (text.slice(e.key.end, e.value.start) !== ' = ')
      edits.push({ start: e.key.end, end: e.value.start, text: ' = ' });
  }
  let out = text;
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/** Line-level: blank lines before tables and between lines, and the final newline. */
function blankLines(text: string): string {
  const doc = parseDocument(text);
  const groupStarts = new Set(
    doc.lines.filter((l) => l.kind === 'header').map((l) => attachedStart(doc, l.statement as Header)),
  );
  const out: string[] = [];
  let pendingBlank = false;
  for (const line of doc.lines) {
    if (line.kind === 'blank') {
      pendingBlank = true;
      continue;
    }
    if (out.length > 0 && (pendingBlank || groupStarts.has(line.start))) out.push('');
    pendingBlank = false;
    out.push(text.slice(line.start, line.end).replace(/\r?\n$/, ''));
  }
  return out.length === 0 ? '' : out.join(doc.eol) + doc.eol;
}
