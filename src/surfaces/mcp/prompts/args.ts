// A prompt's arguments as the SDK takes them: a Standard Schema whose JSON Schema is the generated one (so
// prompts/list lists each argument with its description and whether it is required) and whose validate checks
// the arguments itself. The SDK answers a failed check with an invalid-params protocol error carrying our
// message, before the builder runs: a prompt called without a required argument is refused by name, never a
// crash inside a builder. Every argument is a string; an empty optional one counts as absent (some clients
// send every declared argument).
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { McpPromptEntry } from '../../../../generated/mcp-table.js';

export type PromptArguments = Readonly<Record<string, string>>;

const ABSOLUTE = /^(?:\/|[A-Za-z]:[\\/]|\\\\)[^\u0000]*$/;
const HANDLE = /^R1-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{2}$/;
const MAX_TEXT = 262144;

export function promptArguments(prompt: McpPromptEntry): StandardSchemaWithJSON<PromptArguments> {
  return {
    '~standard': {
      version: 1,
      vendor: 'discern',
      validate: (value: unknown) => {
        const problems = argumentProblems(prompt, value);
        if (problems.length > 0) return { issues: problems.map((message) => ({ message })) };
        return { value: presentArguments(value) };
      },
      jsonSchema: {
        input: () => prompt.argsSchema,
        output: () => prompt.argsSchema,
      },
    },
  };
}

/** Every reason the arguments do not fit, each naming its argument. */
export function argumentProblems(prompt: McpPromptEntry, value: unknown): string[] {
  if (value !== undefined && (value === null || typeof value !== 'object' || Array.isArray(value)))
    return ['the arguments must be an object of strings'];
  const given = (value ?? {}) as Record<string, unknown>;
  const problems: string[] = [];
  const declared = prompt.arguments.map((a) => a.name);
  for (const key of Object.keys(given)) {
    if (!declared.includes(key))
      problems.push(
        `\`${key}\` is not an argument of ${prompt.name} (${declared.length > 0 ? `it takes ${declared.map((d) => `\`${d}\``).join(', ')}` : 'it takes none'})`,
      );
  }
  for (const argument of prompt.arguments) {
    const raw = given[argument.name];
    if (raw === undefined || raw === '') {
      if (argument.required)
        problems.push(`the argument \`${argument.name}\` is required (${argument.description.replace(/\.$/, '')})`);
      continue;
    }
    if (typeof raw !== 'string') {
      problems.push(`\`${argument.name}\` must be a string`);
      continue;
    }
    if (argument.form === 'absolute-path' && (!ABSOLUTE.test(raw) || raw.length > 4096))
      problems.push(`\`${argument.name}\` must be an absolute path; "${raw.slice(0, 200)}" is not`);
    if (argument.form === 'handle' && !HANDLE.test(raw))
      problems.push(
        `\`${argument.name}\` must be a progress handle such as R1-KW01-XP89-AX; "${raw.slice(0, 64)}" is not`,
      );
    if (argument.form === 'text' && raw.length > MAX_TEXT)
      problems.push(`\`${argument.name}\` has ${raw.length} characters; at most ${MAX_TEXT} are accepted`);
  }
  return problems;
}

function presentArguments(value: unknown): PromptArguments {
  const given = (value ?? {}) as Record<string, string>;
  return Object.fromEntries(Object.entries(given).filter(([, v]) => v !== ''));
}
