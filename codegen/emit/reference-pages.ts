// Reference pages generated from spec/, so the manual's lists of tools, commands and error slugs cannot
// drift from the contract: they are regenerated with everything else.
import type { JsonSchema, SpecModel } from '../spec/types.js';
import { isObject } from '../spec/walk.js';
import type { Contracts } from '../schemas/contracts.js';
import type { Grammar, GrammarFlag } from '../schemas/cli-grammar.js';
import { mcpResources, orderedTools, promptEntries, promptSignature, type McpSchemaEntry } from './mcp-model.js';

export interface GeneratedPage {
  slug: string;
  id: string;
  title: string;
  description: string;
  order: number;
  aliases: string[];
  content: string;
}

export function referencePages(
  model: SpecModel,
  contracts: Contracts,
  grammar: Grammar,
  schemas: readonly McpSchemaEntry[],
): GeneratedPage[] {
  return [toolsPage(model, contracts, schemas), commandsPage(grammar), errorsPage(model)];
}

function toolsPage(model: SpecModel, contracts: Contracts, schemas: readonly McpSchemaEntry[]): GeneratedPage {
  const tools = orderedTools(model, contracts);
  const lines: string[] = [
    '# MCP tools and resources',
    '',
    'Every tool of `discern mcp`, in `tools/list` order, with its exact inputs and safety annotations. Inputs are strict: an undeclared key, a wrong type or a relative `path` returns an `invalid_arguments` result.',
    '',
  ];
  for (const tool of tools) {
    lines.push(`## ${tool.name}`, '', `**${tool.title}.** ${tool.description}`, '', `When: ${tool.when}`, '');
    const a = tool.annotations;
    lines.push(
      `Annotations: readOnlyHint ${a.readOnlyHint}, destructiveHint ${a.destructiveHint}, idempotentHint ${a.idempotentHint}, openWorldHint ${a.openWorldHint}.`,
      '',
    );
    lines.push(...inputTable(tool.inputSchema), '');
  }
  lines.push(
    '## Resources',
    '',
    'Each resource is computed when read; the named tool returns the same data for clients that do not attach resources.',
    '',
    '| URI | Kind | Payload | Same data as |',
    '| --- | --- | --- | --- |',
  );
  for (const r of mcpResources(model))
    lines.push(`| \`${r.uri}\` | ${r.kind} | ${r.description} (${r.mimeType}) | ${r.reads} |`);
  const template = model.mcp.schemas;
  lines.push(
    '',
    '### Published schemas',
    '',
    `\`${template.uri}\` (template, application/json): ${template.description.trim()} Each is the file in the package's \`schema/\` directory, byte for byte.`,
    '',
    '| URI | File | Title |',
    '| --- | --- | --- |',
  );
  for (const s of schemas) lines.push(`| \`${s.uri}\` | \`schema/${s.file}\` | ${s.title} |`);
  const prompts = promptEntries(model);
  lines.push(
    '',
    '## Prompts',
    '',
    "Each prompt is filled from the repository's live state when it is requested (`prompts/get`). Arguments are strings; a missing required argument, an undeclared one or a relative `path` is refused with an invalid-params error naming it.",
    '',
  );
  for (const p of prompts) {
    lines.push(
      `### ${p.name}`,
      '',
      `**${p.title}.** ${p.description}`,
      '',
      `Arguments: \`${promptSignature(p)}\`.`,
      '',
    );
    if (p.arguments.length > 0) {
      lines.push('| Argument | Required | Meaning |', '| --- | --- | --- |');
      for (const a of p.arguments) lines.push(`| \`${a.name}\` | ${a.required ? 'yes' : 'no'} | ${a.description} |`);
      lines.push('');
    }
    lines.push(`It asks: ${p.ask}`, '');
  }
  return {
    slug: 'tools',
    id: 'tools',
    title: 'MCP tools',
    description:
      'Every MCP tool with its inputs and annotations, every resource and every prompt, generated from the contract.',
    order: 900,
    aliases: [
      'tool list',
      'mcp inputs',
      'annotations',
      'resources',
      'prompts',
      ...tools.map((t) => t.name),
      ...prompts.map((p) => p.name),
    ],
    content: `${lines.join('\n')}\n`,
  };
}

