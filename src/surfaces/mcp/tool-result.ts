// Packages an envelope as an MCP tool result — authored Markdown in content[0].text, the envelope in
// structuredContent, isError = !ok — after validating it against the verb's published result schema. A
// result that fails its own schema is never sent: it becomes internal_error with a crash record.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { RESULT_VALIDATORS } from '../../../generated/validator-loaders.js';
import { VERBS, type VerbId } from '../../../generated/registry.js';
import type { DiscernResult } from '../../../generated/types.js';
import { buildEnvelope } from '../../core/envelope.js';
import { writeCrashRecord } from '../../engine/crash/record.js';

type ResultValidator = Awaited<ReturnType<(typeof RESULT_VALIDATORS)[VerbId]>>;
type Markdown = typeof import('../../render/markdown/index.js');

// Loaded once and kept: a warm server's call then costs no import() (about 10 µs each on Node 20), and only a
// module that did load is kept, so a failed load is retried by the next call as before.
const loadedValidators = new Map<VerbId, ResultValidator>();
let loadedMarkdown: Markdown | undefined;

export async function checkedResult(verb: VerbId, result: DiscernResult, target: string): Promise<DiscernResult> {
  let validate = loadedValidators.get(verb);
  if (validate === undefined) {
    validate = await RESULT_VALIDATORS[verb]();
    loadedValidators.set(verb, validate);
  }
  if (validate(result)) return result;
  const problem = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`).join('; ');
  const record = writeCrashRecord({
    verb: VERBS[verb].verb,
    target,
    surface: 'mcp',
    error: new Error(`result failed its schema: ${problem}`),
  });
  return buildEnvelope(
    { verb: VERBS[verb].verb, policy: VERBS[verb].policy },
    {
      refusal: {
        error: 'internal_error',
        message: 'discern produced a result that does not match its own schema.',
        next: { record },
      },
    },
  );
}

/** The presentations (every verb's parsed template) load with the first tool call, not with the server's start. */
export async function toolResult(result: DiscernResult): Promise<CallToolResult> {
  loadedMarkdown ??= await import('../../render/markdown/index.js');
  const { renderMarkdown } = loadedMarkdown;
  return {
    content: [{ type: 'text', text: renderMarkdown(result) }],
    structuredContent: result as unknown as Record<string, unknown>,
    isError: !result.ok,
  };
}
