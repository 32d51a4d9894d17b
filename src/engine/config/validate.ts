// Validates a decoded discern.toml against the generated schema validator. Loading a configuration turns Ajv's
// errors into one classified problem (every unknown key, else the most specific error) with its dotted key and
// line; validate-config asks for every problem at once (schemaIssues). Loaded only when the text is not already
// known valid.
import type { ErrorObject } from 'ajv';
import { validateConfig } from '../../../generated/validators/config.js';
import type { DiscernConfig, DiscernConfigIssue } from '../../../generated/types.js';
import { dotted, type ConfigLoad } from './load-result.js';
import { locateKey } from './locate.js';
import { decodeToml } from './toml.js';
import { withVariables, type UnsetVariable } from './substitutions.js';
import { newerDrafter, newerKeyNote } from './newer-drafter.js';
import { jobAccountingIssues } from './job-accounting.js';

/** Decodes and validates in one step (tests, and callers with bytes in hand). */
export function parseConfig(bytes: Uint8Array, displayName = 'discern.toml'): ConfigLoad {
  const decoded = decodeToml(bytes, displayName);
  return decoded.ok ? validateDecoded(decoded.value, decoded.text, displayName) : decoded.problem;
}

export function validateDecoded(value: unknown, text: string, displayName: string): ConfigLoad {
  if (!validateConfig(value)) return schemaProblem(displayName, text, validateConfig.errors ?? [], newerDrafter(value));
  const { config, unset } = withVariables(value as DiscernConfig);
  const problems = [...accountingIssues(config, text, displayName), ...variableIssues(unset, text, displayName)];
  if (problems.length === 0) return { ok: true, config, text };
  const issues = problems.map(({ keys: _keys, ...i }) => i);
  const first = issues[0] as DiscernConfigIssue;
  return {
    ok: false,
    error: 'invalid_config',
    message: `${displayName}: \`${first.path}\` ${first.message}. See \`discern docs configuration\`.`,
    where: describeWhere(first),
    issues,
  };
}

/** Known jobs configured twice over, or both configured and declared not to apply (job-accounting.ts). */
export function accountingIssues(config: DiscernConfig, text: string, file: string): LocatedIssue[] {
  return jobAccountingIssues(config)
    .map((i) => located('invalid_config', file, text, i.keys, i.message))
    .sort(inFileOrder);
}

/** Each use of a variable that has no value, at the key that uses it. */
export function variableIssues(unset: readonly UnsetVariable[], text: string, file: string): LocatedIssue[] {
  return unset
    .map((u) => {
      const keys = u.keys;
      const defining = u.variable.slice(2, -1).replace(/^project\./, '[project] ');
      return located('invalid_config', file, text, keys, `uses ${u.variable}, but ${defining} is not set`);
    })
    .sort(inFileOrder);
}

function schemaProblem(
  file: string,
  text: string,
  errors: readonly ErrorObject[],
  drafter: string | undefined,
): ConfigLoad {
  const unknown = errors.filter((e) => e.keyword === 'additionalProperties');
  if (unknown.length > 0) {
    const issues = unknown
      .map((e) => {
        const path = [
          ...pointerKeys(e.instancePath),
          String((e.params as { additionalProperty: string }).additionalProperty),
        ];
        return issue('unknown_key', file, text, path, unknownKeyDetail(drafter));
      })
      .sort(inFileOrder);
    const first = issues[0] as DiscernConfigIssue;
    const fix = drafter
      ? `${newerKeyNote(drafter)}, or remove ${issues.length === 1 ? 'it' : 'them'}`
      : `Remove or rename ${issues.length === 1 ? 'it' : 'them'}`;
    return {
      ok: false,
      error: 'unknown_key',
      message: `${file} has ${issues.length === 1 ? 'a key' : `${issues.length} keys`} nothing honours: ${issues.map((i) => `\`${i.path}\``).join(', ')}. ${fix.charAt(0).toUpperCase()}${fix.slice(1)}; see \`discern docs configuration\`.`,
      where: describeWhere(first),
      issues,
    };
  }
  const chosen = mostSpecific(errors);
  const path = chosen ? pointerKeys(chosen.instancePath) : [];
  const detail = chosen ? explain(chosen) : 'does not match the configuration schema';
  const first = issue('invalid_config', file, text, path, detail);
  return {
    ok: false,
    error: 'invalid_config',
    message: `${file}: \`${first.path}\` ${detail}. See \`discern docs configuration\`.`,
    where: describeWhere(first),
    issues: [first],
  };
}

