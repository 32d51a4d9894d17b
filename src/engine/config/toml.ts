// discern.toml's bytes as a TOML document: UTF-8 decoding and parsing, with syntax problems located by line
// and column. The value is a plain JSON-like object (smol-toml builds null-prototype objects).
import { parse, TomlError } from 'smol-toml';
import type { ConfigLoad } from './load-result.js';
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
  return { ok: true, text, value: JSON.parse(JSON.stringify(value)) as unknown };
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
