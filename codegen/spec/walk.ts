// Visits every subschema of a JSON Schema with its JSON pointer.
import type { JsonSchema } from './types.js';

const SCHEMA_MAPS = ['properties', '$defs', 'definitions', 'patternProperties', 'dependentSchemas'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SCHEMA_SINGLES = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems'];

export function walkSchema(schema: unknown, visit: (node: JsonSchema, pointer: string) => void, pointer = ''): void {
  if (!isObject(schema)) return;
  visit(schema, pointer);
  for (const key of SCHEMA_MAPS) {
    const map = schema[key];
    if (isObject(map)) for (const [name, sub] of Object.entries(map)) walkSchema(sub, visit, `${pointer}/${key}/${escape(name)}`);
  }
  for (const key of SCHEMA_LISTS) {
    const list = schema[key];
    if (Array.isArray(list)) list.forEach((sub, i) => walkSchema(sub, visit, `${pointer}/${key}/${i}`));
  }
  for (const key of SCHEMA_SINGLES) walkSchema(schema[key], visit, `${pointer}/${key}`);
}

/** Returns a deep copy in which `transform` may replace each node (children are transformed first). */
export function mapSchema(schema: unknown, transform: (node: JsonSchema, pointer: string) => JsonSchema, pointer = ''): unknown {
  if (Array.isArray(schema)) return schema.map((v) => structuredClone(v) as unknown);
  if (!isObject(schema)) return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (SCHEMA_MAPS.includes(key) && isObject(value)) {
      const map: JsonSchema = {};
      for (const [name, sub] of Object.entries(value)) map[name] = mapSchema(sub, transform, `${pointer}/${key}/${escape(name)}`);
      out[key] = map;
    } else if (SCHEMA_LISTS.includes(key) && Array.isArray(value)) {
      out[key] = value.map((sub, i) => mapSchema(sub, transform, `${pointer}/${key}/${i}`));
    } else if (SCHEMA_SINGLES.includes(key) && isObject(value)) {
      out[key] = mapSchema(value, transform, `${pointer}/${key}`);
    } else {
      out[key] = structuredClone(value);
    }
  }
  return transform(out, pointer);
}

export function isObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function escape(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}