function inputTable(schema: JsonSchema): string[] {
  const properties = isObject(schema['properties']) ? schema['properties'] : {};
  const required = Array.isArray(schema['required']) ? schema['required'].map(String) : [];
  const keys = Object.keys(properties);
  if (keys.length === 0) return ['Inputs: none.'];
  const rows = keys.map((key) => {
    const p = properties[key] as JsonSchema;
    const type = p['type'] === 'array' && isObject(p['items']) ? `${String(p['items']['type'])}[]` : String(p['type']);
    const description = typeof p['description'] === 'string' ? p['description'] : '';
    return `| \`${key}\` | ${type} | ${required.includes(key) ? 'yes' : 'no'} | ${description} |`;
  });
  return ['| Input | Type | Required | Meaning |', '| --- | --- | --- | --- |', ...rows];
}

function commandsPage(grammar: Grammar): GeneratedPage {
  const lines: string[] = [
    '# CLI commands',
    '',
    `Every command of discern ${grammar.version}, generated from the same grammar the CLI validates argv against (published as \`schema/discern-cli.json\`). \`${grammar.implicit_flags.command.join('`/`')}\` works on every command; \`${grammar.implicit_flags.root.join('`/`')}\` prints the version.`,
    '',
    '## Global flags',
    '',
    ...flagTable(grammar.global_flags),
    '',
    'At most one of `--json`, `--markdown` and `--render` may be given.',
    '',
  ];
  for (const command of grammar.commands.filter((c) => !c.hidden)) {
    lines.push(
      `## discern ${command.path.join(' ')}`,
      '',
      command.description,
      '',
      '```text',
      command.usage,
      '```',
      '',
    );
    const own = command.flags.filter((f) => !f.global);
    if (command.positionals.length > 0) {
      lines.push('| Argument | Type | Optional | Fills input |', '| --- | --- | --- | --- |');
      for (const p of command.positionals)
        lines.push(
          `| \`${p.variadic ? `${p.name}...` : p.name}\` | ${p.value_types.join('|')} | ${p.optional ? 'yes' : 'no'} | \`${p.input}\` |`,
        );
      lines.push('');
    }
    if (own.length > 0) lines.push(...flagTable(own), '');
    if (command.examples.length > 0) lines.push('Examples:', '', '```sh', ...command.examples, '```', '');
  }
  return {
    slug: 'commands',
    id: 'commands',
    title: 'CLI commands',
    description: 'Every CLI command with its arguments, flags and examples, generated from the grammar.',
    order: 910,
    aliases: ['command list', 'flags', 'usage', 'cli grammar'],
    content: `${lines.join('\n')}\n`,
  };
}

function flagTable(flags: GrammarFlag[]): string[] {
  return [
    '| Flag | Value | Meaning |',
    '| --- | --- | --- |',
    ...flags.map(
      (f) =>
        `| \`${f.spellings.join('`, `')}\` | ${f.arity === 0 ? '—' : `\`${f.type_definition}\``}${f.repeatable ? ' (repeatable)' : ''} | ${f.description}${f.default !== undefined ? ` Default: \`${String(f.default)}\`.` : ''} |`,
    ),
  ];
}

function errorsPage(model: SpecModel): GeneratedPage {
  const v = model.vocabularies;
  const lines: string[] = [
    '# Error slugs',
    '',
    'Every failed result carries one of these stable slugs in `error`, a `message`, and — as its last hint — the next action registered for the slug or its family. The list is an open vocabulary: a later release may add slugs, so treat one you do not know as opaque and follow its hint.',
    '',
  ];
  for (const [family, entry] of Object.entries(v.error_families)) {
    const slugs = Object.entries(v.error_slugs)
      .filter(([, s]) => s.family === family)
      .sort(([a], [b]) => a.localeCompare(b));
    if (slugs.length === 0) continue;
    lines.push(
      `## ${family}`,
      '',
      `${entry.description} Next action: ${entry.next_action}`,
      '',
      '| Slug | Meaning |',
      '| --- | --- |',
    );
    for (const [slug, s] of slugs)
      lines.push(`| \`${slug}\` | ${s.description}${s.next_action ? ` Next action: ${s.next_action}` : ''} |`);
    lines.push('');
  }
  return {
    slug: 'errors',
    id: 'errors',
    title: 'Error slugs',
    description: 'Every registered error slug, its family and the next action a failed result carries.',
    order: 920,
    aliases: ['error codes', 'failure slugs', 'next action', 'error families'],
    content: `${lines.join('\n')}\n`,
  };
}
