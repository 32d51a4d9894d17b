// Turns the spec's per-file schemas into definitions of one combined document: local $defs get their
// published names, envelope $refs point at the shared envelope definitions, and common fragments are either
// inlined (input schemas stay self-contained for MCP clients) or shared (data schemas refer to one published
// definition, e.g. DiscernProjection, instead of each verb carrying a copy).
import type { JsonSchema } from '../spec/types.js';
import { isObject, mapSchema } from '../spec/walk.js';
import { envelopeDefName, verbDefName } from './names.js';

export interface Hoisted {
  /** The definition standing for the file's root. */
  root: JsonSchema;
  /** The file's own $defs under their published names. */
  defs: Record<string, JsonSchema>;
}

const COMMON_REF = /^\.\.\/\.\.\/common\.schema\.json#\/\$defs\/([A-Za-z]+)$/;
const ENVELOPE_REF = /^\.\.\/\.\.\/envelope\.schema\.json#\/\$defs\/([A-Za-z]+)$/;
const LOCAL_REF = /^#\/\$defs\/([A-Za-z]+)$/;

export type CommonRefs = 'inline' | 'shared';

/** Hoists a verb's input or data schema; `rootName` becomes the root definition's title. */
export function hoistVerbSchema(
  schema: JsonSchema,
  verbPascal: string,
  rootName: string,
  common: JsonSchema,
  commonRefs: CommonRefs = 'inline',
): Hoisted {
  const rewrite = (node: JsonSchema): JsonSchema => {
    let out = node;
    const ref = out['$ref'];
    if (typeof ref === 'string') {
      const commonMatch = COMMON_REF.exec(ref);
      const envelopeMatch = ENVELOPE_REF.exec(ref);
      const localMatch = LOCAL_REF.exec(ref);
      if (commonMatch && commonRefs === 'shared') {
        out = { ...out, $ref: `#/$defs/${envelopeDefName(commonMatch[1] ?? '')}` };
      } else if (commonMatch) {
        const { $ref: _r, ...siblings } = out;
        out = { ...commonDef(common, commonMatch[1] ?? ''), ...siblings };
      } else if (envelopeMatch) {
        out = { ...out, $ref: `#/$defs/${envelopeDefName(envelopeMatch[1] ?? '')}` };
      } else if (localMatch) {
        out = { ...out, $ref: `#/$defs/${verbDefName(verbPascal, localMatch[1] ?? '')}` };
      }
    }
    if (typeof out['title'] === 'string') out = { ...out, title: verbDefName(verbPascal, out['title']) };
    return out;
  };
  const { $defs, $schema: _s, $id: _i, ...rootRest } = mapSchema(schema, rewrite) as JsonSchema;
  const defs: Record<string, JsonSchema> = {};
  if (isObject($defs)) {
    for (const [local, def] of Object.entries($defs)) {
      const name = verbDefName(verbPascal, local);
      defs[name] = { ...(def as JsonSchema), title: name };
    }
  }
  return { root: { ...rootRest, title: rootName }, defs };
}

/** The shared definitions of a spec file (envelope or common) under their published names, refs rewritten. */
export function envelopeDefs(envelope: JsonSchema): Record<string, JsonSchema> {
  const defs: Record<string, JsonSchema> = {};
  const source = isObject(envelope['$defs']) ? envelope['$defs'] : {};
  for (const [local, def] of Object.entries(source)) {
    const name = envelopeDefName(local);
    const rewritten = mapSchema(def, (node) => {
      const ref = node['$ref'];
      const m = typeof ref === 'string' ? LOCAL_REF.exec(ref) : null;
      return m ? { ...node, $ref: `#/$defs/${envelopeDefName(m[1] ?? '')}` } : node;
    }) as JsonSchema;
    defs[name] = { title: name, ...rewritten };
  }
  return defs;
}

/** The envelope's top-level properties with refs pointing at the published envelope definitions. */
export function envelopeProperties(envelope: JsonSchema): Record<string, JsonSchema> {
  const props = isObject(envelope['properties']) ? envelope['properties'] : {};
  const out: Record<string, JsonSchema> = {};
  for (const [key, prop] of Object.entries(props)) {
    out[key] = mapSchema(prop, (node) => {
      const ref = node['$ref'];
      const m = typeof ref === 'string' ? LOCAL_REF.exec(ref) : null;
      return m ? { ...node, $ref: `#/$defs/${envelopeDefName(m[1] ?? '')}` } : node;
    }) as JsonSchema;
  }
  return out;
}

/** Every definition reachable from `start` through $refs into `defs`. */
export function reachableDefs(start: unknown, defs: Record<string, JsonSchema>): Record<string, JsonSchema> {
  const found = new Map<string, JsonSchema>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    if (!isObject(node)) return;
    const ref = node['$ref'];
    const m = typeof ref === 'string' ? LOCAL_REF.exec(ref) : null;
    if (m) {
      const name = m[1] ?? '';
      const def = defs[name];
      if (def && !found.has(name)) {
        found.set(name, def);
        visit(def);
      }
    }
    for (const value of Object.values(node)) visit(value);
  };
  visit(start);
  return Object.fromEntries([...found.entries()].sort(([a], [b]) => a.localeCompare(b)));
}

function commonDef(common: JsonSchema, name: string): JsonSchema {
  const defs = isObject(common['$defs']) ? common['$defs'] : {};
  const def = defs[name];
  if (!isObject(def)) throw new Error(`spec/common.schema.json has no $defs/${name}`);
  return structuredClone(def);
}
