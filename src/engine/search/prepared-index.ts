// The JSON index stores term lists; ranking wants sets and lowercased texts. They are derived once per index
// object and cached weakly, so repeated searches against one loaded index pay the cost only once.
import { FIELD_NAMES, fieldTexts, type FieldName } from './fields.js';
import type { IndexedDocument, IndexedDocumentMeta, SearchIndex } from './types.js';

export interface PreparedDocument {
  readonly doc: IndexedDocument;
  readonly meta: IndexedDocumentMeta;
  readonly terms: Readonly<Record<FieldName, ReadonlySet<string>>>;
  /** Same strings as fieldTexts, lowercased without changing any offsets. */
  readonly lowerTexts: Readonly<Record<FieldName, readonly string[]>>;
  readonly lowerDescription: string;
  readonly lowerBody: string;
}

const cache = new WeakMap<SearchIndex, readonly PreparedDocument[]>();

/**
 * Lowercases character by character, keeping any character whose lowercase form has a different length
 * (e.g. "İ"), so offsets found in the lowercased text are valid in the original.
 */
export function lowerKeepingOffsets(text: string): string {
  const lower = text.toLowerCase();
  if (lower.length === text.length) return lower;
  return Array.from(text, (char) => {
    const lowered = char.toLowerCase();
    return lowered.length === char.length ? lowered : char;
  }).join('');
}

function prepareDocument(doc: IndexedDocument): PreparedDocument {
  const terms = {} as Record<FieldName, ReadonlySet<string>>;
  const lowerTexts = {} as Record<FieldName, readonly string[]>;
  for (const field of FIELD_NAMES) {
    terms[field] = new Set(doc.terms[field]);
    lowerTexts[field] = fieldTexts(doc, field).map(lowerKeepingOffsets);
  }
  const { target, path, section, title, description } = doc;
  return {
    doc,
    meta: { target, path, section, title, description },
    terms,
    lowerTexts,
    lowerDescription: lowerTexts.body[0] ?? '',
    lowerBody: lowerTexts.body[1] ?? '',
  };
}

export function prepareIndex(index: SearchIndex): readonly PreparedDocument[] {
  const cached = cache.get(index);
  if (cached) return cached;
  const prepared = index.documents.map(prepareDocument);
  cache.set(index, prepared);
  return prepared;
}
