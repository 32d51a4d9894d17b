// Builds the CLI grammar — every command path, positional and flag, with value types and defaults — from
// each verb's cli section and input schema plus spec/cli.yaml. The same object is published as
// schema/discern-cli.json, returned as `discern help` data, and drives argv validation and dispatch.
import type { JsonSchema, SpecModel, VerbModel } from '../spec/types.js';
import { isObject } from '../spec/walk.js';
import type { Contracts } from './contracts.js';

export interface GrammarFlag {
  spellings: string[];
  input?: string;
  description: string;
  type_definition: string;
  arity: 0 | 1;
  value_types: string[];
  choices?: string[];
  default?: string | number | boolean;
  hidden: boolean;
  global: boolean;
  repeatable: boolean;
  exclusive_group?: string;
  predicate?: string;
  print?: string;
  stands_for?: string;
}

export interface GrammarPositional {
  name: string;
  input: string;
  description: string;
  optional: boolean;
  variadic: boolean;
  value_types: string[];
  choices?: string[];
}

export interface GrammarCommand {
  path: string[];
  verb?: string;
  description: string;
  aliases: string[];
  hidden: boolean;
  positionals: GrammarPositional[];
  usage: string;
  flags: GrammarFlag[];
  examples: string[];
  stability?: 'stable' | 'evolving';
  /** How a call with no result format answers (verb.yaml cli.bare). */
  bare?: { print?: string; predicate?: string; run?: string };
}

export interface Grammar {
  version: string;
  format: 1;
  implicit_flags: { command: string[]; root: string[] };
  global_flags: GrammarFlag[];
  commands: GrammarCommand[];
  renamed: { from: string[]; to: string[] }[];
  groups: { path: string[]; description: string; commands: string[][] }[];
  root: { path: []; runs: string[]; description: string; usage: string };
}

export function buildCliGrammar(model: SpecModel, contracts: Contracts): Grammar {
  // A global flag is a boolean switch unless it names a value (spec/cli.yaml value_name, e.g. --theme <theme>).
  const globalFlags: GrammarFlag[] = model.cli.global_flags.map((g) => ({
    spellings: g.spellings,
    description: g.description,
    type_definition: g.value_name !== undefined ? `<${g.value_name}:string>` : '',
    arity: g.value_name !== undefined ? 1 : 0,
    value_types: [g.value_name !== undefined ? 'string' : 'boolean'],
    ...(g.choices ? { choices: g.choices } : {}),
    ...(g.default !== undefined ? { default: g.default } : {}),
    hidden: false,
    global: true,
    repeatable: false,
    ...(g.exclusive_group ? { exclusive_group: g.exclusive_group } : {}),
  }));
  const commands: GrammarCommand[] = [];
  for (const contract of contracts.verbs)
    commands.push(verbCommand(model, contract.verb, contract.cliInput, globalFlags));
  for (const extra of model.cli.commands) {
    commands.push({
      path: extra.path,
      description: extra.description,
      aliases: [],
      hidden: false,
      positionals: (extra.positionals ?? []).map((p) => ({
        name: p.name,
        input: p.name,
        description: p.description,
        optional: p.optional === true,
        variadic: p.variadic === true,
        value_types: ['string'],
      })),
      usage: extra.usage ?? `${model.cli.program} ${extra.path.join(' ')}`,
      flags: [],
      examples: extra.examples,
    });
  }
  commands.sort((a, b) => a.path.join(' ').localeCompare(b.path.join(' ')));
  return {
    version: model.version,
    format: 1,
    implicit_flags: model.cli.implicit_flags,
    global_flags: globalFlags,
    commands,
    renamed: (model.cli.renamed_commands ?? []).map((r) => ({ from: r.from, to: r.to })),
    groups: model.cli.groups.map((g) => ({
      path: g.path,
      description: g.description,
      commands: commands
        .filter((c) => !c.hidden && c.path.length > g.path.length && g.path.every((w, i) => c.path[i] === w))
        .map((c) => c.path),
    })),
    root: { path: [], runs: model.cli.root.runs, description: model.cli.root.description, usage: model.cli.program },
  };
}

function verbCommand(model: SpecModel, verb: VerbModel, input: JsonSchema, globalFlags: GrammarFlag[]): GrammarCommand {
  const cli = verb.spec.cli;
  const properties = isObject(input['properties']) ? input['properties'] : {};
  const required = Array.isArray(input['required']) ? input['required'].map(String) : [];
  const prop = (key: string): JsonSchema => {
    const p = properties[key];
    if (!isObject(p)) throw new Error(`${verb.dir}: no input property ${key}`);
    return p;
  };
  const positionals: GrammarPositional[] = (cli.positionals ?? []).map((p) => {
    const schema = prop(p.input);
    const scalar = p.variadic && isObject(schema['items']) ? schema['items'] : schema;
    return {
      name: p.name,
      input: p.input,
      description: typeof schema['description'] === 'string' ? schema['description'] : '',
      optional: !required.includes(p.input),
      variadic: Boolean(p.variadic),
      value_types: [String(scalar['type'])],
      ...choices(scalar),
    };
  });
  const flags: GrammarFlag[] = (cli.flags ?? []).map((f) => {
    const schema = prop(f.input);
    const repeatable = schema['type'] === 'array';
    const scalar = repeatable && isObject(schema['items']) ? schema['items'] : schema;
    const type = String(scalar['type']);
    const boolean = type === 'boolean';
    const valueName = f.value_name ?? f.input;
    const flag: GrammarFlag = {
      spellings: f.spellings,
      input: f.input,
      description: typeof schema['description'] === 'string' ? schema['description'] : '',
      type_definition: boolean ? '' : `<${valueName}:${type}>`,
      arity: boolean ? 0 : 1,
      value_types: [type],
      ...choices(scalar),
      hidden: false,
      global: false,
      repeatable,
    };
    if (f.predicate !== undefined) flag.predicate = f.predicate;
    if (f.print !== undefined) flag.print = f.print;
    if (f.stands_for !== undefined) flag.stands_for = f.stands_for;
    const dflt = schema['default'];
    if (typeof dflt === 'string' || typeof dflt === 'number' || typeof dflt === 'boolean') flag.default = dflt;
    return flag;
  });
  const usage =
    cli.usage ??
    [
      model.cli.program,
      ...cli.path,
      ...positionals.map((p) => {
        const name = p.variadic ? `${p.name}...` : p.name;
        return p.optional ? `[${name}]` : `<${name}>`;
      }),
      // A required flag stands bare, an optional one in brackets; a repeatable one ends in `...`.
      ...flags.map((f) => {
        const spelled = `${f.arity === 0 ? f.spellings[0] : `${f.spellings[0]} ${f.type_definition.replace(/:[a-z]+>$/, '>')}`}${f.repeatable ? '...' : ''}`;
        return f.input !== undefined && required.includes(f.input) ? spelled : `[${spelled}]`;
      }),
    ].join(' ');
  return {
    path: cli.path,
    verb: verb.spec.verb,
    description: cli.description,
    aliases: cli.aliases ?? [],
    hidden: Boolean(cli.hidden),
    positionals,
    usage,
    flags: [...flags, ...globalFlags],
    examples: cli.examples ?? [],
    ...(verb.spec.stability === 'evolving' ? { stability: 'evolving' as const } : {}),
    ...(cli.bare ? { bare: cli.bare } : {}),
  };
}

function choices(schema: JsonSchema): { choices?: string[] } {
  const e = schema['enum'];
  return Array.isArray(e) ? { choices: e.map(String) } : {};
}
