// Argv generators for the hostile-input CLI test, derived from the published grammar (schema/discern-cli.json):
// each command's path, positionals, flags, value types and choices give a well-formed call, and a set of
// mutations turns it into the calls a confused or hostile caller makes — unknown flags, missing or extra
// positionals, wrong-typed values, a flag without its value, duplicates, misspelt commands, `--` in odd places —
// with values drawn from strings meant to break things: traversing and absolute paths, shell metacharacters,
// terminal controls, bidi overrides, huge strings, numbers at the edges.
import fc from 'fast-check';
import { readPublished } from '../helpers/published-schema.js';

export interface GrammarFlag {
  spellings: string[];
  arity: number;
  value_types: string[];
  choices?: string[];
  global: boolean;
  repeatable: boolean;
}

export interface GrammarPositional {
  name: string;
  optional: boolean;
  variadic: boolean;
  value_types: string[];
  choices?: string[];
}

export interface GrammarCommand {
  path: string[];
  verb?: string;
  aliases: string[];
  positionals: GrammarPositional[];
  flags: GrammarFlag[];
}

export function publishedCommands(): GrammarCommand[] {
  return (readPublished('discern-cli.json') as unknown as { commands: GrammarCommand[] }).commands;
}

export interface Hostile {
  /** A file whose appearance proves a shell ran something it was handed. */
  marker: string;
  /** Absolute paths outside the project the generator may name (the sandbox around it). */
  outside: string[];
  /** Names that do mean something in the project (an effort id, its branch, its worktree). */
  known: string[];
}

/** The strings no caller should be able to turn into a crash, an escape or a command. */
export function hostileConstants(h: Hostile): string[] {
  return [
    '..',
    '../../..',
    '../../../../../../../../etc/passwd',
    './../x',
    '/',
    '/nonexistent/discern-fuzz',
    ...h.outside,
    `$(touch ${h.marker})`,
    `\`touch ${h.marker}\``,
    `;touch ${h.marker}`,
    `x; touch ${h.marker} #`,
    `| touch ${h.marker}`,
    `&& touch ${h.marker}`,
    `x\ntouch ${h.marker}`,
    ';rm -rf .',
    '%2e%2e%2f%2e%2e%2f',
    '..%2F..%2F',
    'file:///etc/passwd',
    '\u001b[2J\u001b[31mred',
    '\u001b]0;title\u0007',
    '\r\rcarriage',
    'line\nbreak',
    '\u202egnp.exe',
    '\u2028\u2029',
    '\ufeffbom',
    'zero\u200bwidth',
    '💥🔥',
    '',
    ' ',
    '-',
    '--',
    '-x',
    '--json',
    '--=',
    '=',
    '__proto__',
    'constructor',
    'toString',
    'main',
    'HEAD',
    'HEAD~999',
    'refs/heads/main',
    '@{-1}',
    'a..b',
    'A'.repeat(4097),
    'x'.repeat(100_000),
    '0',
    '-1',
    '1.5',
    '1e999',
    'NaN',
    'Infinity',
    '99999999999999999999',
    '0x10',
    ' 1',
    ...h.known,
  ];
}

/**
 * A value as argv can carry it: no NUL (the kernel ends an argument there; Node refuses to spawn one) and no
 * lone surrogate (argv is bytes; invalid UTF-8 reaches Node as U+FFFD).
 */
function argvSafe(value: string): string {
  return value
    .replace(/\0/g, '')
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

export function hostileString(h: Hostile): fc.Arbitrary<string> {
  return fc
    .oneof(
      { arbitrary: fc.constantFrom(...hostileConstants(h)), weight: 5 },
      { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 2 },
      { arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }), weight: 1 },
      { arbitrary: fc.stringMatching(/^[a-z][a-z0-9/_.-]{0,30}$/), weight: 2 },
    )
    .map(argvSafe);
}

function numberish(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.integer({ min: -5, max: 100 }).map(String),
    fc.constantFrom('0', '1', '-1', '86400', '86401', '1.5', '1e3', '99999999999999999999', 'NaN', 'x', ''),
  );
}

function valueFor(
  types: readonly string[],
  choices: readonly string[] | undefined,
  h: Hostile,
  overrides?: fc.Arbitrary<string>,
): fc.Arbitrary<string> {
  if (overrides) return overrides;
  const type = types[0] ?? 'string';
  const options: fc.Arbitrary<string>[] = [hostileString(h)];
  if (choices && choices.length > 0) options.push(fc.constantFrom(...choices), fc.constantFrom(...choices));
  if (type === 'integer' || type === 'number') options.push(numberish(), numberish());
  return fc.oneof(...options);
}

/** Per-command adjustments: values that would make a call wait for minutes or hand the terminal to a program. */
export interface CommandTuning {
  /** Values for one flag (by first spelling) instead of the generic ones. */
  flagValues?: Record<string, fc.Arbitrary<string>>;
  /** Flags every generated call carries (await's budget). */
  required?: string[];
  /** Values for the variadic positional. */
  variadic?: fc.Arbitrary<string[]>;
}

