// Validators compiled fresh from the published artifacts in schema/ — independent of the generated
// standalone validators — so tests check results against exactly what consumers read.
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { REPO_ROOT } from './cli.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export function readPublished(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(`${REPO_ROOT}schema/${name}`, 'utf8')) as Record<string, unknown>;
}

let cached: { ajv: Ajv2020; id: string } | undefined;

function resultsAjv(): { ajv: Ajv2020; id: string } {
  if (cached) return cached;
  const schema = readPublished('discern-results.schema.json');
  // strict: false — a consumer's validator need not know discern's annotation keywords.
  const ajv = new Ajv2020({ strict: false, allErrors: true, discriminator: true });
  addFormats(ajv);
  ajv.addSchema(schema);
  cached = { ajv, id: String(schema['$id']) };
  return cached;
}

/** The published validator for one definition of discern-results.schema.json. */
export function resultValidator(definition: string): ValidateFunction {
  const { ajv, id } = resultsAjv();
  const validate = ajv.getSchema(`${id}#/$defs/${definition}`);
  if (!validate) throw new Error(`no definition ${definition}`);
  return validate;
}

/** Throws with Ajv's errors when `value` does not validate against the published root schema. */
export function assertPublishedResult(value: unknown): void {
  const { ajv, id } = resultsAjv();
  const validate = ajv.getSchema(id);
  if (!validate) throw new Error('results schema missing');
  if (!validate(value))
    throw new Error(
      `result does not match schema/discern-results.schema.json: ${JSON.stringify(validate.errors, null, 2)}\n${JSON.stringify(value)}`,
    );
}
