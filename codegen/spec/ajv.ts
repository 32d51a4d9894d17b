// The Ajv instance codegen uses: JSON Schema 2020-12, strict, with discern's annotation keywords registered so
// strict mode accepts them and still rejects any other unknown keyword.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export const ANNOTATION_KEYWORDS = [
  'x-discern-vocabulary',
  'x-discern-stability',
  'x-discern-contracts',
  'x-discern-error-slugs',
  'x-discern-compatibility-policy',
  'x-discern-cap',
  'tsType',
] as const;

export interface AjvOptions {
  /** Emit source for standalone validators. */
  standalone?: boolean;
  /** More annotation keywords, e.g. the root lists of open vocabularies. */
  keywords?: readonly string[];
}

export function createAjv(options: AjvOptions = {}): Ajv2020 {
  const ajv = new Ajv2020({
    strict: true,
    allErrors: true,
    discriminator: true,
    allowUnionTypes: true,
    // Constraint subschemas (if/not) name properties declared by their parent; schema-checks.ts checks
    // required names against properties everywhere else.
    strictRequired: false,
    ...(options.standalone ? { code: { source: true, esm: true } } : {}),
  });
  addFormats(ajv);
  ajv.addVocabulary([...new Set([...ANNOTATION_KEYWORDS, ...(options.keywords ?? [])])]);
  return ajv;
}
