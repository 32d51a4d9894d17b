// What a prompt builder works from: the checkout the prompt is for (its `path` argument, else the server's
// current checkout), the environment, and helpers shared by the builders. A path that is not a usable checkout
// is the caller's to fix, so it is an invalid-params error naming the argument.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ProtocolError, ProtocolErrorCode, type GetPromptResult } from '@modelcontextprotocol/server';
import type { McpPromptEntry } from '../../../../generated/mcp-table.js';
import { findCheckout, type Checkout } from '../../../engine/project/resolve.js';
import type { InvokeOptions } from '../../../verbs/invoke.js';
import type { PromptArguments } from './args.js';

export interface PromptContext {
  prompt: McpPromptEntry;
  args: PromptArguments;
  /** The absolute path the prompt is for: its `path` argument, or the server's current checkout. */
  target: string;
  env: Readonly<Record<string, string | undefined>>;
  signal: AbortSignal;
  /** For the verbs a builder calls through invoke(), as a tool call would. */
  invokeOptions: InvokeOptions;
  /** A published schema's exact text, for attachments. */
  schemaText: (name: string) => Promise<string | undefined>;
}

export type PromptBuilder = (ctx: PromptContext) => Promise<GetPromptResult>;

export async function checkoutOf(ctx: PromptContext): Promise<Checkout> {
  const argument = ctx.args['path'] !== undefined ? '`path`' : "the server's checkout";
  const exists = await stat(ctx.target).then(
    () => true,
    () => false,
  );
  if (!exists) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${argument} ${ctx.target} does not exist.`);
  const found = await findCheckout(ctx.target, ctx.env, ctx.signal);
  if (!found.ok)
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `${argument}: ${found.message}${found.reason === 'not-a-checkout' ? ' Pass `path`, an absolute path inside a git checkout.' : ''}`,
    );
  return found.checkout;
}

/** <git-common-dir>/discern: where the journal lives, shared by every worktree. */
export function repositoryStateDir(checkout: Checkout): string {
  return join(checkout.commonDir, 'discern');
}

/** The prompt as one user message of Markdown, then each attached schema as an embedded resource. */
export async function promptResult(
  ctx: PromptContext,
  sections: readonly (string | undefined | false)[],
  closing: string = ctx.prompt.ask,
): Promise<GetPromptResult> {
  const text = `${[...sections, `## What to do\n\n${closing}`]
    .filter((s): s is string => typeof s === 'string' && s.length > 0)
    .map((s) => s.replace(/\n+$/, ''))
    .join('\n\n')}\n`;
  const messages: GetPromptResult['messages'] = [{ role: 'user', content: { type: 'text', text } }];
  for (const name of ctx.prompt.attach) {
    const schema = await ctx.schemaText(name);
    if (schema !== undefined)
      messages.push({
        role: 'user',
        content: {
          type: 'resource',
          resource: { uri: `discern://schema/${name}`, mimeType: 'application/json', text: schema },
        },
      });
  }
  return { description: ctx.prompt.description, messages };
}

/** A fenced block that no backtick run inside the text can close. */
export function fenced(text: string, language = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${language}\n${text.replace(/\n$/, '')}\n${ticks}`;
}

export function code(text: string): string {
  return text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``;
}
