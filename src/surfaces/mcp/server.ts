// The MCP server, built entirely from the generated table: every tool with its title, strict 2020-12
// inputSchema, outputSchema covering ok and failure envelopes, and all four annotations; every resource and the
// published schemas; every prompt with its arguments; the generated instructions. Calls run through the same
// invoke() as the CLI.
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import {
  MCP_AGENT_ASSETS,
  MCP_INSTRUCTIONS,
  MCP_RESOURCES,
  MCP_SCHEMA_TEMPLATE,
  MCP_SERVER,
  MCP_TOOLS,
} from '../../../generated/mcp-table.js';
import { invoke, type InvokeOptions } from '../../verbs/invoke.js';
import { faultRequested } from '../../engine/faults.js';
import { advertised } from './standard-schema.js';
import { checkedResult, toolResult } from './tool-result.js';
import {
  readInstructions,
  readSchema,
  readSkill,
  RESOURCE_READERS,
  schemaList,
  schemaText,
  skillList,
  TEMPLATE_LISTS,
} from './resources.js';
import { registerPrompts } from './prompts/index.js';
import { progressNotifier } from './progress.js';
import { nextTarget } from './reaim.js';
import { idleCollector } from './idle-collect.js';
import type { RawArguments } from './raw-arguments.js';
import { declaresFormElicitation, elicitingPerson } from './elicit-person.js';

export interface ServerState {
  /** The checkout calls without `path` aim at. */
  target: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Aborted when the transport closes: every running call is cancelled, as if its client had cancelled it. */
  closing?: AbortSignal;
  /** Calls still running, so shutdown can let them record their cancellation before the process exits. */
  inflight?: Set<Promise<unknown>>;
  /** Arguments the SDK's parse dropped a key from, as they arrived (see raw-arguments.ts). */
  rawArguments?: RawArguments;
}

export function createServer(state: ServerState): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER.name, title: MCP_SERVER.title, version: MCP_SERVER.version },
    // The prompt list never changes while the server runs.
    { instructions: MCP_INSTRUCTIONS, capabilities: { tools: {}, resources: {}, prompts: { listChanged: false } } },
  );
  const compact = idleCollector(() => (state.inflight?.size ?? 0) > 0);
  for (const tool of MCP_TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        annotations: tool.annotations,
        inputSchema: advertised(tool.inputSchema),
        outputSchema: advertised(tool.outputSchema),
      },
      async (args, ctx) => {
        const signal = state.closing ? AbortSignal.any([ctx.mcpReq.signal, state.closing]) : ctx.mcpReq.signal;
        const notifier = progressNotifier(ctx.mcpReq._meta?.progressToken, (notification) =>
          ctx.mcpReq.notify(notification),
        );
        const client = server.server.getClientVersion()?.name;
        const person = declaresFormElicitation(server.server.getClientCapabilities())
          ? elicitingPerson((params, o) => ctx.mcpReq.elicitInput(params, o), server.server.getClientVersion(), signal)
          : undefined;
        const options: InvokeOptions = {
          surface: 'mcp',
          defaultTarget: state.target,
          env: state.env,
          signal,
          ...(notifier ? { progress: notifier.progress } : {}),
          ...(client !== undefined ? { client } : {}),
          ...(person ? { person } : {}),
        };
        const input = state.rawArguments ? state.rawArguments.take(ctx.mcpReq.id, args) : args;
        const running = invoke(tool.verb, input, options);
        state.inflight?.add(running);
        try {
          const result = await running;
          state.target = nextTarget(result, state.target);
          const delivered = faultRequested(state.env, `result:${tool.verb}`)
            ? ({ ...result, injected_fault: true } as unknown as typeof result)
            : result;
          return await toolResult(await checkedResult(tool.verb, delivered, state.target));
        } finally {
          notifier?.stop();
          state.inflight?.delete(running);
          compact.settled();
        }
      },
    );
  }
  for (const resource of MCP_RESOURCES) {
    const read = RESOURCE_READERS[resource.name as keyof typeof RESOURCE_READERS];
    const metadata = { title: resource.title, description: resource.description, mimeType: resource.mimeType };
    const options = (signal: AbortSignal): InvokeOptions => ({
      surface: 'mcp',
      defaultTarget: state.target,
      env: state.env,
      signal,
    });
    if (resource.kind === 'resource') {
      server.registerResource(resource.name, resource.uri, metadata, (uri, ctx) =>
        read(uri, {}, options(ctx.mcpReq.signal)),
      );
    } else {
      const lister = TEMPLATE_LISTS[resource.name as keyof typeof TEMPLATE_LISTS];
      const template = new ResourceTemplate(resource.uri, {
        list: lister ? async (ctx) => ({ resources: await lister(options(ctx.mcpReq.signal)) }) : undefined,
      });
      server.registerResource(resource.name, template, metadata, (uri, variables, ctx) =>
        read(uri, variables, options(ctx.mcpReq.signal)),
      );
    }
  }
  const schemas = MCP_SCHEMA_TEMPLATE;
  server.registerResource(
    schemas.name,
    new ResourceTemplate(schemas.uri, { list: async () => ({ resources: schemaList() }) }),
    { title: schemas.title, description: schemas.description, mimeType: schemas.mimeType },
    (uri, variables) => readSchema(uri, variables),
  );
  const assets = MCP_AGENT_ASSETS;
  server.registerResource(
    assets.instructions.name,
    assets.instructions.uri,
    {
      title: assets.instructions.title,
      description: assets.instructions.description,
      mimeType: assets.instructions.mimeType,
    },
    (uri) => readInstructions(uri),
  );
  server.registerResource(
    assets.skills.name,
    new ResourceTemplate(assets.skills.uri, { list: async () => ({ resources: await skillList() }) }),
    { title: assets.skills.title, description: assets.skills.description, mimeType: assets.skills.mimeType },
    (uri, variables) => readSkill(uri, variables),
  );
  registerPrompts(server, {
    target: () => state.target,
    env: state.env,
    options: (signal) => ({
      surface: 'mcp',
      defaultTarget: state.target,
      env: state.env,
      signal: state.closing ? AbortSignal.any([signal, state.closing]) : signal,
    }),
    schemaText,
  });
  return server;
}