/** A schema problem with the keys it names, so a caller can locate or prune it. */
export interface LocatedIssue extends DiscernConfigIssue {
  kind: 'unknown_key' | 'invalid_config';
  keys: string[];
}

/**
 * Every schema problem of a decoded text, in file order: each key nothing honours, and each value of the wrong
 * type or shape. Ajv reports every branch of an anyOf; a branch's complaint is dropped where a deeper problem
 * or another branch explains the value better, and the type complaints of one value are merged
 * ("must be a string, an array or a table").
 */
export function schemaIssues(value: unknown, text: string, file: string): LocatedIssue[] {
  if (validateConfig(value)) return [];
  const drafter = newerDrafter(value);
  const errors = [...(validateConfig.errors ?? [])];
  const found: { keys: string[]; kind: LocatedIssue['kind']; error: ErrorObject }[] = [];
  for (const e of errors) {
    if (COMBINATORS.has(e.keyword)) continue;
    if (e.keyword === 'additionalProperties') {
      found.push({
        keys: [...pointerKeys(e.instancePath), String((e.params as { additionalProperty: string }).additionalProperty)],
        kind: 'unknown_key',
        error: e,
      });
    } else {
      found.push({ keys: pointerKeys(e.instancePath), kind: 'invalid_config', error: e });
    }
  }
  // Ajv reports a failed anyOf at the value it was applied to; every complaint at or below that value came from
  // one of its branches (a schemaPath cannot tell: below a $ref it starts again at the referenced definition).
  const alternatives = errors
    .filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf')
    .map((e) => pointerKeys(e.instancePath));
  const inBranchAt = (keys: string[]): boolean =>
    alternatives.some((a) => a.length <= keys.length && a.every((k, i) => keys[i] === k));
  const under = (keys: string[], prefix: string[]): boolean =>
    keys.length > prefix.length && prefix.every((k, i) => keys[i] === k);
  const same = (a: string[], b: string[]): boolean => a.length === b.length && a.every((k, i) => b[i] === k);
  const kept = found.filter((f) => {
    if (f.kind === 'unknown_key' || !inBranchAt(f.keys)) return true;
    // A branch that rejected the value outright, where a deeper problem shows which branch the value meant.
    if (found.some((o) => o !== f && under(o.keys, f.keys))) return false;
    // A type complaint from one branch, where another branch took the type and found something else wrong.
    if (
      f.error.keyword === 'type' &&
      found.some((o) => o !== f && same(o.keys, f.keys) && o.kind === 'invalid_config' && o.error.keyword !== 'type')
    )
      return false;
    return true;
  });
  const issues: LocatedIssue[] = [];
  const seen = new Set<string>();
  for (const f of kept) {
    const id = JSON.stringify(f.keys);
    if (f.error.keyword === 'type' && f.kind === 'invalid_config') {
      if (seen.has(`type:${id}`)) continue;
      seen.add(`type:${id}`);
      const types = kept
        .filter((o) => o.error.keyword === 'type' && o.kind === 'invalid_config' && same(o.keys, f.keys))
        .flatMap((o) => String((o.error.params as { type: string }).type).split(','));
      issues.push(located('invalid_config', file, text, f.keys, `must be ${typeList([...new Set(types)])}`));
      continue;
    }
    const message = f.kind === 'unknown_key' ? unknownKeyDetail(drafter) : explainFully(f.error);
    if (seen.has(`${id}:${message}`)) continue;
    seen.add(`${id}:${message}`);
    issues.push(located(f.kind, file, text, f.keys, message));
  }
  return issues.sort(inFileOrder);
}

