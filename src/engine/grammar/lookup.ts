// Looks commands up in the generated CLI grammar: the longest command path (or alias) that argv starts with,
// and the closest command paths to words that name none.
import { CLI_GRAMMAR } from '../../../generated/cli-grammar.js';
import type { DiscernHelpCliCommand, DiscernHelpCliGroup } from '../../../generated/types.js';
import { editDistance } from '../search/edit-distance.js';

export interface FoundCommand {
  command: DiscernHelpCliCommand;
  /** How many leading words named it. */
  consumed: number;
}

/** Every spelling of every command: its path and, per alias, the path with the alias as its last word. */
function spellings(command: DiscernHelpCliCommand): string[][] {
  return [command.path, ...command.aliases.map((alias) => [...command.path.slice(0, -1), alias])];
}

export function findCommand(words: readonly string[]): FoundCommand | undefined {
  let best: FoundCommand | undefined;
  for (const command of CLI_GRAMMAR.commands) {
    for (const path of spellings(command)) {
      if (path.length > words.length || (best && path.length <= best.consumed)) continue;
      if (path.every((w, i) => words[i] === w)) best = { command, consumed: path.length };
    }
  }
  return best;
}

/** The command group the words name exactly (`setup`, `config`, …), with each command it begins. */
export function findGroup(
  words: readonly string[],
): { group: DiscernHelpCliGroup; commands: DiscernHelpCliCommand[] } | undefined {
  const group = CLI_GRAMMAR.groups.find(
    (g) => g.path.length === words.length && g.path.every((w, i) => words[i] === w),
  );
  if (group === undefined) return undefined;
  const paths = new Set(group.commands.map((c) => c.join(' ')));
  return { group, commands: CLI_GRAMMAR.commands.filter((c) => paths.has(c.path.join(' '))) };
}

/**
 * The visible commands the words begin (`setup` → every `setup …` command, in order), or else up to three
 * command paths closest to them, best first.
 */
export function closestCommands(words: readonly string[]): string[] {
  const group = CLI_GRAMMAR.commands
    .filter((c) => !c.hidden && c.path.length > words.length && words.every((w, i) => c.path[i] === w))
    .map((c) => c.path.join(' '));
  if (group.length > 0) return group;
  const asked = words.join(' ').toLowerCase();
  const scored: { path: string; distance: number }[] = [];
  for (const command of CLI_GRAMMAR.commands) {
    if (command.hidden) continue;
    const path = command.path.join(' ');
    const distances = spellings(command).map((s) => editDistance(asked, s.join(' ')));
    const prefix = path.startsWith(asked) || asked.startsWith(path);
    const distance = Math.min(...distances) - (prefix ? 1 : 0);
    const limit = Math.max(2, Math.ceil(path.length * 0.4));
    if (distance <= limit) scored.push({ path, distance });
  }
  return scored
    .sort((a, b) => a.distance - b.distance || a.path.localeCompare(b.path))
    .slice(0, 3)
    .map((s) => s.path);
}

/** A former command name the words start with (spec/cli.yaml renamed_commands). */
export function renamedFrom(words: readonly string[]): { from: string[]; to: string[] } | undefined {
  return CLI_GRAMMAR.renamed.find((r) => r.from.every((w, i) => words[i] === w));
}

export function renamedMessage(renamed: { from: string[]; to: string[] }): string {
  return `\`discern ${renamed.from.join(' ')}\` was renamed: it is \`discern ${renamed.to.join(' ')}\` now.`;
}
