// Derives every verb's published and wire schemas from the spec once; each artifact emitter reads from here.
//
// Per-verb result schemas are expanded (the envelope's properties copied in, `verb` fixed, `data` narrowed)
// rather than composed with allOf, because allOf + additionalProperties: false would reject the composed
// fields. The structural rules live in DiscernResultState, which declares no properties and so composes safely.
import type { CompletionPolicy, JsonSchema, SpecModel, VerbModel } from '../spec/types.js';
import { envelopeDefs, envelopeProperties, hoistVerbSchema, reachableDefs } from './refs.js';
import { expandVocabularies, listVocabularies, type Vocabulary, type VocabularyMode } from './vocabulary.js';
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../src/engine/gate/canonical-json.js';
import { SCHEMA_BASE, mcpResultDefName, resultDefName, toolOutputSchemaId, vocabularyKey } from './names.js';
import { setupConfigForTypes } from './setup-config.js';

export const RESULTS_ID = `${SCHEMA_BASE}discern-results.schema.json`;

export interface VerbContract {
  verb: VerbModel;
  resultName: string;
  dataName: string;
  inputName: string;
  /** Input schema as advertised to MCP clients and compiled into the MCP input validator (no CLI-only keys). */
  wireInput: JsonSchema;
  /** Input schema the CLI validates against: the wire schema plus any CLI-only keys. */
  cliInput: JsonSchema;
  /** Self-contained result schema for the MCP tool's outputSchema. */
  wireOutput: JsonSchema;
}

export interface Contracts {
  vocabularies: Vocabulary[];
  /** Published $defs of the results schema (vocabularies expanded for publication). */
  defs: Record<string, JsonSchema>;
  /** The same definitions with vocabulary marks left for the TypeScript emitter. */
  tsDefs: Record<string, JsonSchema>;
  /** Hoisted input schemas and the discern.toml schema, keyed by type name, for the TypeScript emitter. */
  tsInputs: Record<string, JsonSchema>;
  verbs: VerbContract[];
  resultsSchema: JsonSchema;
}

export function buildContracts(model: SpecModel): Contracts {
  const vocabularies = listVocabularies(model.vocabularies);
  // Common fragments a data schema refers to are published once, beside the envelope's definitions.
  const rawDefs: Record<string, JsonSchema> = { ...envelopeDefs(model.envelope), ...envelopeDefs(model.common) };
  const props = envelopeProperties(model.envelope);
  const tsInputs: Record<string, JsonSchema> = {};
  const inputsWire = new Map<string, JsonSchema>();

  for (const verb of model.verbs) {
    const data = hoistVerbSchema(verb.data, verb.pascal, `Discern${verb.pascal}Data`, model.common, 'shared');
    addDefs(rawDefs, { [`Discern${verb.pascal}Data`]: data.root, ...data.defs }, verb.dir);
    const input = hoistVerbSchema(verb.input, verb.pascal, `Discern${verb.pascal}Input`, model.common);
    if (Object.keys(input.defs).length > 0)
      throw new Error(`${verb.dir}/input.schema.json: input schemas keep no $defs (MCP clients read them flat)`);
    tsInputs[`Discern${verb.pascal}Input`] = input.root;
    inputsWire.set(verb.spec.verb, input.root);
    rawDefs[resultDefName(verb.pascal)] = resultDef(verb, props);
  }

  // discern.toml's types (DiscernConfig and its sections) are emitted beside the inputs.
  const config = hoistVerbSchema(model.config, 'Config', 'DiscernConfig', model.common);
  for (const [name, def] of Object.entries({ DiscernConfig: config.root, ...config.defs })) tsInputs[name] = def;
  // The DISCERN_PROGRESS line protocol is a published contract too: producers may validate against it.
  tsInputs['DiscernProgressLine'] = model.progressLine;
  // The setup recipe, its borrowed sections typed by the config's own types.
  tsInputs['DiscernSetupConfig'] = setupConfigForTypes(model.setupConfig);

  // A common fragment only data schemas share is published only if some result reaches it.
  const commonNames = Object.keys(envelopeDefs(model.common));
  const reached = reachableDefs(
    Object.values(rawDefs).filter((def) => !commonNames.includes(String(def['title']))),
    rawDefs,
  );
  for (const name of commonNames) if (!(name in reached)) delete rawDefs[name];

  const published = expandAll(rawDefs, vocabularies, 'published');
  const wire = expandAll(rawDefs, vocabularies, 'wire');
  const verbs: VerbContract[] = model.verbs.map((verb) => {
    const resultName = resultDefName(verb.pascal);
    const resultWire = wire[resultName] ?? {};
    const { title: _t, ...wireRoot } = resultWire;
    const full = stripForWire(expandVocabularies(inputsWire.get(verb.spec.verb), vocabularies, 'wire') as JsonSchema);
    const cliOnly = (verb.spec.cli.flags ?? []).filter((f) => f.cli_only).map((f) => f.input);
    // A key the CLI command never takes (cli.mcp_only) is not in the schema the CLI validates against.
    const cliInput = withoutProperties(full, verb.spec.cli.mcp_only ?? []);
    return {
      verb,
      resultName,
      dataName: `Discern${verb.pascal}Data`,
      inputName: `Discern${verb.pascal}Input`,
      wireInput: withoutProperties(full, cliOnly),
      cliInput,
      wireOutput: withContentId(verb.spec.verb, { ...wireRoot, $defs: reachableDefs(resultWire, wire) }),
    };
  });

  const defs: Record<string, JsonSchema> = { ...published };
  const mcpVerbs = model.verbs.filter((v) => v.spec.mcp);
  for (const verb of mcpVerbs) defs[mcpResultDefName(verb.pascal)] = { $ref: `#/$defs/${resultDefName(verb.pascal)}` };
  defs['DiscernCliJsonResult'] = union(model.verbs, 'Every CLI --json result, discriminated by verb.');
  defs['DiscernMcpJsonResult'] = union(mcpVerbs, 'Every MCP tool structuredContent, discriminated by verb.');

  const resultsSchema: JsonSchema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: RESULTS_ID,
    title: 'DiscernResult',
    description:
      'Every result discern returns: CLI --json output and MCP structuredContent. Branch on ok, then verb, before reading data.',
    anyOf: [{ $ref: '#/$defs/DiscernCliJsonResult' }, { $ref: '#/$defs/DiscernMcpJsonResult' }],
    'x-discern-contracts': model.verbs.map((verb) => contractEntry(verb)),
    ...Object.fromEntries(vocabularies.filter((v) => v.open).map((v) => [vocabularyKey(v.name), v.members])),
    $defs: sortKeys(defs),
  };
  return {
    vocabularies,
    defs: sortKeys(defs),
    tsDefs: expandAll(rawDefs, vocabularies, 'ts'),
    tsInputs,
    verbs,
    resultsSchema,
  };
}

