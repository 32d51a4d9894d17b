// help: describes commands from the generated grammar. Its data is the grammar itself (or one command of
// it), so what it says is exactly what the CLI accepts.
import { CLI_GRAMMAR } from '../../generated/cli-grammar.js';
import type { HelpOutcome } from '../../generated/handlers.js';
import type { DiscernHelpInput } from '../../generated/types.js';
import { closestCommands, findCommand, findGroup, renamedFrom, renamedMessage } from '../engine/grammar/lookup.js';
import type { VerbContext } from './context.js';

export async function help(input: DiscernHelpInput, _ctx: VerbContext): Promise<HelpOutcome> {
  const words = input.command ?? [];
  if (words.length === 0) return { data: CLI_GRAMMAR };
  const found = findCommand(words);
  if (found && found.consumed === words.length) return { data: { command: found.command } };
  const group = findGroup(words);
  if (group) return { data: group };
  const renamed = renamedFrom(words);
  if (renamed)
    return {
      data: { query: words, suggestions: [renamed.to.join(' ')] },
      refusal: { error: 'renamed_command', message: renamedMessage(renamed), next: { command: renamed.to.join(' ') } },
    };
  const suggestions = closestCommands(words);
  return {
    data: { query: words, suggestions },
    refusal: {
      error: 'unknown_command',
      message: `"${words.join(' ')}" is not a discern command.${suggestions.length > 0 ? ` Closest: ${suggestions.map((s) => `\`discern ${s}\``).join(', ')}.` : ''}`,
      next: {},
    },
  };
}
