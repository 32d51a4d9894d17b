// Hostile variants of a tool's arguments, built on top of the schema-derived valid ones: wrong types, 100 KB+
// strings, 5,000-level nesting, undeclared keys, relative / traversing / encoded / option-looking paths and
// refs, NUL bytes, Unicode oddities, and arguments that are not an object at all. Every case carries its
// kind, so a failure says which family of input broke what.
import fc from 'fast-check';
import { arbitraryFor, type JsonSchema } from './schema-arbitrary.js';

export type CaseKind =
  'valid' | 'undeclared' | 'wrong-type' | 'huge' | 'deep' | 'path' | 'nul' | 'unicode' | 'not-an-object';

export interface HostileCase {
  kind: CaseKind;
  args: unknown;
}

/** Built once: big values are shared, not regenerated per case. */
const HUGE_STRINGS: readonly string[] = [
  'a'.repeat(100_001),
  '../'.repeat(40_000),
  `/${'x/'.repeat(60_000)}`,
  '\u{1F600}'.repeat(60_000),
  `[jobs]\ntest = "${'y'.repeat(262_140)}"\n`,
];

function nested(depth: number, kind: 'array' | 'object'): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i += 1) value = kind === 'array' ? [value] : { a: value };
  return value;
}

// As deep as the SDK client can serialise (its JSON.stringify gives out near 5,000 levels); the test sends
// deeper documents as raw lines.
const DEEP: readonly unknown[] = [nested(3000, 'array'), nested(3000, 'object'), nested(200, 'object')];

const ODD_UNICODE: readonly string[] = [
  '\uD800',
  '\uDFFF',
  'a\uDC00b',
  '\u202Eevil\u202C',
  '\u200B',
  '\uFEFF',
  '\u0001\u001b[31m\u0007',
  'e\u0301\u0301\u0301',
  '\uFFFD',
  '\u{10FFFF}',
  '\r\n\u2028\u2029',
];

/** Names and refs that try to leave the project, hide an option, or fool a decoder. */
export function hostilePaths(scene: { project: string; sentinel: string; parent: string }): string[] {
  return [
    '.',
    '..',
    'src',
    './discern.toml',
    '../../etc/passwd',
    '../sentinel/secret.txt',
    '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    '..%2F..%2Fdiscern.toml',
    '/etc',
    '/etc/passwd',
    '/',
    '/proc/self/environ',
    '/dev/null',
    '/dev/zero',
    'C:\\Windows\\System32',
    'C:/',
    '\\\\server\\share',
    '//server/share',
    `${scene.project}/../sentinel`,
    `${scene.project}/escape`,
    `${scene.project}/escape/secret.txt`,
    `${scene.project}/discern/map/10-guide/leak.md`,
    scene.sentinel,
    `${scene.sentinel}/secret.txt`,
    scene.parent,
    `${scene.project}/%2e%2e/sentinel`,
    `${scene.project}\u0000/etc`,
    `${scene.project}/nope/deeper`,
    '-h',
    '--help',
    `--output=${scene.sentinel}/pwned`,
    `--exec=touch ${scene.sentinel}/pwned`,
    '-c core.pager=touch',
    `$(touch ${scene.sentinel}/pwned)`,
    `\`touch ${scene.sentinel}/pwned\``,
    `; touch ${scene.sentinel}/pwned`,
    'HEAD@{-1}',
    '@',
    ':/',
    'main..',
    'main~999',
    'main^{tree}',
    'refs/heads/../../config',
    'agent/',
    '.git',
    '.git/config',
    'escape',
  ];
}

const WRONG_TYPES: readonly unknown[] = [
  'yes',
  '',
  0,
  -1,
  1.5,
  1e300,
  2 ** 53 + 1,
  true,
  false,
  null,
  [],
  [1, 'x'],
  {},
  { a: 1 },
];

const UNDECLARED: readonly string[] = [
  'verbose',
  '__proto__',
  'constructor',
  'toString',
  '',
  'a\u0000b',
  'PATH',
  '../x',
  '\uD800',
  'k'.repeat(10_000),
];

