// What reading discern.toml gives: the validated configuration, or a classified problem with a location. Its
// own module, so the readers that load lazily (the schema validator, the schema-version check) can name it
// without importing the loader that loads them.
import type { DiscernConfig, DiscernConfigIssue } from '../../../generated/types.js';

export type ConfigProblemSlug =
  'invalid_toml' | 'invalid_config' | 'unknown_key' | 'read_failed' | 'renamed_config_key' | 'schema_version_too_new';

export type ConfigLoad =
  | { ok: true; config: DiscernConfig; text: string }
  | { ok: false; error: ConfigProblemSlug; message: string; where: string; issues: DiscernConfigIssue[] };

/** A key path written as TOML would: bare keys as they are, others quoted (`scopes."my docs".paths`). */
export function dotted(keys: readonly string[]): string {
  return keys.map((k) => (/^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k))).join('.');
}
