// Checks argv against the generated grammar before anything else sees it, so a call that does not fit is a
// classified grammar error (exit 2, one line on stderr or one envelope under --json) and never sade's own
// banner or exit. Accepted forms: `--flag value`, `--flag=value`, boolean `--flag`, the implicit -h/--help
// and -V/--version, and `--` to end options. A value may start with "-" only in the `--flag=value` form.
// The global flags — a result format (--json, --markdown, --render) and the presentation flags (--no-color,
// --plain, --theme, which only the terminal renderer reads; docs/decisions/0032) — may stand anywhere before `--`
// and are taken out before the command's own flags are checked.
import { CLI_GRAMMAR } from '../../../generated/cli-grammar.js';
import type { DiscernHelpCliCommand, DiscernHelpCliFlag } from '../../../generated/types.js';
import { closestCommands, findCommand, renamedFrom, renamedMessage, findGroup } from '../../engine/grammar/lookup.js';
import type { Presentation, Theme } from '../../render/terminal/options.js';

export type Format = 'human' | 'json' | 'markdown' | 'render';

export type GrammarErrorSlug = 'unknown_command' | 'renamed_command' | 'invalid_arguments';

export type { Presentation, Theme };

export type ArgvCheck =
  | { kind: 'version' }
  | { kind: 'help'; path: string[]; format: Format; presentation: Presentation }
  | {
      kind: 'command';
      command: DiscernHelpCliCommand;
      format: Format;
      presentation: Presentation;
      present: Set<string>;
      tokens: string[];
      positionals: string[];
    }
  | {
      kind: 'error';
      error: GrammarErrorSlug;
      message: string;
      query: string[];
      suggestions: string[];
      usage?: string;
      format: Format;
    };

/**
 * The result-format flags, from the grammar's global flags of the "format" group: --json → json. A Map, not an
 * object: a value such as "toString" or "constructor" must not be taken for a format flag.
 */
const FORMAT_FLAGS: ReadonlyMap<string, Format> = new Map(
  CLI_GRAMMAR.global_flags
    .filter((f) => f.exclusive_group === 'format')
    .flatMap((f) => f.spellings.map((s) => [s, s.replace(/^--/, '') as Format] as const)),
);

/** The other global flags, which choose how the terminal renderer draws (spec/cli.yaml global_flags). */
const PRESENTATION_FLAGS: readonly DiscernHelpCliFlag[] = CLI_GRAMMAR.global_flags.filter(
  (f) => f.exclusive_group !== 'format',
);

