// Turns parsed pages into the JSON index shipped with the CLI. Output must be byte-stable for the same
// input because the generated file is committed and checked for drift.
import { collapseWhitespace } from './markdown-inline.js';
import { termForms, tokenize } from './tokenize.js';
import type { IndexedDocument, IndexedFieldTerms, SearchDocument, SearchIndex } from './types.js';

/** Distinct tokens plus their singular variants, so "worktree" meets a page that only says "worktrees". */
function fieldTerms(texts: readonly string[]): string[] {
  const terms = new Set<string>();
  for (const text of texts) {
    for (const token of tokenize(text)) {
      for (const form of termForms(token)) terms.add(form);
    }
  }
  return [...terms].sort(compareCodeUnits);
}

function compareCodeUnits(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

/**
 * Where each heading's text starts in the flattened body. The body keeps headings in order, so each one is
 * searched for after the previous; a heading whose wording also appears in the prose just before it may be
 * placed slightly early, which only affects which heading a snippet is attributed to.
 */
function locateHeadings(body: string, headings: readonly { text: string; offset?: number }[]): number[] {
  let cursor = 0;
  return headings.map((heading) => {
    if (heading.offset !== undefined && body.startsWith(heading.text, heading.offset)) {
      cursor = heading.offset + heading.text.length;
      return heading.offset;
    }
    const offset = body.indexOf(heading.text, cursor);
    if (offset < 0) return -1;
    cursor = offset + heading.text.length;
    return offset;
  });
}

function indexDocument(doc: SearchDocument): IndexedDocument {
  const title = collapseWhitespace(doc.title);
  const description = collapseWhitespace(doc.description);
  const aliases = doc.aliases.map(collapseWhitespace).filter((alias) => alias !== '');
  const located = doc.headings
    .filter((heading) => heading.depth >= 2)
    .map((heading) => ({
      depth: heading.depth,
      text: collapseWhitespace(heading.text),
      ...(heading.offset !== undefined ? { offset: heading.offset } : {}),
    }))
    .filter((heading) => heading.text !== '');
  const headings = located.map(({ depth, text }) => ({ depth, text }));
  // Collapsed so technical phrases match across the line breaks of a code block.
  const code = doc.code.map(collapseWhitespace).filter((entry) => entry !== '');
  const body = collapseWhitespace(doc.body);
  const terms: IndexedFieldTerms = {
    title: fieldTerms([title]),
    aliases: fieldTerms(aliases),
    headings: fieldTerms(headings.map((heading) => heading.text)),
    code: fieldTerms(code),
    body: fieldTerms([description, body]),
  };
  return {
    target: doc.target,
    path: doc.path,
    section: doc.section,
    title,
    description,
    kindWeight: doc.kindWeight ?? 0,
    aliases,
    headings,
    code,
    body,
    headingOffsets: locateHeadings(body, located),
    terms,
  };
}

export function buildIndex(docs: readonly SearchDocument[]): SearchIndex {
  const sorted = [...docs].sort((a, b) => compareCodeUnits(a.target, b.target));
  for (let i = 1; i < sorted.length; i += 1) {
    const target = sorted[i]?.target;
    if (target === sorted[i - 1]?.target) throw new Error(`duplicate search target: ${String(target)}`);
  }
  return { version: 1, documentCount: sorted.length, documents: sorted.map(indexDocument) };
}
