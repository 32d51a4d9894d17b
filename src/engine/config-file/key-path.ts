// A dotted key as people type it on the command line — `repository.trunk`, `scopes."my docs".paths` — read
// with the TOML key grammar itself, so quoting works the same as in discern.toml.
import { tokenize } from '../toml-edit/tokens.js';
import { TomlEditError } from '../toml-edit/errors.js';

export type KeyPath = { ok: true; path: string[] } | { ok: false; problem: string };

export function parseKeyPath(key: string): KeyPath {
  if (/[\r\n]/.test(key)) return { ok: false, problem: 'a key is one line' };
  try {
    const tokens = tokenize(`${key} = 0`);
    const equals = tokens.findIndex((t) => t.kind === 'equals');
    const parts = tokens.slice(0, equals).filter((t) => t.kind === 'key');
    const shape = tokens.slice(0, equals).every((t) => t.kind === 'key' || t.kind === 'dot' || t.kind === 'whitespace');
    if (equals < 0 || parts.length === 0 || !shape) return { ok: false, problem: 'it is not a dotted key' };
    return { ok: true, path: parts.map((t) => t.name ?? '') };
  } catch (error) {
    if (error instanceof TomlEditError)
      return { ok: false, problem: 'it is not a dotted key (quote a part that holds spaces or dots)' };
    throw error;
  }
}
