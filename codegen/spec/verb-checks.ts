// Cross-file rules for one verb: its policy names real postconditions and advisories, its errors are
// registered slugs, its project mode matches its `path` input, and the CLI grammar covers every input key
// (but `path`, which the CLI takes from the working directory) exactly once.
import type { ProblemList } from './errors.js';
import type { JsonSchema, VerbModel, VocabulariesSpec } from './types.js';
import { isObject } from './walk.js';

export function checkVerb(verb: VerbModel, vocab: VocabulariesSpec, problems: ProblemList): void {
  const yamlFile = `${verb.dir}/verb.yaml`;
  const inputFile = `${verb.dir}/input.schema.json`;
  const add = (file: string, pointer: string, message: string): void => problems.add(file, pointer, message);
  const { spec, input } = verb;

  const postconditions = vocab.open['postcondition']?.members ?? [];
  for (const p of spec.policy.required_postconditions ?? []) {
    if (!postconditions.includes(p)) add(yamlFile, '/policy/required_postconditions', `unknown postcondition "${p}"`);
  }
  const advisories = vocab.open['advisory_kind']?.members ?? [];
  for (const a of spec.policy.optional_advisories ?? []) {
    if (!advisories.includes(a)) add(yamlFile, '/policy/optional_advisories', `unknown advisory kind "${a}"`);
  }
  spec.errors.forEach((slug, i) => {
    if (!(slug in vocab.error_slugs)) add(yamlFile, `/errors/${i}`, `"${slug}" is not a registered error slug`);
  });

  if (input['type'] !== 'object' || input['additionalProperties'] !== false) add(inputFile, '', 'an input schema is an object with additionalProperties: false');
  if (input['title'] !== `${verb.pascal}Input`) add(inputFile, '/title', `title must be "${verb.pascal}Input"`);
  if (verb.data['title'] !== `${verb.pascal}Data`) add(`${verb.dir}/data.schema.json`, '/title', `title must be "${verb.pascal}Data"`);
  const properties = isObject(input['properties']) ? input['properties'] : {};
  if (Array.isArray(input['required']) && input['required'].includes('path')) add(inputFile, '/required', '`path` is always optional');
  const hasPath = 'path' in properties;
  if (spec.project === 'none' && hasPath) add(inputFile, '/properties/path', 'a project-independent verb takes no path');
  if (spec.project !== 'none') {
    const path = properties['path'];
    if (!isObject(path) || path['$ref'] !== '../../common.schema.json#/$defs/ProjectPath') {
      add(inputFile, '/properties/path', 'a project verb takes `path` as {"$ref": "../../common.schema.json#/$defs/ProjectPath"}');
    }
  }

  const covered = new Map<string, string>();
  const cover = (key: string, where: string): void => {
    if (!(key in properties)) add(yamlFile, where, `input key "${key}" is not in input.schema.json`);
    else if (key === 'path') add(yamlFile, where, 'the CLI takes path from the working directory, not a flag');
    else if (covered.has(key)) add(yamlFile, where, `input key "${key}" is already covered by ${covered.get(key) ?? ''}`);
    covered.set(key, where);
  };
  const positionals = spec.cli.positionals ?? [];
  positionals.forEach((p, i) => {
    cover(p.input, `/cli/positionals/${i}`);
    const prop = properties[p.input];
    const isArray = isObject(prop) && prop['type'] === 'array';
    if (p.variadic && i !== positionals.length - 1) add(yamlFile, `/cli/positionals/${i}`, 'only the last positional may be variadic');
    if (Boolean(p.variadic) !== isArray) add(yamlFile, `/cli/positionals/${i}`, 'a positional is variadic exactly when its input is an array');
  });
  (spec.cli.flags ?? []).forEach((f, i) => {
    cover(f.input, `/cli/flags/${i}`);
    // A key the CLI cannot spell (an array of objects) is assembled by the handler from cli_only flags.
    if (f.stands_for !== undefined) {
      if (!f.cli_only) add(yamlFile, `/cli/flags/${i}/stands_for`, 'only a cli_only flag may stand for another input key');
      else if (!covered.has(f.stands_for)) cover(f.stands_for, `/cli/flags/${i}/stands_for`);
    }
    const prop = properties[f.input];
    if (isObject(prop) && prop['type'] === 'boolean' && f.value_name !== undefined) add(yamlFile, `/cli/flags/${i}/value_name`, 'a boolean flag takes no value');
  });
  for (const [key, value] of Object.entries(spec.cli.fixed ?? {})) {
    cover(key, `/cli/fixed/${key}`);
    const prop = properties[key];
    if (isObject(prop) && !fixedValueFits(prop, value)) add(yamlFile, `/cli/fixed/${key}`, `the fixed value ${JSON.stringify(value)} is not one input.schema.json accepts for "${key}"`);
  }
  (spec.cli.mcp_only ?? []).forEach((key, i) => {
    cover(key, `/cli/mcp_only/${i}`);
    if (Array.isArray(input['required']) && input['required'].includes(key)) add(yamlFile, `/cli/mcp_only/${i}`, `"${key}" is required, so the CLI command could never send it`);
  });
  for (const key of Object.keys(properties)) {
    if (key !== 'path' && !covered.has(key)) add(yamlFile, '/cli', `input key "${key}" has no CLI flag or positional`);
  }
  const dataProps = isObject(verb.data['properties']) ? verb.data['properties'] : {};
  const projectionProp = dataProps['projection'];
  const hasProjection = isObject(projectionProp) && projectionProp['$ref'] === '../../common.schema.json#/$defs/Projection';
  if (spec.projection && !hasProjection) add(`${verb.dir}/data.schema.json`, '/properties/projection', 'a verb with projection: true has a data property projection {"$ref": "../../common.schema.json#/$defs/Projection"}');
  if (!spec.projection && 'projection' in dataProps) add(yamlFile, '', 'the data has a projection property but verb.yaml does not say projection: true');
  if (spec.resources && !spec.mcp) add(yamlFile, '/resources', 'resources belong to a verb with an MCP tool (every resource has a tool returning the same data)');
  checkInputTypes(inputFile, properties, add);
}

/** Whether a fixed CLI value fits its input property's type, enum and const. */
function fixedValueFits(prop: JsonSchema, value: string | number | boolean): boolean {
  const type = prop['type'];
  const typeOk = type === undefined || type === typeof value || (type === 'integer' && Number.isInteger(value));
  const enumOk = !Array.isArray(prop['enum']) || prop['enum'].includes(value);
  const constOk = !('const' in prop) || prop['const'] === value;
  return typeOk && enumOk && constOk;
}

function checkInputTypes(file: string, properties: JsonSchema, add: (file: string, pointer: string, message: string) => void): void {
  for (const [key, prop] of Object.entries(properties)) {
    if (!isObject(prop)) continue;
    if ('$ref' in prop) continue;
    const type = prop['type'];
    const ok = type === 'string' || type === 'boolean' || type === 'number' || type === 'integer' || type === 'array' || type === 'object';
    if (!ok) add(file, `/properties/${key}`, 'an input key has one JSON type');
  }
}
