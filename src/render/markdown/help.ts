// Authored Markdown for `help`: the command list, one command's grammar, or the closest commands.
import type { DiscernHelpCliCommand, DiscernHelpCliFlag, DiscernHelpResult } from '../../../generated/types.js';
import { code, table } from './blocks.js';
import { failureState, frame } from './frame.js';

export function renderHelp(result: DiscernHelpResult): string {
  const data = result.data;
  if (!result.ok || (data && 'query' in data)) {
    const suggestions = data && 'suggestions' in data && data.suggestions.length > 0 ? `Closest commands:\n\n${data.suggestions.map((s) => `- ${code(`discern ${s}`)}`).join('\n')}` : undefined;
    const usage = data && 'usage' in data && data.usage ? `Usage:\n\n\`\`\`text\n${data.usage}\n\`\`\`` : undefined;
    return frame(result, { state: failureState(result, 'discern help'), evidence: [usage, suggestions].filter(Boolean).join('\n\n') });
  }
  if (data && 'command' in data) return frame(result, { state: commandPage(data.command) });
  if (data && 'commands' in data) {
    const rows = data.commands.filter((c) => !c.hidden).map((c) => [code(`discern ${c.path.join(' ')}`), c.description]);
    const globals = flagRows(data.global_flags);
    const state = `# discern ${data.version}\n\nProve and land coding agents' work. Every command returns one result envelope; add ${code('--json')} or ${code('--markdown')} for a single machine- or agent-readable result.`;
    const evidence = `## Commands\n\n${table(['Command', 'What it does'], rows)}\n\n## Flags for every command\n\n${table(['Flag', 'Meaning'], [...globals, [`${code('-h')}, ${code('--help')}`, 'Describe the command.']])}\n\n${code('discern -V')} or ${code('discern --version')} prints the version.`;
    return frame(result, { state, evidence });
  }
  return frame(result, { state: '# discern help' });
}

function commandPage(command: DiscernHelpCliCommand): string {
  const own = command.flags.filter((f) => !f.global);
  const parts = [`# discern ${command.path.join(' ')}`, command.description, `\`\`\`text\n${command.usage}\n\`\`\``];
  if (command.positionals.length > 0) {
    parts.push(`## Arguments\n\n${table(['Argument', 'Meaning'], command.positionals.map((p) => [code(p.variadic ? `${p.name}...` : p.name), `${p.optional ? 'Optional.' : 'Required.'} ${p.description}`]))}`);
  }
  if (own.length > 0) parts.push(`## Flags\n\n${table(['Flag', 'Meaning'], flagRows(own))}`);
  if (command.examples.length > 0) parts.push(`## Examples\n\n\`\`\`sh\n${command.examples.join('\n')}\n\`\`\``);
  return parts.join('\n\n');
}

function flagRows(flags: readonly DiscernHelpCliFlag[]): string[][] {
  return flags.map((f) => [
    `${f.spellings.map((s) => code(s)).join(', ')}${f.arity === 1 ? ` ${code(f.type_definition)}` : ''}`,
    `${f.description}${f.repeatable ? ' Repeatable.' : ''}${f.default !== undefined ? ` Default ${code(String(f.default))}.` : ''}`,
  ]);
}
