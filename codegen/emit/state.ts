// discern's private state records (spec/state/*.schema.json): the files it keeps under git's directories for
// itself, never published in schema/. Each becomes a TypeScript type (generated/state-types.ts) and a standalone
// validator (generated/validators/state-<kind>.js, loaded when a call first reads that kind), so every record is
// read through one checked reader (src/engine/state/state-record.ts) and a damaged or foreign one is skipped.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { compile } from 'json-schema-to-typescript';
import type { JsonSchema } from '../spec/types.js';
import { createAjv } from '../spec/ajv.js';
import { esmHelpers, validatorDts } from './validators.js';
import { withCodeHeader } from './provenance.js';
import { RESULTS_ID, type Contracts } from '../schemas/contracts.js';
import { vocabularyKey, vocabularyType } from '../schemas/names.js';
import { expandVocabularies } from '../schemas/vocabulary.js';

const standalone = standaloneCode as unknown as (ajv: unknown, refs: Record<string, string>) => string;

export const STATE_DIR = 'spec/state';

interface StateSchema {
  /** The file's name without `.schema.json`: submission, task-record. */
  kind: string;
  /** The schema's title: the TypeScript type's name. */
  title: string;
  schema: JsonSchema;
  /** Read only with the repository key's MAC. */
  sealed: boolean;
}

export function loadStateSchemas(root: string): StateSchema[] {
  return readdirSync(join(root, STATE_DIR))
    .filter((name) => name.endsWith('.schema.json'))
    .sort()
    .map((name) => {
      const schema = JSON.parse(readFileSync(join(root, STATE_DIR, name), 'utf8')) as JsonSchema;
      const title = schema['title'];
      if (typeof title !== 'string' || !/^State[A-Z][A-Za-z]+$/.test(title))
        throw new Error(`${STATE_DIR}/${name}: its title must name its type, State<Name> (got ${String(title)})`);
      // x-discern-sealed marks a kind the state reader honours only with the repository key's MAC.
      const { [SEALED]: sealed, ...rest } = schema as Record<string, unknown>;
      if (sealed !== undefined && sealed !== true)
        throw new Error(`${STATE_DIR}/${name}: ${SEALED} is true or absent (got ${String(sealed)})`);
      if (sealed === true && (rest['properties'] as Record<string, unknown> | undefined)?.['mac'] === undefined)
        throw new Error(`${STATE_DIR}/${name}: a sealed kind declares its mac property`);
      return {
        kind: name.slice(0, -'.schema.json'.length),
        title,
        schema: rest as JsonSchema,
        sealed: sealed === true,
      };
    });
}

/**
 * A state schema names a published definition with `"x-discern-published": "DiscernProofSummary"`: the type
 * is the published type, and the validator checks it against the published schema, so a record keeps exactly
 * what a result would carry.
 */
const PUBLISHED = 'x-discern-published';
const SEALED = 'x-discern-sealed';

function withPublished(schema: unknown, as: (name: string, rest: JsonSchema) => JsonSchema): unknown {
  if (Array.isArray(schema)) return schema.map((s) => withPublished(s, as));
  if (schema === null || typeof schema !== 'object') return schema;
  const { [PUBLISHED]: name, ...rest } = schema as Record<string, unknown>;
  if (typeof name === 'string') return as(name, rest as JsonSchema);
  return Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, withPublished(v, as)]));
}

