// `discern hook session-start`: the context a coding agent's session starts with. Claude Code runs it from
// .claude/settings.json, and VS Code reads the same file and parses the hook's stdout as JSON, so the output is
// the JSON both take: status's Markdown as `hookSpecificOutput.additionalContext`. It exits 0 whatever status
// answers (a refusal is context too), so a session always starts; only a failure to write is not 0.
import type { InvokeOptions } from '../../verbs/invoke.js';
import { invoke } from '../../verbs/invoke.js';
import { EXIT } from './exit-codes.js';
import { present } from './present.js';

/** The JSON a SessionStart hook prints: Claude Code's documented shape, which VS Code and Gemini CLI accept. */
export function sessionStartOutput(markdown: string): string {
  const output = { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: markdown } };
  return `${JSON.stringify(output)}\n`;
}

export async function sessionStartHook(options: InvokeOptions): Promise<number> {
  const result = await invoke('status', {}, options);
  const markdown = await present(result, 'markdown');
  return await new Promise<number>((resolve) => {
    process.stdout.write(sessionStartOutput(markdown.trimEnd()), (error) => resolve(error ? EXIT.failure : EXIT.ok));
  });
}
