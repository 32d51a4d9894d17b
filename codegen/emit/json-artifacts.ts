// The published JSON artifacts in schema/: results, CLI grammar, config, setup recipe, Proof note, exception
// note, progress line, release history and conventions, then the MCP manifest (tools, resources, prompts), which
// lists the others as schema resources and so is written last. Each has a stable $id under https://discern.sh/schema/v1/.
import type { JsonSchema, SpecModel } from '../spec/types.js';
import { expandVocabularies } from '../schemas/vocabulary.js';
import type { Contracts } from '../schemas/contracts.js';
import type { Grammar } from '../schemas/cli-grammar.js';
import { SCHEMA_BASE } from '../schemas/names.js';
import { jsonWithComment } from './provenance.js';
import { orderedTools, mcpResources, promptEntries, resourceEntry, type McpSchemaEntry } from './mcp-model.js';
import { standaloneSetupConfig } from '../schemas/setup-config.js';

export const MCP_MANIFEST = 'schema/discern-mcp-tools.json';

export function emitJsonArtifacts(model: SpecModel, contracts: Contracts, grammar: Grammar): Map<string, string> {
  const out = new Map<string, string>();
  const verbSources = ['spec/envelope.schema.json', 'spec/vocabularies.yaml', 'spec/verbs/*'];

  out.set('schema/discern-results.schema.json', jsonWithComment(verbSources, contracts.resultsSchema));

  out.set(
    'schema/discern-cli.json',
    jsonWithComment(['spec/cli.yaml', 'spec/verbs/*'], {
      $id: `${SCHEMA_BASE}discern-cli.json`,
      'x-discern-compatibility-policy': 'cli-append-only',
      ...grammar,
    }),
  );

  out.set(
    'schema/discern-config.schema.json',
    jsonWithComment(['spec/config.schema.json'], publishSchema(model.config, 'discern-config.schema.json', contracts)),
  );
  out.set(
    'schema/discern-proof-note.schema.json',
    jsonWithComment(
      ['spec/proof-note.schema.json'],
      publishSchema(model.proofNote, 'discern-proof-note.schema.json', contracts),
    ),
  );
  out.set(
    'schema/discern-exception-note.schema.json',
    jsonWithComment(
      ['spec/exception-note.schema.json'],
      publishSchema(model.exceptionNote, 'discern-exception-note.schema.json', contracts),
    ),
  );
  out.set(
    'schema/discern-progress-line.schema.json',
    jsonWithComment(
      ['spec/progress-line.schema.json'],
      publishSchema(model.progressLine, 'discern-progress-line.schema.json', contracts),
    ),
  );
  out.set(
    'schema/discern-releases.schema.json',
    jsonWithComment(
      ['spec/releases.schema.json'],
      publishSchema(model.releasesSchema, 'discern-releases.schema.json', contracts),
    ),
  );
  out.set(
    'schema/discern-setup-config.schema.json',
    jsonWithComment(
      ['spec/setup-config.schema.json', 'spec/config.schema.json'],
      publishSchema(
        standaloneSetupConfig(model.setupConfig, model.config),
        'discern-setup-config.schema.json',
        contracts,
      ),
    ),
  );
  out.set(
    'schema/discern-conventions.json',
    jsonWithComment(['spec/conventions.yaml'], {
      $id: `${SCHEMA_BASE}discern-conventions.json`,
      format: 1,
      ...model.conventions,
    }),
  );
  return out;
}

/** The MCP manifest: every tool, resource (the schema template with the names it serves) and prompt. */
export function emitMcpManifest(
  model: SpecModel,
  contracts: Contracts,
  schemas: readonly McpSchemaEntry[],
  skillNames: readonly string[],
): Map<string, string> {
  const template = model.mcp.schemas;
  const assets = model.mcp.agent_assets;
  return new Map([
    [
      MCP_MANIFEST,
      jsonWithComment(['spec/mcp.yaml', 'spec/verbs/*', 'spec/prompts/*'], {
        $id: `${SCHEMA_BASE}discern-mcp-tools.json`,
        format: 1,
        'x-discern-compatibility-policy': 'mcp-tools-append-only',
        server: { name: model.mcp.server.name, title: model.mcp.server.title, version: model.version },
        tools: orderedTools(model, contracts).map((t) => ({
          name: t.name,
          title: t.title,
          description: t.description,
          inputSchema: t.inputSchema,
          annotations: t.annotations,
          resultSchema: `discern-results.schema.json#/$defs/${t.resultName}`,
          ...(t.stability === 'evolving' ? { stability: 'evolving' } : {}),
        })),
        resources: [
          ...mcpResources(model).map(resourceEntry),
          {
            name: template.name,
            kind: 'template',
            uri: template.uri,
            title: template.title,
            description: template.description.trim(),
            mimeType: 'application/json',
            names: schemas.map((s) => s.name),
          },
          {
            name: assets.instructions.name,
            kind: 'resource',
            uri: assets.instructions.uri,
            title: assets.instructions.title,
            description: assets.instructions.description.trim(),
            mimeType: 'text/markdown',
          },
          {
            name: assets.skills.name,
            kind: 'template',
            uri: assets.skills.uri,
            title: assets.skills.title,
            description: assets.skills.description.trim(),
            mimeType: 'text/markdown',
            names: [...skillNames],
          },
        ],
        prompts: promptEntries(model).map((p) => ({
          name: p.name,
          title: p.title,
          description: p.description,
          arguments: p.arguments.map((a) => ({ name: a.name, description: a.description, required: a.required })),
        })),
      }),
    ],
  ]);
}

export function publishSchema(schema: JsonSchema, file: string, contracts: Contracts): JsonSchema {
  const expanded = expandVocabularies(schema, contracts.vocabularies, 'published') as JsonSchema;
  return { ...expanded, $id: `${SCHEMA_BASE}${file}` };
}
