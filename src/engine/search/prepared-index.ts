// The JSON index stores sorted term lists and plain texts; ranking wants membership tests and lowercased
// texts. Both are derived lazily and cached per index object: a CLI process runs one search, so building
// Sets or lowercasing every page up front would cost more than the search itself. Membership is a binary
// search over the stored sorted list (sorted by UTF-16 code units, as build-index writes it).
import { FIELD_NAMES, fieldTexts, type FieldName } from './fields.js';
import type { IndexedDocument, IndexedDocumentMeta, SearchIndex } from './types.js';

export interface TermLookup {
  has(term: string): boolean;
}

export interface PreparedDocument {
  readonly doc: IndexedDocument;
  readonly meta: IndexedDocumentMeta;
  readonly terms: Readonly<Record<FieldName, TermLookup>>;
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

function sortedLookup(sorted: readonly string[]): TermLookup {
  return {
    has(term: string): boolean {
      let low = 0;
      let high = sorted.length - 1;
      while (low <= high) {
        const mid = (low + high) >>> 1;
        const value = sorted[mid] ?? '';
        if (value === term) return true;
        if (value < term) low = mid + 1;
        else high = mid - 1;
      }
      return false;
    },
  };
}

function prepareDocument(doc: IndexedDocument): PreparedDocument {
  const terms = {} as Record<FieldName, TermLookup>;
  for (const field of FIELD_NAMES) terms[field] = sortedLookup(doc.terms[field]);
  let lowered: Record<FieldName, readonly string[]> | undefined;
  const lowerTexts = (): Record<FieldName, readonly string[]> => {
    if (!lowered) {
      lowered = {} as Record<FieldName, readonly string[]>;
      for (const field of FIELD_NAMES) lowered[field] = fieldTexts(doc, field).map(lowerKeepingOffsets);
    }
    return lowered;
  };
  const { target, path, section, title, description } = doc;
  return {
    doc,
    meta: { target, path, section, title, description },
    terms,
    get lowerTexts() {
      return lowerTexts();
    },
    get lowerDescription() {
      return lowerTexts().body[0] ?? '';
    },
    get lowerBody() {
      return lowerTexts().body[1] ?? '';
    },
  };
}

export function prepareIndex(index: SearchIndex): readonly PreparedDocument[] {
  const cached = cache.get(index);
  if (cached) return cached;
  const prepared = index.documents.map(prepareDocument);
  cache.set(index, prepared);
  return prepared;
}