/** An unknown key's detail: a newer discern that drafted the file may have introduced it. */
function unknownKeyDetail(drafter: string | undefined): string {
  return drafter ? `is not a key discern honours (${newerKeyNote(drafter)})` : 'is not a key discern honours';
}

const COMBINATORS = new Set(['anyOf', 'oneOf', 'allOf', 'if', 'not', 'discriminator']);

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  array: 'an array',
  object: 'a table',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  null: 'empty',
};

function typeList(types: readonly string[]): string {
  const words = types.map((t) => TYPE_WORDS[t] ?? t);
  return words.length <= 1 ? (words[0] ?? 'another type') : `${words.slice(0, -1).join(', ')} or ${words.at(-1) ?? ''}`;
}

function located(
  kind: LocatedIssue['kind'],
  file: string,
  text: string,
  keys: string[],
  message: string,
): LocatedIssue {
  return { ...issue(kind, file, text, keys, message), kind, keys };
}

function issue(
  kind: 'unknown_key' | 'invalid_config',
  file: string,
  text: string,
  path: string[],
  message: string,
): DiscernConfigIssue {
  const at = locateKey(text, path);
  return {
    kind,
    path: path.length > 0 ? dotted(path) : file,
    message,
    ...(at ? { line: at.line, column: at.column } : {}),
  };
}

/** Issues in the order a reader meets them in the file; unlocated ones last, by key. */
function inFileOrder(a: DiscernConfigIssue, b: DiscernConfigIssue): number {
  const la = a.line ?? Number.MAX_SAFE_INTEGER;
  const lb = b.line ?? Number.MAX_SAFE_INTEGER;
  return la - lb || (a.column ?? 0) - (b.column ?? 0) || a.path.localeCompare(b.path);
}

function describeWhere(issue: DiscernConfigIssue): string {
  return issue.line !== undefined ? `key \`${issue.path}\` (line ${issue.line})` : `key \`${issue.path}\``;
}

/** explain, in words for the limits too (what validate-config reports; loading keeps explain's wording). */
function explainFully(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'minItems':
      return `needs at least ${String(params['limit'])} ${params['limit'] === 1 ? 'entry' : 'entries'}`;
    case 'maxItems':
      return `has more than ${String(params['limit'])} entries`;
    case 'minLength':
      return params['limit'] === 1
        ? 'must not be empty'
        : `must be at least ${String(params['limit'])} characters long`;
    case 'maxLength':
      return `must be at most ${String(params['limit'])} characters long`;
    case 'minimum':
      return `must be at least ${String(params['limit'])}`;
    case 'maximum':
      return `must be at most ${String(params['limit'])}`;
    case 'exclusiveMinimum':
      return `must be more than ${String(params['limit'])}`;
    case 'uniqueItems':
      return 'lists the same entry twice';
    case 'minProperties':
    case 'maxProperties':
      return params['limit'] === 1 && error.keyword === 'maxProperties'
        ? 'must have exactly one key'
        : (error.message ?? 'has the wrong number of keys');
    default:
      return explain(error);
  }
}

/** With anyOf, Ajv reports every branch; the deepest non-combinator error is the most specific one. */
export function mostSpecific(errors: readonly ErrorObject[]): ErrorObject | undefined {
  const specific = [...errors]
    .filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf')
    .sort((a, b) => b.instancePath.length - a.instancePath.length);
  return specific[0] ?? errors[0];
}

export function explain(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type':
      return `must be ${String(params['type'])}`;
    case 'enum':
      return `must be one of ${(params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'required':
      return `needs \`${String(params['missingProperty'])}\``;
    case 'pattern':
      return 'has characters or a form that is not allowed here';
    case 'propertyNames':
      return 'has a name that is not allowed (letters, digits, _ and - only)';
    default:
      return error.message ?? 'does not match the configuration schema';
  }
}

export function pointerKeys(pointer: string): string[] {
  return pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
}
