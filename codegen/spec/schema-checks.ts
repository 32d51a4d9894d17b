// Rules every spec schema follows beyond being valid JSON Schema: vocabulary marks name real vocabularies and
// leave type/enum to codegen; objects say what they do with unknown keys; $refs stay inside spec/; and the
// keywords that MCP clients or json-schema-to-typescript mishandle are not used.
import type { ProblemList } from './errors.js';
import type { JsonSchema } from './types.js';
import { walkSchema } from './walk.js';

const ALLOWED_EXTERNAL_REFS = /^(\.\.\/\.\.\/common\.schema\.json|\.\.\/\.\.\/envelope\.schema\.json)#\/\$defs\/[A-Za-z]+$/;
const AVOIDED_KEYWORDS = ['prefixItems', 'unevaluatedProperties', 'unevaluatedItems', 'dependentSchemas', 'definitions'];

/** `borrowedRefs`: refs into another spec file this one may also use (the setup recipe's into config.schema.json). */
export function checkSchemaTree(file: string, schema: JsonSchema, vocabularies: Set<string>, problems: ProblemList, borrowedRefs?: RegExp): void {
  walkSchema(schema, (node, pointer) => {
    const mark = node['x-discern-vocabulary'];
    if (mark !== undefined) {
      if (typeof mark !== 'string' || !vocabularies.has(mark)) problems.add(file, pointer, `x-discern-vocabulary "${String(mark)}" is not a vocabulary of spec/vocabularies.yaml`);
      if ('type' in node || 'enum' in node || 'const' in node) problems.add(file, pointer, 'a vocabulary-marked value leaves type and enum to codegen');
    }
    // Constraint subschemas (if/then/else/not) only test a shape declared elsewhere.
    const constraint = /\/(if|then|else|not)(\/|$)/.test(pointer);
    if (!constraint && node['type'] === 'object' && !('additionalProperties' in node)) problems.add(file, pointer, 'an object type must say additionalProperties (false, a schema, or true where the shape is open)');
    const required = node['required'];
    const properties = node['properties'];
    if (!constraint && Array.isArray(required) && typeof properties === 'object' && properties !== null) {
      for (const name of required) if (!(String(name) in properties)) problems.add(file, `${pointer}/required`, `required "${String(name)}" is not among the properties`);
    }
    const ref = node['$ref'];
    if (typeof ref === 'string' && !ref.startsWith('#/$defs/') && !ALLOWED_EXTERNAL_REFS.test(ref) && !borrowedRefs?.test(ref)) {
      problems.add(file, pointer, `$ref "${ref}" must point into this file's $defs or into common/envelope $defs`);
    }
    for (const keyword of AVOIDED_KEYWORDS) {
      if (keyword in node) problems.add(file, pointer, `"${keyword}" is avoided: MCP clients and the type generator mishandle it`);
    }
  });
}