function wellFormed(command: GrammarCommand, h: Hostile, tuning: CommandTuning): fc.Arbitrary<string[]> {
  const own = command.flags.filter((f) => !f.global);
  const positionals = command.positionals.map((p) => {
    if (p.variadic) return tuning.variadic ?? fc.array(valueFor(p.value_types, p.choices, h), { maxLength: 3 });
    const one = valueFor(p.value_types, p.choices, h).map((v): string[] => [v]);
    return p.optional ? fc.oneof(one, fc.constant([] as string[])) : one;
  });
  const flagArbs = own.map((flag) => {
    const name = flag.spellings[0] ?? '';
    if (flag.arity === 0) return fc.constant<string[]>([name]);
    const value = valueFor(flag.value_types, flag.choices, h, tuning.flagValues?.[name]);
    return fc.tuple(value, fc.boolean()).map(([v, joined]): string[] => (joined ? [`${name}=${v}`] : [name, v]));
  });
  const required = new Set(tuning.required ?? []);
  const chosenFlags = fc
    .tuple(
      ...flagArbs.map((arb, i) =>
        required.has(own[i]?.spellings[0] ?? '') ? arb : fc.option(arb, { nil: undefined }),
      ),
    )
    .map((chosen) => chosen.filter((c): c is string[] => c !== undefined));
  return fc
    .tuple(
      fc.tuple(...positionals),
      chosenFlags,
      fc.constantFrom(...[command.path, ...command.aliases.map((a) => a.split(' '))]),
      fc.boolean(),
    )
    .map(([pos, flags, path, flagsFirst]) => {
      const p = pos.flat();
      const f = flags.flat();
      // A variadic tail after `--` (queue's command) must come last.
      const variadic = command.positionals.some((x) => x.variadic);
      if (variadic && command.path[0] === 'queue') return [...path, ...f, '--', ...p];
      return flagsFirst ? [...path, ...f, ...p] : [...path, ...p, ...f];
    });
}

type Mutation = (argv: string[], rnd: { pick: string; at: number }) => string[];

function mutations(command: GrammarCommand): Mutation[] {
  const own = command.flags.filter((f) => !f.global);
  const valued = own.filter((f) => f.arity === 1);
  const typed = valued.filter((f) => f.value_types[0] === 'integer' || f.value_types[0] === 'number');
  const depth = command.path.length;
  const list: Mutation[] = [
    (a, r) => [...a, `--${r.pick.replace(/^-+/, '') || 'bogus'}`],
    (a) => [...a, '--path', '../../..'],
    (a) => [...a, '-v'],
    (a, r) => [...a, r.pick],
    (a, r) => [...a, '--', r.pick],
    (a, r) => [
      ...a.slice(0, Math.min(a.length, depth + (r.at % 3))),
      '--',
      ...a.slice(Math.min(a.length, depth + (r.at % 3))),
    ],
    (a) => a.slice(0, Math.max(1, a.length - 1)),
    (a) => [...a.slice(0, depth - 1), `${command.path[depth - 1] ?? ''}x`, ...a.slice(depth)],
    (a) => [...a, '-h'],
    (a) => ['--no-color', '--plain', ...a],
    (a, r) => [...a, '--theme', r.pick],
  ];
  if (valued.length > 0) {
    const flag = (r: { at: number }): string => valued[r.at % valued.length]?.spellings[0] ?? '';
    list.push((a, r) => [...a, flag(r)]);
    list.push((a, r) => [...a, flag(r), r.pick, flag(r), r.pick]);
    list.push((a, r) => [...a, `${flag(r)}=`]);
  }
  if (typed.length > 0) list.push((a, r) => [...a, typed[r.at % typed.length]?.spellings[0] ?? '', 'not-a-number']);
  return list;
}

/**
 * One generated call of `command`: the well-formed shape, then none, one or two mutations. The result format
 * is --json for most calls, --markdown for some, and two formats at once for a few (which the grammar refuses).
 */
export function commandArgv(
  command: GrammarCommand,
  h: Hostile,
  tuning: CommandTuning = {},
): fc.Arbitrary<{ argv: string[]; format: 'json' | 'markdown' | 'conflict' }> {
  const muts = mutations(command);
  const mutation = fc.record({
    index: fc.nat({ max: muts.length - 1 }),
    pick: hostileString(h),
    at: fc.nat({ max: 1000 }),
  });
  return fc
    .tuple(
      wellFormed(command, h, tuning),
      fc.oneof(
        { arbitrary: fc.constant([] as { index: number; pick: string; at: number }[]), weight: 2 },
        { arbitrary: fc.array(mutation, { minLength: 1, maxLength: 2 }), weight: 3 },
      ),
      fc.oneof(
        { arbitrary: fc.constant('json' as const), weight: 16 },
        { arbitrary: fc.constant('markdown' as const), weight: 2 },
        { arbitrary: fc.constant('conflict' as const), weight: 2 },
      ),
      fc.nat({ max: 1000 }),
    )
    .map(([base, chosen, format, at]) => {
      let argv = base;
      for (const m of chosen) argv = muts[m.index]?.(argv, { pick: m.pick, at: m.at }) ?? argv;
      // The format flag goes somewhere before `--` (after it, it is a positional like any other).
      const end = argv.indexOf('--');
      const flags =
        format === 'json'
          ? ['--json']
          : format === 'markdown'
            ? ['--markdown']
            : ['--json', at % 2 === 0 ? '--markdown' : '--render'];
      const place = Math.min(end === -1 ? argv.length : end, at % (argv.length + 1));
      return { argv: [...argv.slice(0, place), ...flags, ...argv.slice(place)], format };
    });
}
