// The configuration format's version gate, checked before schema validation: a file written for a newer
// discern is refused as such (not as a pile of unknown keys), and an older file that still uses a renamed key
// is refused with the key's new name and `discern upgrade`, instead of "is not a key discern honours".
import { CONFIG_MIGRATIONS, CONFIG_SCHEMA_VERSION } from '../../../generated/config-migrations.js';
import type { DiscernConfigIssue } from '../../../generated/types.js';
import { dotted, type ConfigLoad } from './load-result.js';
import { locateKey } from './locate.js';

type Problem = Extract<ConfigLoad, { ok: false }>;

/** The file's [meta] schema_version; a file without one is read as the current format. */
export function declaredVersion(value: unknown): number {
  const meta = (value as { meta?: { schema_version?: unknown } } | undefined)?.meta;
  return typeof meta?.schema_version === 'number' ? meta.schema_version : CONFIG_SCHEMA_VERSION;
}

/** Renames still pending for a file of `version`: each one whose old key the file still has. */
export function pendingRenames(value: unknown, version: number): { from: readonly string[]; to: readonly string[] }[] {
  return CONFIG_MIGRATIONS.filter((m) => m.from >= version).flatMap((m) => m.renames.filter((r) => has(value, r.from)));
}

export function schemaVersionProblem(value: unknown, text: string, file: string): Problem | undefined {
  const version = declaredVersion(value);
  if (Number.isInteger(version) && version > CONFIG_SCHEMA_VERSION) {
    const at = locateKey(text, ['meta', 'schema_version']);
    const issue: DiscernConfigIssue = {
      path: 'meta.schema_version',
      message: `is ${version}; this discern reads up to ${CONFIG_SCHEMA_VERSION}`,
      ...(at ? { line: at.line, column: at.column } : {}),
    };
    return {
      ok: false,
      error: 'schema_version_too_new',
      message: `${file} was written for a newer discern: its [meta] schema_version is ${version}, and this discern reads formats up to ${CONFIG_SCHEMA_VERSION}.`,
      where: where(issue),
      issues: [issue],
    };
  }
  const renames = pendingRenames(value, version);
  if (renames.length === 0) return undefined;
  const issues = renames.map((r) => {
    const at = locateKey(text, [...r.from]);
    return {
      kind: 'unknown_key' as const,
      path: dotted(r.from),
      message: `was renamed to \`${dotted(r.to)}\``,
      ...(at ? { line: at.line, column: at.column } : {}),
    };
  });
  const first = issues[0] as DiscernConfigIssue;
  return {
    ok: false,
    error: 'renamed_config_key',
    message: `${file} uses ${issues.length === 1 ? 'a key' : 'keys'} from an older configuration format: ${renames.map((r) => `\`${dotted(r.from)}\` is now \`${dotted(r.to)}\``).join(', ')}. \`discern upgrade\` renames ${issues.length === 1 ? 'it' : 'them'} in place.`,
    where: where(first),
    issues,
  };
}

function has(value: unknown, path: readonly string[]): boolean {
  let node: unknown = value;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || !(key in node)) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return true;
}

function where(issue: DiscernConfigIssue): string {
  return issue.line !== undefined ? `key \`${issue.path}\` (line ${issue.line})` : `key \`${issue.path}\``;
}
