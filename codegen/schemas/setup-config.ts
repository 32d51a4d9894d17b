// The setup recipe's schema (spec/setup-config.schema.json) borrows its sections from discern.toml's: it refers
// to spec/config.schema.json's $defs, so a section means exactly the same in both files and changes in one
// place. The published schema must stand alone, so the borrowed definitions are copied into its own $defs
// (under the names they have in the published config schema); the TypeScript emitter instead points the
// references at the config's own types, so DiscernSetupConfig reuses DiscernConfigJobsSection and the rest.
import type { JsonSchema } from '../spec/types.js';
import { isObject, mapSchema } from '../spec/walk.js';
import { verbDefName } from './names.js';

/** A reference from the recipe's schema into discern.toml's. */
export const CONFIG_DEF_REF = /^config\.schema\.json#\/\$defs\/([A-Za-z]+)$/;
const LOCAL_REF = /^#\/\$defs\/([A-Za-z]+)$/;

/** The recipe's schema with every borrowed definition copied in, and those it uses in turn. */
export function standaloneSetupConfig(setup: JsonSchema, config: JsonSchema): JsonSchema {
  const configDefs = isObject(config['$defs']) ? config['$defs'] : {};
  const own = isObject(setup['$defs']) ? setup['$defs'] : {};
  const needed: string[] = [];
  const need = (name: string): void => {
    if (name in own)
      throw new Error(
        `spec/setup-config.schema.json: its own $defs/${name} has the name of a borrowed discern.toml definition`,
      );
    if (!isObject(configDefs[name]))
      throw new Error(
        `spec/setup-config.schema.json refers to config.schema.json#/$defs/${name}, which does not exist`,
      );
    if (!needed.includes(name)) needed.push(name);
  };
  const rewritten = mapSchema(setup, (node) => {
    const ref = node['$ref'];
    const m = typeof ref === 'string' ? CONFIG_DEF_REF.exec(ref) : null;
    if (!m) return node;
    need(m[1] ?? '');
    return { ...node, $ref: `#/$defs/${m[1] ?? ''}` };
  }) as JsonSchema;
  // The borrowed definitions refer to their siblings by local refs: each of those is borrowed too.
  for (let i = 0; i < needed.length; i++) {
    mapSchema(configDefs[needed[i] ?? ''], (node) => {
      const ref = node['$ref'];
      const m = typeof ref === 'string' ? LOCAL_REF.exec(ref) : null;
      if (m) need(m[1] ?? '');
      return node;
    });
  }
  const borrowed = Object.fromEntries([...needed].sort().map((name) => [name, structuredClone(configDefs[name])]));
  return { ...rewritten, $defs: { ...own, ...borrowed } };
}

/** The recipe's schema for the TypeScript emitter: borrowed references name the config's own types. */
export function setupConfigForTypes(setup: JsonSchema): JsonSchema {
  const {
    $schema: _s,
    $id: _i,
    ...rest
  } = mapSchema(setup, (node) => {
    const ref = node['$ref'];
    const m = typeof ref === 'string' ? CONFIG_DEF_REF.exec(ref) : null;
    // Only the reference: a sibling (a description) would make the emitter declare a copy of the type.
    return m ? { $ref: `#/$defs/${verbDefName('Config', m[1] ?? '')}` } : node;
  }) as JsonSchema;
  return { ...rest, title: 'DiscernSetupConfig' };
}