export function checkArgv(argv: readonly string[]): ArgvCheck {
  const end = argv.indexOf('--');
  const all = end === -1 ? argv : argv.slice(0, end);
  const formats = [...new Set(all.filter((a) => FORMAT_FLAGS.has(a)))];
  // With conflicting formats none is chosen: the error goes to stderr as one line.
  const format: Format = formats.length === 1 ? (FORMAT_FLAGS.get(formats[0] ?? '') ?? 'human') : 'human';
  const fail = (
    error: GrammarErrorSlug,
    message: string,
    query: string[],
    extra: { suggestions?: string[]; usage?: string } = {},
  ): ArgvCheck => ({
    kind: 'error',
    error,
    message,
    query,
    suggestions: extra.suggestions ?? [],
    ...(extra.usage ? { usage: extra.usage } : {}),
    format,
  });
  if (formats.length > 1)
    return fail('invalid_arguments', `${formats.join(' and ')} are mutually exclusive: choose one result format.`, []);
  const extracted = extractPresentation(all.filter((a) => !FORMAT_FLAGS.has(a)));
  if (typeof extracted === 'string') return fail('invalid_arguments', extracted, []);
  const { presentation, rest: options, given } = extracted;
  // Anything global that only shapes the output: a format or a presentation flag.
  const shaping = [...formats, ...given];

  // Global flags may stand anywhere before `--`; the rest is checked without them.
  const tokens = [...options, ...(end === -1 ? [] : argv.slice(end))];
  // The root opens the desk (which, without a terminal or with a result format, answers as status does).
  if (tokens.length === 0) {
    const desk = findCommand(['desk']);
    return desk
      ? {
          kind: 'command',
          command: desk.command,
          format,
          presentation,
          present: new Set(),
          tokens: [],
          positionals: [],
        }
      : { kind: 'help', path: [], format, presentation };
  }
  const first = tokens[0] ?? '';
  if (CLI_GRAMMAR.implicit_flags.root.includes(first)) {
    return tokens.length === 1 && shaping.length === 0
      ? { kind: 'version' }
      : fail('invalid_arguments', `${first} takes nothing else.`, []);
  }
  if (first === '-v')
    return fail('invalid_arguments', 'unknown flag -v; the version flag is -V (or --version).', [], {
      suggestions: ['-V'],
    });
  if (CLI_GRAMMAR.implicit_flags.command.includes(first)) {
    // `discern -h docs` asks for the same page as `discern docs -h`.
    const asked = tokens.slice(1).filter((t) => !t.startsWith('-'));
    const named = asked.length > 0 ? findCommand(asked) : undefined;
    const renamed = named ? undefined : renamedFrom(asked);
    if (renamed)
      return fail('renamed_command', renamedMessage(renamed), asked, { suggestions: [renamed.to.join(' ')] });
    // A group (`discern -h setup`) is described by help like a command.
    if (asked.length > 0 && !named && findGroup(asked)) return { kind: 'help', path: asked, format, presentation };
    if (asked.length > 0 && !named)
      return fail('unknown_command', `"${asked.join(' ')}" is not a discern command.`, asked, {
        suggestions: closestCommands(asked),
      });
    return { kind: 'help', path: named ? named.command.path : [], format, presentation };
  }

  const words: string[] = [];
  for (const token of tokens) {
    if (token.startsWith('-')) break;
    words.push(token);
  }
  if (words.length === 0)
    return fail('invalid_arguments', `${first} is not a flag discern knows before a command.`, [first], {
      suggestions: [],
    });
  const found = findCommand(words);
  const renamed = found ? undefined : renamedFrom(words);
  if (renamed) return fail('renamed_command', renamedMessage(renamed), words, { suggestions: [renamed.to.join(' ')] });
  // A group alone (`discern setup`, `discern config --json`) lists its commands, as help for it does.
  if (!found && findGroup(words) && tokens.slice(words.length).every((t) => t.startsWith('-')))
    return { kind: 'help', path: words, format, presentation };
  if (!found) {
    return fail('unknown_command', `"${words.join(' ')}" is not a discern command.`, words, {
      suggestions: closestCommands(words),
    });
  }
  const { command } = found;
  const usage = command.usage;
  const path = command.path;
  const argFail = (message: string): ArgvCheck =>
    fail('invalid_arguments', `discern ${path.join(' ')}: ${message}`, path, { usage, suggestions: [path.join(' ')] });

  const after = tokens.slice(found.consumed);
  const afterEnd = after.indexOf('--');
  const beforeEnd = afterEnd === -1 ? after : after.slice(0, afterEnd);
  if (beforeEnd.some((a) => CLI_GRAMMAR.implicit_flags.command.includes(a)))
    return { kind: 'help', path, format, presentation };

  const present = new Set<string>();
  const positionals: string[] = [];
  let endOfOptions = false;
  for (let i = 0; i < after.length; i++) {
    const token = after[i] ?? '';
    if (!endOfOptions && token === '--') {
      endOfOptions = true;
      continue;
    }
    if (!endOfOptions && token === '-') return argFail('`-` (standard input) is not accepted; pass the value itself.');
    if (endOfOptions || !token.startsWith('-')) {
      positionals.push(token);
      continue;
    }
    const eq = token.indexOf('=');
    const spelling = token.startsWith('--') && eq > 0 ? token.slice(0, eq) : token;
    const flag = findFlag(command.flags, spelling);
    if (!flag) return argFail(`unknown flag ${spelling}.`);
    const key = flag.spellings[0] ?? spelling;
    if (present.has(key) && !flag.repeatable) return argFail(`${spelling} is given more than once.`);
    present.add(key);
    if (flag.arity === 0) {
      if (eq > 0 && token.startsWith('--')) return argFail(`${spelling} takes no value.`);
      continue;
    }
    let value: string | undefined;
    if (token.startsWith('--') && eq > 0) value = token.slice(eq + 1);
    else {
      const next = after[i + 1];
      if (next === undefined || next.startsWith('-'))
        return argFail(`${spelling} needs a value ${flag.type_definition}.`);
      value = next;
      i++;
    }
    const problem = valueProblem(flag, value);
    if (problem) return argFail(`${spelling} ${problem}.`);
  }

  const declared = command.positionals;
  let p = 0;
  for (const spec of declared) {
    if (spec.variadic) {
      p = positionals.length;
      break;
    }
    if (p < positionals.length) {
      const problem = valueProblem(
        { value_types: spec.value_types, ...(spec.choices ? { choices: spec.choices } : {}) },
        positionals[p] ?? '',
      );
      if (problem) return argFail(`<${spec.name}> ${problem}.`);
      p++;
    } else if (!spec.optional) return argFail(`missing argument <${spec.name}>.`);
  }
  if (p < positionals.length) return argFail(`unexpected argument "${positionals[p] ?? ''}".`);
  if (command.verb === undefined && shaping.length > 0)
    return argFail(`${shaping[0] ?? ''} does not apply: this command serves a protocol.`);
  return { kind: 'command', command, format, presentation, present, tokens, positionals };
}

