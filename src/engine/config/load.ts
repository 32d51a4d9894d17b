// Reads discern.toml into a validated configuration, or a classified problem with a location: invalid_toml
// (syntax, with line and column), unknown_key (a key nothing honours, by dotted path), invalid_config (a value
// of the wrong type or shape), read_failed (the file cannot be read).
//
// The schema validator is the largest module on the CLI's path, so it loads only when needed: a text already
// validated under the same schema (the known-valid cache, keyed by the schema's digest and the text) is taken
// as valid without it.
import { readFile } from 'node:fs/promises';
import type { DiscernConfig } from '../../../generated/types.js';
import { decodeToml } from './toml.js';
import { withVariables } from './substitutions.js';
import type { KnownValid } from './known-valid.js';
import type { ConfigLoad } from './load-result.js';

export async function loadConfig(
  path: string,
  displayName = 'discern.toml',
  options: { knownValid?: KnownValid } = {},
): Promise<ConfigLoad> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    return {
      ok: false,
      error: 'read_failed',
      message: `${displayName} cannot be read (${code}).`,
      where: path,
      issues: [{ path: displayName, message: `cannot be read (${code})` }],
    };
  }
  const decoded = decodeToml(bytes, displayName);
  if (!decoded.ok) return decoded.problem;
  if (options.knownValid && (await options.knownValid.has(decoded.text)))
    // Known valid: every variable it uses has a value (validateDecoded refuses the text otherwise).
    return { ok: true, config: withVariables(decoded.value as DiscernConfig).config, text: decoded.text };
  const { validateDecoded } = await import('./validate.js');
  const { schemaVersionProblem } = await import('./schema-version.js');
  const versioned = schemaVersionProblem(decoded.value, decoded.text, displayName);
  if (versioned) return versioned;
  const loaded = validateDecoded(decoded.value, decoded.text, displayName);
  if (loaded.ok) await options.knownValid?.add(decoded.text);
  return loaded;
}