/**
 * A tool's output schema named by its content. The MCP SDKs' clients compile each output schema on every
 * tools/list unless it has an $id they compiled before (hundreds of milliseconds for discern's 21 tools), so the
 * same content always has the same $id and different content never does. The digest is of the canonical JSON,
 * so a client that reorders keys as it parses can check it.
 */
function withContentId(verb: string, schema: JsonSchema): JsonSchema {
  const digest = createHash('sha256').update(canonicalJson(schema)).digest('hex').slice(0, 16);
  return { $id: toolOutputSchemaId(verb, digest), ...schema };
}

function resultDef(verb: VerbModel, envelopeProps: Record<string, JsonSchema>): JsonSchema {
  const dataRef = { $ref: `#/$defs/Discern${verb.pascal}Data` };
  const data: JsonSchema =
    verb.spec.project === 'none'
      ? { ...dataRef, description: `The ${verb.spec.verb} payload.` }
      : {
          description: `The ${verb.spec.verb} payload, or the shared config-issue payload when discern.toml cannot be used.`,
          anyOf: [dataRef, { $ref: '#/$defs/DiscernConfigIssues' }],
        };
  return {
    type: 'object',
    title: resultDefName(verb.pascal),
    description: verb.spec.summary,
    additionalProperties: false,
    required: ['ok', 'verb'],
    properties: { ...envelopeProps, verb: { const: verb.spec.verb, description: 'The producing verb.' }, data },
    allOf: [{ $ref: '#/$defs/DiscernResultState' }],
    ...(verb.spec.stability === 'evolving' ? { 'x-discern-stability': 'evolving' } : {}),
  };
}

function union(verbs: VerbModel[], description: string): JsonSchema {
  return {
    description,
    type: 'object',
    required: ['verb'],
    oneOf: verbs.map((v) => ({ $ref: `#/$defs/${resultDefName(v.pascal)}` })),
    discriminator: { propertyName: 'verb' },
  };
}

function contractEntry(verb: VerbModel): JsonSchema {
  const entry: JsonSchema = {
    id: verb.id,
    verb: verb.spec.verb,
    commands: [[verb.spec.cli.path.join(' '), ...(verb.spec.cli.aliases ?? [])].join('|')].filter((c) => c.length > 0),
    schema: `#/$defs/${resultDefName(verb.pascal)}`,
  };
  if (verb.spec.mcp) {
    entry['mcpTool'] = verb.spec.mcp.name;
    entry['mcpToolResultSchema'] = `#/$defs/${mcpResultDefName(verb.pascal)}`;
  }
  entry['completion_policy'] = policyJson(verb.policy);
  if (verb.spec.stability === 'evolving') entry['stability'] = 'evolving';
  return entry;
}

function policyJson(policy: CompletionPolicy): JsonSchema {
  return { ...policy };
}

function expandAll(
  defs: Record<string, JsonSchema>,
  vocabularies: Vocabulary[],
  mode: VocabularyMode,
): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const [name, def] of Object.entries(defs)) out[name] = expandVocabularies(def, vocabularies, mode) as JsonSchema;
  return sortKeys(out);
}

function addDefs(target: Record<string, JsonSchema>, defs: Record<string, JsonSchema>, where: string): void {
  for (const [name, def] of Object.entries(defs)) {
    if (name in target)
      throw new Error(`${where}: definition name ${name} is already taken; rename the $def or its title`);
    target[name] = def;
  }
}

function withoutProperties(schema: JsonSchema, keys: readonly string[]): JsonSchema {
  if (keys.length === 0) return schema;
  const properties = Object.fromEntries(
    Object.entries((schema['properties'] as JsonSchema | undefined) ?? {}).filter(([key]) => !keys.includes(key)),
  );
  const required = Array.isArray(schema['required'])
    ? schema['required'].filter((k) => !keys.includes(String(k)))
    : undefined;
  return { ...schema, properties, ...(required ? { required } : {}) };
}

/** MCP clients reject a $schema stamp and some read only the flat object; titles stay as documentation. */
function stripForWire(schema: JsonSchema): JsonSchema {
  const { $schema: _s, $id: _i, title: _t, ...rest } = schema;
  return rest;
}

export function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
