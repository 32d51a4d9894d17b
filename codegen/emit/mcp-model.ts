// The MCP surface as data: tools in the declared order with their wire schemas, the resources, and the server
// instructions composed from spec text (spec/mcp.yaml plus each tool's `when`).
import type { JsonSchema, McpAnnotations, SpecModel } from '../spec/types.js';
import type { Contracts } from '../schemas/contracts.js';

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

export function serverInstructions(model: SpecModel, contracts: Contracts): string {
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
    present.length > 0 ? text.loop_present.replace('{loop}', loop).replace('{present}', present.join(', ')) : text.loop_absent.replace('{loop}', loop),
    '',
    text.resources,
    ...mcpResources(model).map((r) => `- ${r.uri} = ${r.reads}.`),
    '',
    text.path,
    '',
    text.cli,
  ];
  return lines.join('\n');
}

export function resourceEntry(r: McpResourceModel): McpResourceEntry {
  return { name: r.name, kind: r.kind, uri: r.uri, title: r.title, description: r.description, mimeType: r.mimeType, tool: r.tool };
}