/**
 * Takes the presentation flags out of the options (before `--`): `--no-color`, `--plain`, `--theme <t>` or
 * `--theme=<t>`. A switch given twice is harmless; a value flag given twice, or without a valid value, is a
 * grammar error (the message is returned).
 */
function extractPresentation(
  options: readonly string[],
): { presentation: Presentation; rest: string[]; given: string[] } | string {
  const values = new Map<string, string | true>();
  const rest: string[] = [];
  for (let i = 0; i < options.length; i++) {
    const token = options[i] ?? '';
    const eq = token.indexOf('=');
    const spelling = token.startsWith('--') && eq > 0 ? token.slice(0, eq) : token;
    const flag = PRESENTATION_FLAGS.find((f) => f.spellings.includes(spelling));
    if (!flag) {
      rest.push(token);
      continue;
    }
    const key = flag.spellings[0] ?? spelling;
    if (flag.arity === 0) {
      if (eq > 0) return `${spelling} takes no value.`;
      values.set(key, true);
      continue;
    }
    if (values.has(key)) return `${spelling} is given more than once.`;
    let value: string | undefined;
    if (eq > 0) value = token.slice(eq + 1);
    else {
      const next = options[i + 1];
      if (next === undefined || next.startsWith('-')) return `${spelling} needs a value ${flag.type_definition}.`;
      value = next;
      i++;
    }
    const problem = valueProblem(flag, value);
    if (problem) return `${spelling} ${problem}.`;
    values.set(key, value);
  }
  const theme = values.get('--theme');
  return {
    presentation: {
      noColor: values.has('--no-color'),
      plain: values.has('--plain'),
      theme: typeof theme === 'string' ? (theme as Theme) : 'auto',
    },
    rest,
    given: [...values.keys()],
  };
}

function findFlag(flags: readonly DiscernHelpCliFlag[], spelling: string): DiscernHelpCliFlag | undefined {
  return flags.find((f) => f.spellings.includes(spelling));
}

function valueProblem(flag: Pick<DiscernHelpCliFlag, 'value_types' | 'choices'>, value: string): string | undefined {
  const type = flag.value_types[0] ?? 'string';
  if ((type === 'number' || type === 'integer') && !/^-?\d+(\.\d+)?$/.test(value))
    return `needs a number, not "${value}"`;
  if (type === 'integer' && value.includes('.')) return `needs a whole number, not "${value}"`;
  if (flag.choices && !flag.choices.includes(value)) return `must be one of ${flag.choices.join(', ')}`;
  if (value.length === 0) return 'needs a non-empty value';
  return undefined;
}