/** The arbitrary for one tool: valid arguments most of the time, each hostile family some of the time. */
export function hostileCases(
  schema: JsonSchema,
  pools: Readonly<Record<string, readonly unknown[]>>,
  paths: readonly string[],
  tame: (args: Record<string, unknown>) => Record<string, unknown> = (a) => a,
): fc.Arbitrary<HostileCase> {
  const properties = Object.keys((schema['properties'] ?? {}) as object);
  const valid = (arbitraryFor(schema, { pools }) as fc.Arbitrary<Record<string, unknown>>).map(tame);
  const withKey = <T>(values: fc.Arbitrary<T>, keys: readonly string[]): fc.Arbitrary<Record<string, unknown>> =>
    fc
      .tuple(valid, fc.constantFrom(...(keys.length > 0 ? keys : ['path'])), values)
      .map(([args, key, value]) => ({ ...args, [key]: value }));
  const strings = properties.filter(
    (p) => typeof (schema['properties'] as Record<string, JsonSchema>)[p]?.['type'] === 'string' || p === 'path',
  );
  const stringKeys = strings.length > 0 ? strings : properties;
  const spice = (odd: readonly string[]): fc.Arbitrary<string> =>
    fc.tuple(fc.constantFrom(...odd), fc.constantFrom(...paths, 'x', 'main')).map(([o, p]) => `${p}${o}${p}`);
  const kinds: { weight: number; arbitrary: fc.Arbitrary<HostileCase> }[] = [
    { weight: 10, arbitrary: valid.map((args) => ({ kind: 'valid' as const, args })) },
    {
      weight: 2,
      arbitrary: withKey(
        fc.jsonValue({ maxDepth: 2 }),
        UNDECLARED.filter((k) => !properties.includes(k)),
      ).map((args) => ({ kind: 'undeclared' as const, args })),
    },
    {
      weight: 2,
      arbitrary: withKey(fc.constantFrom(...WRONG_TYPES), properties).map((args) => ({
        kind: 'wrong-type' as const,
        args,
      })),
    },
    {
      weight: 1,
      arbitrary: withKey(fc.constantFrom(...HUGE_STRINGS), stringKeys).map((args) => ({ kind: 'huge' as const, args })),
    },
    {
      weight: 1,
      arbitrary: withKey(fc.constantFrom(...DEEP), [...properties, 'deep']).map((args) => ({
        kind: 'deep' as const,
        args,
      })),
    },
    {
      weight: 4,
      arbitrary: withKey(fc.constantFrom(...paths), stringKeys).map((args) => ({ kind: 'path' as const, args })),
    },
    {
      weight: 2,
      arbitrary: withKey(spice(['\u0000', 'a\u0000', '\u0000\u0000']), stringKeys).map((args) => ({
        kind: 'nul' as const,
        args,
      })),
    },
    {
      weight: 2,
      arbitrary: withKey(spice(ODD_UNICODE), stringKeys).map((args) => ({ kind: 'unicode' as const, args })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom<unknown>([], ['path'], 'path', 42, true, null)
        .map((args) => ({ kind: 'not-an-object' as const, args })),
    },
  ];
  return fc.oneof(...kinds);
}

/** A short, printable rendering of a case's arguments (huge values abbreviated, deep ones cut) for failure messages. */
export function describeArgs(args: unknown): string {
  const text = brief(args, 0);
  return text.length > 600 ? `${text.slice(0, 600)}…(${text.length} chars)` : text;
}

// By hand rather than JSON.stringify with a replacer, which runs out of stack on 5,000 levels.
function brief(value: unknown, depth: number): string {
  if (depth > 6) return '…';
  if (typeof value === 'string')
    return JSON.stringify(value.length > 120 ? `${value.slice(0, 40)}…(${value.length} chars)` : value);
  if (Array.isArray(value))
    return `[${value
      .slice(0, 8)
      .map((v) => brief(v, depth + 1))
      .join(',')}${value.length > 8 ? ',…' : ''}]`;
  if (typeof value === 'object' && value !== null)
    return `{${Object.entries(value)
      .map(([k, v]) => `${brief(k, 0)}:${brief(v, depth + 1)}`)
      .join(',')}}`;
  return String(value);
}
