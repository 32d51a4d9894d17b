// discern.toml's bytes as a TOML document: UTF-8 decoding and parsing, with syntax problems located by line
// and column. The value is a plain JSON-like object (smol-toml builds null-prototype objects).
import { parse, TomlError } from 'smol-toml';
import { dotted, type ConfigLoad } from './load-result.js';
import { locateKey } from './locate.js';
import type { Location } from './locate.js';

export type Decoded =
  { ok: true; text: string; value: unknown } | { ok: false; problem: Extract<ConfigLoad, { ok: false }> };

export function decodeToml(bytes: Uint8Array, displayName: string): Decoded {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return { ok: false, problem: syntaxProblem(displayName, 'is not UTF-8 text; TOML files are UTF-8.', undefined) };
  }
  let value: unknown;
  try {
    value = parse(text);
  } catch (error) {
    if (error instanceof TomlError)
      return {
        ok: false,
        problem: syntaxProblem(displayName, `is not valid TOML: ${tomlErrorReason(error)}.`, {
          line: error.line,
          column: error.column,
        }),
      };
    throw error;
  }
  // No key of discern.toml takes a date or time: one is a mistake (an unquoted value), never a string to run.
  const dates = dateTimePaths(value, []);
  if (dates.length > 0) return { ok: false, problem: dateTimeProblem(displayName, text, dates) };
  return { ok: true, text, value: JSON.parse(JSON.stringify(value)) as unknown };
}

/**
 * Where the document holds a TOML date, time or date-time (smol-toml gives them as Date objects). Walked with
 * a stack of its own: a document nested thousands of tables deep must not overflow the call stack.
 */
function dateTimePaths(value: unknown, path: string[]): string[][] {
  const found: string[][] = [];
  const pending: [unknown, string[]][] = [[value, path]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [at, keys] = next;
    if (at instanceof Date) found.push(keys);
    else if (Array.isArray(at)) at.forEach((v, i) => pending.push([v, [...keys, String(i)]]));
    else if (typeof at === 'object' && at !== null)
      for (const [k, v] of Object.entries(at)) pending.push([v, [...keys, k]]);
  }
  return found.reverse();
}

function dateTimeProblem(file: string, text: string, paths: string[][]): Extract<ConfigLoad, { ok: false }> {
  const reason = 'is a TOML date or time, which no key of discern.toml takes; quote it if it is text';
  const issues = paths.map((path) => {
    // An array element is located by its array's key.
    const keys = path.filter((k, i) => !(/^\d+$/.test(k) && i > 0));
    const at = locateKey(text, keys);
    return {
      kind: 'invalid_config' as const,
      path: dotted(path),
      message: reason,
      ...(at ? { line: at.line, column: at.column } : {}),
    };
  });
  const first = issues[0] as (typeof issues)[number];
  const where = first.line !== undefined ? `key \`${first.path}\` (line ${first.line})` : `key \`${first.path}\``;
  return {
    ok: false,
    error: 'invalid_config',
    message: `${file}: \`${first.path}\`${first.line !== undefined ? ` (line ${first.line})` : ''} ${reason}. See \`discern docs configuration\`.`,
    where,
    issues,
  };
}

function syntaxProblem(file: string, reason: string, at: Location | undefined): Extract<ConfigLoad, { ok: false }> {
  const where = at ? `line ${at.line}, column ${at.column}` : 'the start of the file';
  return {
    ok: false,
    error: 'invalid_toml',
    message: `${file} ${reason}${at ? ` (line ${at.line}, column ${at.column})` : ''}`,
    where,
    issues: [
      { kind: 'invalid_toml', path: file, message: reason, ...(at ? { line: at.line, column: at.column } : {}) },
    ],
  };
}

/** A smol-toml syntax error's first line, without the parser's prefix: what to tell a person. */
export function tomlErrorReason(error: TomlError): string {
  return (error.message.split('\n')[0] ?? '').replace(/^Invalid TOML document: /, '');
}