/** Where each published type sits in the results schema: its $defs entries, and titled schemas inside them. */
function titledPointers(schema: unknown, at = '', into = new Map<string, string>()): Map<string, string> {
  if (at === '' && schema !== null && typeof schema === 'object')
    for (const name of Object.keys(((schema as Record<string, unknown>)['$defs'] ?? {}) as object))
      into.set(name, `/$defs/${name}`);
  if (Array.isArray(schema)) schema.forEach((s, i) => titledPointers(s, `${at}/${i}`, into));
  else if (schema !== null && typeof schema === 'object') {
    const title = (schema as Record<string, unknown>)['title'];
    if (typeof title === 'string' && at !== '' && !into.has(title)) into.set(title, at);
    for (const [k, v] of Object.entries(schema))
      titledPointers(v, `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, into);
  }
  return into;
}

/** The published type names a schema uses: its x-discern-published marks and its vocabularies' types. */
function publishedNames(schema: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(schema)) for (const s of schema) publishedNames(s, into);
  else if (schema !== null && typeof schema === 'object')
    for (const [k, v] of Object.entries(schema)) {
      if (k === PUBLISHED && typeof v === 'string') into.add(v);
      else if (k === 'x-discern-vocabulary' && typeof v === 'string') into.add(vocabularyType(v));
      else publishedNames(v, into);
    }
  return into;
}

/**
 * Drops a declaration an earlier schema's output already made (a shared $defs entry with the same title), so
 * each state type is declared once; the same name declared differently is a spec error.
 */
function withoutRepeats(text: string, declared: Map<string, string>): string {
  return text.replace(
    /(?:\/\*\*(?:(?!\*\/)[\s\S])*\*\/\n)?export interface (\w+) \{[\s\S]*?\n\}\n?/g,
    (block, name: string) => {
      const earlier = declared.get(name);
      if (earlier === undefined) {
        declared.set(name, block);
        return block;
      }
      if (earlier !== block) throw new Error(`${STATE_DIR}: ${name} is declared differently in two state schemas`);
      return '';
    },
  );
}

/** The `format` const every state record carries first. */
function formatOf(s: StateSchema): number {
  const format = (s.schema['properties'] as Record<string, { const?: unknown }> | undefined)?.['format']?.const;
  if (typeof format !== 'number')
    throw new Error(`${STATE_DIR}/${s.kind}.schema.json: properties.format needs a const number`);
  return format;
}

export async function emitState(root: string, contracts: Contracts): Promise<Map<string, string>> {
  const schemas = loadStateSchemas(root);
  const pointers = titledPointers(contracts.resultsSchema);
  const published = [
    ...publishedNames(
      schemas.map((s) => s.schema),
      new Set<string>(),
    ),
  ].sort();
  const marked = [
    ...publishedNames(
      schemas.map((s) => withPublished(s.schema, () => ({}))),
      new Set<string>(),
    ),
  ];
  const unknown = published.filter((name) => !marked.includes(name) && !pointers.has(name));
  if (unknown.length > 0)
    throw new Error(`${STATE_DIR}: ${PUBLISHED} names ${unknown.join(', ')}, which the results schema does not define`);
  const sources = schemas.map((s) => `${STATE_DIR}/${s.kind}.schema.json`);
  const out = new Map<string, string>();

  const types: string[] = [];
  const declared = new Map<string, string>();
  for (const s of schemas) {
    const forTypes = expandVocabularies(
      withPublished(s.schema, (name, rest) => ({ ...rest, tsType: name })),
      contracts.vocabularies,
      'ts',
    );
    const text = await compile(forTypes as never, s.title, {
      bannerComment: '',
      additionalProperties: false,
      strictIndexSignatures: true,
      // Bounded arrays stay plain arrays: tuple unions are unusable for producers.
      maxItems: -1,
      format: true,
      style: { printWidth: 120, singleQuote: true },
      cwd: process.cwd(),
    });
    types.push(withoutRepeats(text, declared).trim());
  }
  const kinds = schemas.map((s) => `  ${JSON.stringify(s.kind)}: ${s.title};`);
  out.set(
    'generated/state-types.ts',
    withCodeHeader(
      sources,
      [
        ...(published.length > 0 ? [`import type { ${published.join(', ')} } from './types.js';`, ''] : []),
        ...types.flatMap((t) => [t, '']),
        '/** Each state record kind (its schema file name) and its type. */',
        'export interface StateRecords {',
        ...kinds,
        '}',
        '',
      ].join('\n'),
    ),
  );

  const ajv = createAjv({
    standalone: true,
    keywords: contracts.vocabularies.filter((v) => v.open).map((v) => vocabularyKey(v.name)),
  });
  ajv.addSchema(contracts.resultsSchema, RESULTS_ID);
  for (const s of schemas) {
    const id = `discern-state:${s.kind}`;
    const forAjv = expandVocabularies(
      withPublished(s.schema, (name, rest) => ({
        ...(typeof rest['description'] === 'string' ? { description: rest['description'] } : {}),
        $ref: `${RESULTS_ID}#${pointers.get(name) ?? ''}`,
      })),
      contracts.vocabularies,
      'wire',
    ) as JsonSchema;
    ajv.addSchema({ ...forAjv, $id: id }, id);
  }
  // One module per kind: a call reads the few kinds it touches, not every kind's code (all of them together
  // were half of what each CLI call read before it did anything).
  for (const s of schemas) {
    const source = [`${STATE_DIR}/${s.kind}.schema.json`];
    out.set(
      `generated/validators/state-${s.kind}.js`,
      withCodeHeader(source, esmHelpers(standalone(ajv, { validate: `discern-state:${s.kind}` }))),
    );
    out.set(
      `generated/validators/state-${s.kind}.d.ts`,
      withCodeHeader(
        source,
        validatorDts([`validate: StandaloneValidator<${s.title}>`], [s.title], '../state-types.js'),
      ),
    );
  }
  out.set(
    'generated/state-validators.ts',
    withCodeHeader(
      sources,
      [
        "import type { StateRecords } from './state-types.js';",
        "import type { StandaloneValidator } from './validators/state-setup.js';",
        '',
        '/** The validator of each state record kind, loaded when a call first reads that kind. */',
        'export const STATE_VALIDATORS: {',
        '  [K in keyof StateRecords]: () => Promise<StandaloneValidator<StateRecords[K]>>;',
        '} = {',
        ...schemas.map(
          (s) => `  ${JSON.stringify(s.kind)}: async () => (await import('./validators/state-${s.kind}.js')).validate,`,
        ),
        '};',
        '',
        "/** The kinds read only with the repository key's MAC (spec/state: x-discern-sealed). */",
        `export const SEALED_KINDS = [${schemas
          .filter((s) => s.sealed)
          .map((s) => JSON.stringify(s.kind))
          .join(', ')}] as const;`,
        'export type SealedKind = (typeof SEALED_KINDS)[number];',
        '',
        "/** The format number each kind is written with: a record with a higher one is a newer discern's. */",
        'export const STATE_FORMATS: { [K in keyof StateRecords]: number } = {',
        ...schemas.map((s) => `  ${JSON.stringify(s.kind)}: ${formatOf(s)},`),
        '};',
        '',
      ].join('\n'),
    ),
  );
  return out;
}
