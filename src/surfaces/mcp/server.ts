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
import { aimFromRoots, checkoutsAmong } from './roots.js';
import { idleCollector } from './idle-collect.js';
import type { RawArguments } from './raw-arguments.js';
import { declaresFormElicitation, elicitingPerson } from './elicit-person.js';
import { resourceListWatch } from './resource-list-watch.js';

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
  /** Started outside any checkout: aim at the checkout the client's roots hold (roots.ts). */
  followRoots?: boolean;
  /** Several checkouts among the roots: a call without `path` must choose one of these. */
  choices?: string[];
  /** Settles once the roots asked for last have been read, so no call runs on the aim before them. */
  ready?: Promise<void>;
  /** A start or accept re-aimed the server: the roots no longer decide where it aims. */
  moved?: boolean;
  /** Counts the roots listings asked for: only the newest one's answer is applied. */
  rootsAsked?: number;
}

/** Asks the client for its roots and aims where they say; a client that cannot answer leaves the aim as it is. */
async function aimAtRoots(server: McpServer, state: ServerState): Promise<void> {
  if (server.server.getClientCapabilities()?.roots === undefined) return;
  const asked = (state.rootsAsked = (state.rootsAsked ?? 0) + 1);
  let uris: string[];
  try {
    uris = (await server.server.listRoots(undefined, { timeout: ROOTS_TIMEOUT_MS })).roots.map((r) => r.uri);
  } catch {
    return;
  }
  // A list_changed while this listing was under way asked again: that answer is the newer one.
  if (state.moved === true || asked !== state.rootsAsked) return;
  const aim = aimFromRoots(checkoutsAmong(uris));
  if (aim.kind === 'target') {
    state.target = aim.target;
    delete state.choices;
  } else if (aim.kind === 'choose') state.choices = aim.choices;
  else delete state.choices;
}

/** How long the server waits for the client's roots before it goes on with the aim it has. */
const ROOTS_TIMEOUT_MS = 10_000;

export function createServer(state: ServerState): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER.name, title: MCP_SERVER.title, version: MCP_SERVER.version },
    // The tools and prompts never change while the server runs; the resource list does (resource-list-watch.ts).
    {
      instructions: MCP_INSTRUCTIONS,
      capabilities: {
        tools: { listChanged: false },
        resources: { listChanged: true },
        prompts: { listChanged: false },
      },
    },
  );
  const compact = idleCollector(() => (state.inflight?.size ?? 0) > 0);
  const mapPages = TEMPLATE_LISTS['map-page'];
  const resources = resourceListWatch(
    async () =>
      mapPages === undefined
        ? []
        : mapPages({
            surface: 'mcp',
            defaultTarget: state.target,
            env: state.env,
            signal: state.closing ?? new AbortController().signal,
            // A look at the map for the client's list, not a call anyone made.
            logbook: false,
          }),
    // The Protocol's own send returns its promise (McpServer's drops it), so a closed transport is caught here.
    () => server.server.sendResourceListChanged(),
  );
  const follow = (): void => {
    state.ready = aimAtRoots(server, state);
  };
  server.server.oninitialized = () => {
    if (state.followRoots === true) follow();
    // The list as the client first finds it: later checks compare against it.
    void Promise.resolve(state.ready).then(() => resources.check());
  };
  if (state.followRoots === true) {
    server.server.setNotificationHandler('notifications/roots/list_changed', () => {
      if (state.moved !== true) follow();
    });
  }
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
        await state.ready;
        const signal = state.closing ? AbortSignal.any([ctx.mcpReq.signal, state.closing]) : ctx.mcpReq.signal;
        const notifier = progressNotifier(
          ctx.mcpReq._meta?.progressToken,
          (notification) => ctx.mcpReq.notify(notification),
          ctx.mcpReq.signal,
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
          ...(state.choices ? { targetChoices: state.choices } : {}),
        };
        const input = state.rawArguments ? state.rawArguments.take(ctx.mcpReq.id, args) : args;
        const running = invoke(tool.verb, input, options);
        state.inflight?.add(running);
        try {
          const result = await running;
          const next = nextTarget(result, state.target);
          if (next !== state.target) {
            // start or accept chose the aim: the roots no longer decide it, and there is nothing left to choose.
            state.target = next;
            state.moved = true;
            delete state.choices;
          }
          const delivered = faultRequested(state.env, `result:${tool.verb}`)
            ? ({ ...result, injected_fault: true } as unknown as typeof result)
            : result;
          return await toolResult(await checkedResult(tool.verb, delivered, state.target));
        } finally {
          notifier?.stop();
          state.inflight?.delete(running);
          compact.settled();
          resources.check();
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
      server.registerResource(resource.name, resource.uri, metadata, async (uri, ctx) => {
        await state.ready;
        return read(uri, {}, options(ctx.mcpReq.signal));
      });
    } else {
      const lister = TEMPLATE_LISTS[resource.name as keyof typeof TEMPLATE_LISTS];
      const template = new ResourceTemplate(resource.uri, {
        list: lister
          ? async (ctx) => {
              await state.ready;
              return { resources: await lister(options(ctx.mcpReq.signal)) };
            }
          : undefined,
      });
      server.registerResource(resource.name, template, metadata, async (uri, variables, ctx) => {
        await state.ready;
        return read(uri, variables, options(ctx.mcpReq.signal));
      });
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
