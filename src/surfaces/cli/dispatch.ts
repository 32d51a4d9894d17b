// Dispatch through sade, built from the generated grammar's entry for the command. sade only ever sees argv that checkArgv accepted,
// so its own error banners and exits are unreachable; its parser (mri) is told which flags are strings and
// which are booleans, so values keep their types. The result is the verb to run and its input object.
import sade from 'sade';
import { VERB_IDS, VERBS, type VerbId } from '../../../generated/registry.js';
import type { DiscernHelpCliCommand } from '../../../generated/types.js';

export type Dispatch =
  { kind: 'verb'; verb: VerbId; input: Record<string, unknown> } | { kind: 'protocol'; path: string[] };

type Action = (...args: unknown[]) => Dispatch;

/**
 * checkArgv has already found the command in the generated grammar, so sade is given that command alone:
 * registering all of them on every call cost about a millisecond of a start-up that is the whole of a cheap call.
 */
export function dispatch(
  argv: readonly string[],
  command: DiscernHelpCliCommand,
  present: ReadonlySet<string>,
): Dispatch {
  const prog = sade('discern');
  const strings = new Set<string>();
  const booleans = new Set<string>();
  const usage = [
    command.path.join(' '),
    ...command.positionals.map((p) => (p.optional || p.variadic ? `[${p.name}]` : `<${p.name}>`)),
  ].join(' ');
  prog.command(usage, command.description, command.aliases.length > 0 ? { alias: command.aliases } : {});
  for (const flag of command.flags.filter((f) => !f.global)) {
    const name = optionName(flag.spellings[0] ?? '');
    (flag.arity === 0 ? booleans : strings).add(name);
  }
  prog.action(actionFor(command, present));
  const parsed = prog.parse(['node', 'discern', ...argv], {
    lazy: true,
    string: [...strings],
    boolean: [...booleans],
  }) as unknown;
  if (!isLazyParse(parsed)) throw new Error('sade did not return a lazy dispatch; argv should have been checked first');
  return (parsed.handler as Action)(...parsed.args);
}

function actionFor(command: DiscernHelpCliCommand, present: ReadonlySet<string>): Action {
  return (...args: unknown[]): Dispatch => {
    if (command.verb === undefined) return { kind: 'protocol', path: command.path };
    const verb = VERB_IDS[command.verb];
    if (verb === undefined) throw new Error(`the grammar names verb ${command.verb}, which is not registered`);
    const opts = (args[args.length - 1] ?? {}) as Record<string, unknown> & { _?: unknown[] };
    // What the command always sends (verb.yaml cli.fixed), such as the action a multi-action tool's CLI command takes.
    const input: Record<string, unknown> = { ...VERBS[verb].cliFixed };
    command.positionals.forEach((p, i) => {
      const value = args[i];
      if (p.variadic) {
        const rest = [value, ...(opts._ ?? [])].filter((v) => v !== undefined).map(String);
        if (rest.length > 0) input[p.input] = rest;
      } else if (value !== undefined) input[p.input] = typed(value, p.value_types[0]);
    });
    for (const flag of command.flags) {
      const spelling = flag.spellings[0] ?? '';
      if (flag.input === undefined || !present.has(spelling)) continue;
      const value = opts[optionName(spelling)];
      if (flag.arity === 0) input[flag.input] = value === true;
      else if (flag.repeatable) input[flag.input] = (Array.isArray(value) ? value : [value]).map(String);
      else input[flag.input] = typed(Array.isArray(value) ? value[value.length - 1] : value, flag.value_types[0]);
    }
    return { kind: 'verb', verb, input };
  };
}

function typed(value: unknown, type: string | undefined): unknown {
  if (type === 'number' || type === 'integer') return Number(value);
  return String(value);
}

function optionName(spelling: string): string {
  return spelling.replace(/^-+/, '');
}

function isLazyParse(value: unknown): value is { handler: unknown; args: unknown[] } {
  return (
    typeof value === 'object' &&
    value !== null &&
    'handler' in value &&
    'args' in value &&
    Array.isArray((value as { args: unknown }).args)
  );
}
