// The prompts, built from the generated table (spec/prompts/*.yaml): each is registered with its title,
// description and arguments, and filled by its builder from the repository's live state when requested.
import { ProtocolError, ProtocolErrorCode, type McpServer } from '@modelcontextprotocol/server';
import { writeCrashRecord } from '../../../engine/crash/record.js';
import { MCP_PROMPTS, type McpPromptBuilder } from '../../../../generated/mcp-table.js';
import type { InvokeOptions } from '../../../verbs/invoke.js';
import { promptArguments } from './args.js';
import type { PromptBuilder } from './context.js';
import { diagnoseFailurePrompt } from './diagnose-failure.js';
import { draftConfigPrompt } from './draft-config.js';
import { landChangePrompt } from './land-change.js';
import { refineConfigPrompt } from './refine-config.js';

/** One builder per spec `builder`: a prompt whose builder is missing is a compile error. */
export const PROMPT_BUILDERS: Readonly<Record<McpPromptBuilder, PromptBuilder>> = {
  'draft-config': draftConfigPrompt,
  'refine-config': refineConfigPrompt,
  'land-change': landChangePrompt,
  'diagnose-failure': diagnoseFailurePrompt,
};

export interface PromptHost {
  /** The server's current checkout, for prompts without `path`. */
  target: () => string;
  env: Readonly<Record<string, string | undefined>>;
  options: (signal: AbortSignal) => InvokeOptions;
  schemaText: (name: string) => Promise<string | undefined>;
}

export function registerPrompts(server: McpServer, host: PromptHost): void {
  for (const prompt of MCP_PROMPTS) {
    const build = PROMPT_BUILDERS[prompt.builder];
    server.registerPrompt(
      prompt.name,
      { title: prompt.title, description: prompt.description, argsSchema: promptArguments(prompt) },
      async (args, ctx) => {
        const signal = ctx.mcpReq.signal;
        const target = args['path'] ?? host.target();
        try {
          return await build({
            prompt,
            args,
            target,
            env: host.env,
            signal,
            invokeOptions: host.options(signal),
            schemaText: host.schemaText,
          });
        } catch (error) {
          if (error instanceof ProtocolError || signal.aborted) throw error;
          // A builder that breaks is a discern bug: recorded as a tool crash is, and answered as an internal error.
          const record = writeCrashRecord({ verb: `prompt ${prompt.name}`, target, surface: 'mcp', error });
          throw new ProtocolError(
            ProtocolErrorCode.InternalError,
            `discern failed unexpectedly filling ${prompt.name}: ${error instanceof Error ? error.message : String(error)}. This is a discern bug: the crash record is at ${record}.`,
          );
        }
      },
    );
  }
}
