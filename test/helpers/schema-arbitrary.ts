// A small JSON Schema → fast-check converter for the published tool input schemas: values that satisfy the
// schema, drawn from its own keywords (type, enum, const, properties, required, items, lengths, bounds,
// pattern, anyOf/oneOf, $ref into the root's $defs). `pools` adds hand-picked values by property name (real
// paths of the scratch project, traversals, option-looking refs), so generated calls reach real code paths
// instead of stopping at "no such repository" every time.
import fc from 'fast-check';

export type JsonSchema = Record<string, unknown>;

export interface ArbitraryOptions {
  /** Extra candidate values for a property of this name, mixed in with the schema-derived ones. */
  pools?: Readonly<Record<string, readonly unknown[]>>;
  /** The document `$ref`s resolve against (the schema itself by default). */
  root?: JsonSchema;
}

/** Values the schema accepts (the pools may add values it does not: the caller checks with Ajv). */
export function arbitraryFor(schema: JsonSchema, options: ArbitraryOptions = {}, key?: string): fc.Arbitrary<unknown> {
  const root = options.root ?? schema;
  const derived = fromSchema(schema, { ...options, root });
  const pool = key !== undefined ? options.pools?.[key] : undefined;
  if (pool === undefined || pool.length === 0) return derived;
  return fc.oneof({ arbitrary: derived, weight: 1 }, { arbitrary: fc.constantFrom(...pool), weight: 2 });
}

function fromSchema(schema: JsonSchema, options: ArbitraryOptions & { root: JsonSchema }): fc.Arbitrary<unknown> {
  const ref = schema['$ref'];
  if (typeof ref === 'string') return fromSchema(resolveRef(options.root, ref), options);
  if ('const' in schema) return fc.constant(schema['const']);
  if (Array.isArray(schema['enum'])) return fc.constantFrom(...(schema['enum'] as unknown[]));
  const choices = (schema['anyOf'] ?? schema['oneOf']) as JsonSchema[] | undefined;
  if (Array.isArray(choices)) return fc.oneof(...choices.map((c) => fromSchema(c, options)));
  const type = schema['type'];
  if (Array.isArray(type)) return fc.oneof(...type.map((t) => fromSchema({ ...schema, type: t }, options)));
  switch (type) {
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: num(schema['minimum'], -1_000_000), max: num(schema['maximum'], 1_000_000) });
    case 'number':
      return fc.double({ min: num(schema['minimum'], -1e9), max: num(schema['maximum'], 1e9), noNaN: true });
    case 'string':
      return stringFor(schema);
    case 'array':
      return arrayFor(schema, options);
    case 'object':
      return objectFor(schema, options);
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function num(value: unknown, fallback: number): number {
  return typeof value === 'number' ? value : fallback;
}

function stringFor(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = num(schema['minLength'], 0);
  // Long enough to cross a boundary now and then, short enough to keep the run quick.
  const maxLength = Math.min(num(schema['maxLength'], 64), 64);
  const fits = (s: string): boolean => s.length >= minLength && s.length <= num(schema['maxLength'], Infinity);
  const pattern = schema['pattern'];
  if (typeof pattern === 'string') {
    // fast-check draws strings from the regular expression itself; lengths are enforced after.
    return fc.stringMatching(new RegExp(pattern, 'u'), { size: 'small' }).filter(fits);
  }
  // Printable ASCII most of the time, any Unicode grapheme some of the time (lengths count UTF-16 units).
  return fc.oneof(
    fc.string({ minLength, maxLength }),
    fc.string({ minLength, maxLength, unit: 'grapheme' }).filter(fits),
  );
}

function arrayFor(schema: JsonSchema, options: ArbitraryOptions & { root: JsonSchema }): fc.Arbitrary<unknown[]> {
  const items = (schema['items'] ?? {}) as JsonSchema;
  const minLength = num(schema['minItems'], 0);
  const maxLength = Math.min(num(schema['maxItems'], 4), Math.max(minLength, 4));
  const item = fromSchema(items, options);
  if (schema['uniqueItems'] === true)
    return fc.uniqueArray(item, { minLength, maxLength, selector: (v) => JSON.stringify(v) });
  return fc.array(item, { minLength, maxLength });
}

function objectFor(
  schema: JsonSchema,
  options: ArbitraryOptions & { root: JsonSchema },
): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema['properties'] ?? {}) as Record<string, JsonSchema>;
  const required = ((schema['required'] ?? []) as string[]).filter((r) => r in properties);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, sub] of Object.entries(properties)) model[name] = arbitraryFor(sub, options, name);
  const full = fc.record(model, { requiredKeys: required }) as fc.Arbitrary<Record<string, unknown>>;
  // Calls name few keys: a record of every optional key mostly meets a cross-key rule and stops there, so
  // most objects take the required keys and up to three others.
  const optional = Object.keys(model).filter((k) => !required.includes(k));
  const sparse = fc.shuffledSubarray(optional, { maxLength: Math.min(3, optional.length) }).chain((keys) => {
    const picked: Record<string, fc.Arbitrary<unknown>> = {};
    for (const k of [...required, ...keys]) picked[k] = model[k] as fc.Arbitrary<unknown>;
    return fc.record(picked) as fc.Arbitrary<Record<string, unknown>>;
  });
  return fc.oneof({ arbitrary: sparse, weight: 3 }, { arbitrary: full, weight: 1 });
}

function resolveRef(root: JsonSchema, ref: string): JsonSchema {
  if (!ref.startsWith('#/')) throw new Error(`only local $refs are supported, not ${ref}`);
  let at: unknown = root;
  for (const part of ref.slice(2).split('/'))
    at = (at as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  if (at === undefined || at === null || typeof at !== 'object') throw new Error(`unresolved $ref ${ref}`);
  return at as JsonSchema;
}
