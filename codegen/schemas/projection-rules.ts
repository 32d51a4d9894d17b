// Derives, from a verb's data schema, every repeated collection its projection caps: each array at any depth,
// as a path of property names with `*` for "each item of the enclosing array", capped at six unless the array
// declares `x-discern-cap`. The runtime applies these rules generically (src/core/projection.ts), so no verb
// hand-writes its caps.
import type { JsonSchema } from '../spec/types.js';
import { isObject } from '../spec/walk.js';

export interface CollectionRule {
  path: string[];
  cap: number;
}

export const DEFAULT_CAP = 6;
const LOCAL_REF = /^#\/\$defs\/([A-Za-z]+)$/;
const COMMON_REF = /^\.\.\/\.\.\/common\.schema\.json#\/\$defs\/([A-Za-z]+)$/;

export function collectionRules(data: JsonSchema, common: JsonSchema): CollectionRule[] {
  const rules: CollectionRule[] = [];
  const seen = new Set<string>();
  const visit = (node: unknown, path: string[], defs: JsonSchema, stack: string[]): void => {
    if (!isObject(node)) return;
    const ref = node['$ref'];
    if (typeof ref === 'string') {
      const local = LOCAL_REF.exec(ref);
      const shared = COMMON_REF.exec(ref);
      const name = local?.[1] ?? shared?.[1];
      const source = shared ? (isObject(common['$defs']) ? common['$defs'] : {}) : defs;
      const target = name === undefined ? undefined : source[name];
      // A recursive definition would make the rule set infinite; none exists, but never loop on one.
      if (name !== undefined && !stack.includes(name)) visit(target, path, shared ? source : defs, [...stack, name]);
      return;
    }
    for (const key of ['anyOf', 'oneOf', 'allOf']) {
      const list = node[key];
      if (Array.isArray(list)) for (const branch of list) visit(branch, path, defs, stack);
    }
    if (node['type'] === 'array') {
      const id = path.join('.');
      if (path.length > 0 && !seen.has(id)) {
        seen.add(id);
        const cap = node['x-discern-cap'];
        rules.push({ path, cap: typeof cap === 'number' ? cap : DEFAULT_CAP });
      }
      visit(node['items'], [...path, '*'], defs, stack);
      return;
    }
    const properties = node['properties'];
    if (isObject(properties))
      for (const [key, sub] of Object.entries(properties)) visit(sub, [...path, key], defs, stack);
  };
  visit(data, [], isObject(data['$defs']) ? data['$defs'] : {}, []);
  return rules;
}
