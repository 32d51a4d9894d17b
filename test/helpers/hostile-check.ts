// One hostile call over MCP and what its answer must be (docs/decisions/0035): arguments the published
// inputSchema rejects get an invalid_arguments envelope; any other object gets a classified envelope that is
// not internal_error; arguments that are not an object at all get the protocol's invalid-params error. Every
// envelope validates against the tool's published result schema, isError is !ok, content[0] is non-empty
// Markdown with no stack trace. A call that does not answer within the timeout is a hang.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { Client } from '@modelcontextprotocol/client';
import { resultValidator } from './published-schema.js';
import type { HostileCase } from './hostile-values.js';

/** A line of a V8 stack trace: "    at fn (file:line:col)". */
export const STACK_LINE = /\n\s+at [^\n]*:\d+:\d+\)?/;

const ajv = new Ajv2020({ strict: false, allErrors: false });

export interface ToolUnderTest {
  name: string;
  /** The published validator for the tool's inputSchema (from tools/list). */
  accepts: ValidateFunction;
  /** The published validator for the tool's result. */
  result: ValidateFunction;
  /** Checks whose text may quote a file the caller named by absolute path (validate_config reads any file). */
  mayQuoteFiles: boolean;
}

export function toolUnderTest(name: string, verb: string, inputSchema: Record<string, unknown>): ToolUnderTest {
  return {
    name,
    accepts: ajv.compile(inputSchema),
    result: resultValidator(`Discern${verb.charAt(0).toUpperCase()}${verb.slice(1)}McpToolResult`),
    mayQuoteFiles: name === 'discern_validate_config',
  };
}

type ToolResult = {
  content?: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

export interface Verdict {
  /** ok, the error slug, or how the protocol answered. */
  outcome: string;
  /** The envelope's message (or the protocol error's), for tracing a run. */
  message: string;
  /** What is wrong with the answer; absent when it is as it must be. */
  problem?: string;
}

/** Calls one case and judges the answer. */
export async function checkCase(
  client: Client,
  tool: ToolUnderTest,
  c: HostileCase,
  options: { timeoutMs: number; secret: string },
): Promise<Verdict> {
  let outcome = 'no answer';
  let message = '';
  const problem = await judge(client, tool, c, options, (o, m) => {
    outcome = o;
    message = m;
  });
  return problem === undefined ? { outcome, message } : { outcome, message, problem };
}

async function judge(
  client: Client,
  tool: ToolUnderTest,
  c: HostileCase,
  options: { timeoutMs: number; secret: string },
  saw: (outcome: string, message: string) => void,
): Promise<string | undefined> {
  const isObject = typeof c.args === 'object' && c.args !== null && !Array.isArray(c.args);
  let answer: ToolResult;
  try {
    const params = { name: tool.name, arguments: c.args as Record<string, unknown> };
    // The raw request: callTool would refuse non-object arguments on the client side before sending them.
    answer = (await client.request({ method: 'tools/call', params }, { timeout: options.timeoutMs })) as ToolResult;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const code = (error as { code?: unknown }).code;
    saw(`protocol ${String(code)}`, message);
    if (/timed out|timeout/i.test(message)) return `no answer within ${options.timeoutMs} ms (a hang)`;
    if (!isObject && code === -32602) return undefined;
    return `the call failed at the protocol level (${String(code)}): ${message.slice(0, 300)}`;
  }
  if (!isObject) return `non-object arguments were answered as a tool result: ${JSON.stringify(answer).slice(0, 300)}`;
  const envelope = answer.structuredContent;
  saw(envelope?.['ok'] === true ? 'ok' : String(envelope?.['error']), String(envelope?.['message'] ?? ''));
  if (envelope === undefined) return `no structuredContent: ${JSON.stringify(answer).slice(0, 300)}`;
  if (!tool.result(envelope))
    return `structuredContent does not match the published result schema: ${JSON.stringify(tool.result.errors?.slice(0, 3))}`;
  if (answer.isError !== (envelope['ok'] !== true))
    return `isError is ${String(answer.isError)} but ok is ${String(envelope['ok'])}`;
  const text = answer.content?.[0]?.type === 'text' ? (answer.content[0].text ?? '') : '';
  if (text.trim() === '') return 'content[0] is not non-empty text';
  // The envelope's strings with their newlines back, so a stack inside any field shows as one.
  if (STACK_LINE.test(text) || STACK_LINE.test(JSON.stringify(envelope).replace(/\\n/g, '\n')))
    return 'the answer carries a stack trace';
  if (!tool.mayQuoteFiles && (text.includes(options.secret) || JSON.stringify(envelope).includes(options.secret)))
    return 'the answer quotes the sentinel outside the project';
  const error = envelope['error'];
  if (error === 'internal_error') return `internal_error: ${String(envelope['message']).slice(0, 300)}`;
  const schemaValid = tool.accepts(c.args);
  if (!schemaValid && error !== 'invalid_arguments')
    return `arguments the published inputSchema rejects were answered with ${String(error ?? 'ok')} instead of invalid_arguments`;
  return undefined;
}
