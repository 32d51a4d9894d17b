// Drives a verb in-process through the same invoke() the surfaces use, and checks what every result must
// satisfy: its published schema definition, the root schema, and a Markdown presentation that ends with the
// registered next action when it failed. Records which outcomes each verb was driven through.
import assert from 'node:assert/strict';
import type { VerbId } from '../../generated/registry.js';
import type { DiscernResult } from '../../generated/types.js';
import { invoke } from '../../src/verbs/invoke.js';
import type { PersonChannel } from '../../src/verbs/context.js';
import { renderMarkdown } from '../../src/render/markdown/index.js';
import { assertPublishedResult, resultValidator } from './published-schema.js';
import { cleanEnv } from './scratch-repo.js';
import { recordingSequence, recordPresentation } from './presentation-fixtures.js';

export const covered = new Map<string, Set<string>>();

export async function call(
  id: VerbId,
  input: unknown,
  target: string,
  env: Record<string, string> = {},
  surface: 'cli' | 'mcp' = 'mcp',
  /** A way to ask the person, as a surface would pass it (the CLI's terminal, a client's elicitation). */
  person?: PersonChannel,
): Promise<DiscernResult> {
  const started = recordingSequence();
  const result = await invoke(id, input, {
    surface,
    defaultTarget: target,
    env: cleanEnv(env),
    signal: new AbortController().signal,
    ...(person ? { person } : {}),
  });
  const definition = `Discern${id.charAt(0).toUpperCase()}${id.slice(1)}Result`;
  const validate = resultValidator(definition);
  assert.ok(
    validate(result),
    `${definition}: ${JSON.stringify(validate.errors, null, 2)}\n${JSON.stringify(result, null, 2)}`,
  );
  assertPublishedResult(result);
  const markdown = renderMarkdown(result);
  if (!result.ok) {
    const next = result.hints[result.hints.length - 1] ?? '';
    assert.ok(markdown.trimEnd().endsWith(next), `Markdown ends with the next action:\n${markdown}`);
  }
  recordPresentation(result, target, started);
  const set = covered.get(id) ?? new Set<string>();
  set.add(result.ok ? 'ok' : String(result.error));
  covered.set(id, set);
  return result;
}

/** The owner at an interactive terminal, for calls whose guard is that one exists (`accept --grant`). */
export const AT_A_TERMINAL: PersonChannel = { via: 'terminal', ask: () => Promise.resolve('declined') };

/** Each verb was driven through at least one success and one failure. */
export function assertDriven(ids: readonly string[]): void {
  for (const id of ids) {
    const seen = covered.get(id) ?? new Set();
    assert.ok(seen.has('ok'), `${id} never succeeded`);
    assert.ok(
      [...seen].some((s) => s !== 'ok'),
      `${id} never failed`,
    );
  }
}
