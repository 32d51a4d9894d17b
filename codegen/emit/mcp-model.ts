// The MCP surface as data: tools in the declared order with their wire schemas, the resources, and the server
// instructions composed from spec text (spec/mcp.yaml plus each tool's `when`).
import type { JsonSchema, McpAnnotations, PromptArgumentForm, SpecModel } from '../spec/types.js';
import type { Contracts } from '../schemas/contracts.js';

/** The MIME type of every published schema the schema template serves. */
export const SCHEMA_MIME_TYPE = 'application/json';
/** The MIME type of the agent assets (instructions, skills): Markdown. */
export const AGENT_ASSET_MIME_TYPE = 'text/markdown';

export interface McpToolModel {
  verb: string;
  verbId: string;
  name: string;
  title: string;
  description: string;
  when: string;
  annotations: McpAnnotations;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  resultName: string;
  stability: 'stable' | 'evolving';
}

/** A resource as both the published manifest and the runtime table describe it. */
export interface McpResourceEntry {
  name: string;
  kind: 'resource' | 'template';
  uri: string;
  title: string;
  description: string;
  mimeType: string;
  tool: string;
}

export interface McpResourceModel extends McpResourceEntry {
  verb: string;
  /** The verb's camelCase id, as the runtime registry keys it. */
  verbId: string;
  reads: string;
}

export function orderedTools(model: SpecModel, contracts: Contracts): McpToolModel[] {
  const tools: McpToolModel[] = [];
  for (const verbName of model.mcp.tool_order) {
    const contract = contracts.verbs.find((c) => c.verb.spec.verb === verbName);
    const mcp = contract?.verb.spec.mcp;
    if (!contract || !mcp) continue;
    tools.push({
      verb: verbName,
      verbId: contract.verb.id,
      name: mcp.name,
      title: mcp.title,
      description: mcp.description,
      when: mcp.when,
      annotations: mcp.annotations,
      inputSchema: contract.wireInput,
      outputSchema: contract.wireOutput,
      resultName: contract.resultName,
      stability: contract.verb.spec.stability,
    });
  }
  return tools;
}

export function mcpResources(model: SpecModel): McpResourceModel[] {
  return model.verbs.flatMap((verb) =>
    (verb.spec.resources ?? []).map((r) => ({
      verb: verb.spec.verb,
      verbId: verb.id,
      name: r.name,
      kind: r.kind,
      uri: r.uri,
      title: r.title,
      description: r.description,
      mimeType: r.mime_type,
      tool: verb.spec.mcp?.name ?? '',
      reads: r.reads,
    })),
  );
}

/** A prompt as the runtime table and the published manifest describe it. */
export interface McpPromptEntry {
  name: string;
  title: string;
  description: string;
  arguments: { name: string; description: string; required: boolean; form: PromptArgumentForm }[];
  /** src/surfaces/mcp/prompts/<builder>.ts */
  builder: string;
  /** Published schema names attached as embedded resources. */
  attach: string[];
  ask: string;
  /** Said instead of ask when the live state gives the prompt nothing to work on. */
  empty?: string;
  /** The worked example discern.toml, for prompts that show one. */
  example?: string;
}

export function promptEntries(model: SpecModel): McpPromptEntry[] {
  return model.prompts.map(({ spec, example }) => ({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    arguments: spec.arguments.map((a) => ({
      name: a.name,
      description: a.description,
      required: a.required,
      form: a.form,
    })),
    builder: spec.builder,
    attach: spec.attach ?? [],
    ask: spec.ask.trim(),
    ...(spec.empty !== undefined ? { empty: spec.empty.trim() } : {}),
    ...(example !== undefined ? { example } : {}),
  }));
}

/** One published schema as a resource of the schema template: discern://schema/<name> is schema/<file>. */
export interface McpSchemaEntry {
  name: string;
  file: string;
  uri: string;
  title: string;
  description: string;
}

/** schema/discern-<name>.schema.json and schema/discern-<name>.json are both discern://schema/<name>. */
export function schemaName(file: string): string {
  return file
    .replace(/^schema\//, '')
    .replace(/^discern-/, '')
    .replace(/(\.schema)?\.json$/, '');
}

/**
 * The schemas schema/ holds, by name, from the artifacts' texts (the manifest's own entry is given, since the
 * manifest lists the schemas and so is written after them). Each title and description comes from the schema
 * itself where it has them.
 */
export function schemaEntries(model: SpecModel, texts: ReadonlyMap<string, string>): McpSchemaEntry[] {
  const template = model.mcp.schemas.uri;
  return [...texts.entries()]
    .filter(([path]) => path.startsWith('schema/'))
    .map(([path, text]) => {
      const file = path.slice('schema/'.length);
      const name = schemaName(path);
      let parsed: Record<string, unknown> = {};
      try {
        parsed = JSON.parse(text) as Record<string, unknown>;
      } catch {
        // The manifest is listed before it is written: described by spec/mcp.yaml schemas.untitled.
      }
      const untitled = model.mcp.schemas.untitled?.[name];
      const title = typeof parsed['title'] === 'string' ? parsed['title'] : (untitled ?? file);
      const description =
        typeof parsed['description'] === 'string'
          ? parsed['description']
          : untitled !== undefined
            ? `${untitled}.`
            : `discern's published ${file}.`;
      return { name, file, uri: template.replace('{name}', name), title, description };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** `refine_config (draft, path?)`: a prompt and its arguments, optional ones marked. */
export function promptSignature(prompt: Pick<McpPromptEntry, 'name' | 'arguments'>): string {
  return `${prompt.name} (${prompt.arguments.map((a) => `${a.name}${a.required ? '' : '?'}`).join(', ')})`;
}

export function serverInstructions(model: SpecModel, contracts: Contracts, schemas: readonly McpSchemaEntry[]): string {
  const text = model.mcp.instructions;
  const tools = orderedTools(model, contracts);
  const toolNames = new Map(tools.map((t) => [t.verb, t.name]));
  const loop = model.mcp.work_loop.map((v) => `discern_${v}`).join(' → ');
  const present = model.mcp.work_loop.filter((v) => toolNames.has(v)).map((v) => toolNames.get(v) ?? v);
  const lines = [
    text.opening,
    '',
    text.discovery,
    ...tools.map((t, i) => `${i + 1}. ${t.name}: ${t.when}`),
    '',
    present.length > 0
      ? text.loop_present.replace('{loop}', loop).replace('{present}', present.join(', '))
      : text.loop_absent.replace('{loop}', loop),
    '',
    text.resources,
    ...mcpResources(model).map((r) => `- ${r.uri} = ${r.reads}.`),
    '',
    text.schemas.replace('{uri}', model.mcp.schemas.uri).replace('{names}', schemas.map((s) => s.name).join(', ')),
    '',
    text.prompts.replace('{prompts}', promptEntries(model).map(promptSignature).join('; ')),
    '',
    text.path,
    '',
    text.cli,
  ];
  return lines.join('\n');
}

export function resourceEntry(r: McpResourceModel): McpResourceEntry {
  return {
    name: r.name,
    kind: r.kind,
    uri: r.uri,
    title: r.title,
    description: r.description,
    mimeType: r.mimeType,
    tool: r.tool,
  };
}
