// discern's private state records (spec/state/*.schema.json): the files it keeps under git's directories for
// itself, never published in schema/. Each becomes a TypeScript type (generated/state-types.ts) and a standalone
// validator (generated/validators/state.js), so every record is read through one checked reader
// (src/engine/state/state-record.ts) and a damaged or foreign one is skipped, never trusted.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { compile } from 'json-schema-to-typescript';
import type { JsonSchema } from '../spec/types.js';
import { createAjv } from '../spec/ajv.js';
import { esmHelpers, validatorDts } from './validators.js';
import { withCodeHeader } from './provenance.js';

const standalone = standaloneCode as unknown as (ajv: unknown, refs: Record<string, string>) => string;

export const STATE_DIR = 'spec/state';

interface StateSchema {
  /** The file's name without `.schema.json`: submission, task-record. */
  kind: string;
  /** The schema's title: the TypeScript type's name. */
  title: string;
  schema: JsonSchema;
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
      return { kind: name.slice(0, -'.schema.json'.length), title, schema };
    });
}

/** `task-record` → `validateTaskRecord`. */
function validatorName(kind: string): string {
  return `validate${kind.replace(/(^|-)([a-z])/g, (_m, _d: string, c: string) => c.toUpperCase())}`;
}

export async function emitState(root: string): Promise<Map<string, string>> {
  const schemas = loadStateSchemas(root);
  const sources = schemas.map((s) => `${STATE_DIR}/${s.kind}.schema.json`);
  const out = new Map<string, string>();

  const types: string[] = [];
  for (const s of schemas) {
    const text = await compile(s.schema as never, s.title, {
      bannerComment: '',
      additionalProperties: false,
      strictIndexSignatures: true,
      // Bounded arrays stay plain arrays: tuple unions are unusable for producers.
      maxItems: -1,
      format: true,
      style: { printWidth: 120, singleQuote: true },
      cwd: process.cwd(),
    });
    types.push(text.trim());
  }
  const kinds = schemas.map((s) => `  ${JSON.stringify(s.kind)}: ${s.title};`);
  out.set(
    'generated/state-types.ts',
    withCodeHeader(
      sources,
      [
        "import type { DiscernProofSummary } from './types.js';",
        '',
        ...types.flatMap((t) => [t, '']),
        '/** Each state record kind (its schema file name) and its type. */',
        'export interface StateRecords {',
        ...kinds,
        '}',
        '',
      ].join('\n'),
    ),
  );

  const ajv = createAjv({ standalone: true });
  const refs: Record<string, string> = {};
  for (const s of schemas) {
    const id = `discern-state:${s.kind}`;
    ajv.addSchema({ ...s.schema, $id: id }, id);
    refs[validatorName(s.kind)] = id;
  }
  out.set('generated/validators/state.js', withCodeHeader(sources, esmHelpers(standalone(ajv, refs))));
  out.set(
    'generated/validators/state.d.ts',
    withCodeHeader(
      sources,
      validatorDts(
        schemas.map((s) => `${validatorName(s.kind)}: StandaloneValidator<${s.title}>`),
        schemas.map((s) => s.title),
        '../state-types.js',
      ),
    ),
  );
  out.set(
    'generated/state-validators.ts',
    withCodeHeader(
      sources,
      [
        "import type { StateRecords } from './state-types.js';",
        "import type { StandaloneValidator } from './validators/state.js';",
        `import { ${schemas.map((s) => validatorName(s.kind)).join(', ')} } from './validators/state.js';`,
        '',
        '/** The validator of each state record kind. */',
        'export const STATE_VALIDATORS: { [K in keyof StateRecords]: StandaloneValidator<StateRecords[K]> } = {',
        ...schemas.map((s) => `  ${JSON.stringify(s.kind)}: ${validatorName(s.kind)},`),
        '};',
        '',
      ].join('\n'),
    ),
  );
  return out;
}
