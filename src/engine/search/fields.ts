// Field weights are the product's documented ranking contract; a term scores with the best field it hits.
import type { IndexedDocument } from './types.js';

export const FIELD_WEIGHTS = {
  title: 100,
  aliases: 75,
  headings: 50,
  code: 30,
  body: 10,
} as const;

export type FieldName = keyof typeof FIELD_WEIGHTS;

/** Heaviest first, so the first field a term hits is its best one. */
export const FIELD_NAMES: readonly FieldName[] = ['title', 'aliases', 'headings', 'code', 'body'];

/** Phrase hits in fields at least this heavy restrict results to phrase matches only. */
export const SHORT_CIRCUIT_WEIGHT = 30;

/** The separate texts of a field; a phrase must sit inside one of them, never straddle two. */
export function fieldTexts(doc: IndexedDocument, field: FieldName): string[] {
  switch (field) {
    case 'title':
      return [doc.title];
    case 'aliases':
      return doc.aliases;
    case 'headings':
      return doc.headings.map((heading) => heading.text);
    case 'code':
      return doc.code;
    case 'body':
      return [doc.description, doc.body];
  }
}
