// spec/config-migrations.yaml → generated/config-migrations.ts: the configuration format's current version and
// the key renames from each older one. Checked here so a migration can never name a key the schema lacks or
// skip a version.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { withCodeHeader } from './provenance.js';

interface Migration {
  from: number;
  summary: string;
  renames: { from: string[]; to: string[] }[];
}

const SOURCE = 'spec/config-migrations.yaml';

export function emitConfigMigrations(root: string): Map<string, string> {
  const spec = parse(readFileSync(join(root, SOURCE), 'utf8')) as { current: number; migrations: Migration[] };
  const schema = JSON.parse(readFileSync(join(root, 'spec/config.schema.json'), 'utf8')) as Record<string, unknown>;
  const problems: string[] = [];
  if (!Number.isInteger(spec.current) || spec.current < 1) problems.push('`current` must be an integer ≥ 1');
  const declared = (schema as { $defs: Record<string, { properties?: Record<string, { default?: unknown }> }> }).$defs[
    'MetaSection'
  ]?.properties?.['schema_version']?.default;
  if (declared !== spec.current)
    problems.push(
      `current ${spec.current} differs from spec/config.schema.json [meta] schema_version default ${String(declared)}`,
    );
  spec.migrations.forEach((m, i) => {
    if (m.from !== i) problems.push(`migrations[${i}] must migrate from version ${i}, found ${m.from}`);
    for (const r of m.renames) {
      if (!configKeyExists(schema, r.to))
        problems.push(`migrations[${i}]: ${r.to.join('.')} is not a key of spec/config.schema.json`);
      if (configKeyExists(schema, r.from))
        problems.push(`migrations[${i}]: ${r.from.join('.')} is still a key of spec/config.schema.json`);
    }
  });
  if (spec.migrations.length !== spec.current)
    problems.push(`there must be one migration per version below ${spec.current}`);
  if (problems.length > 0) throw new Error(`${SOURCE}: ${problems.join('; ')}`);
  const body = `/** The configuration format this discern writes and reads ([meta] schema_version). */
export const CONFIG_SCHEMA_VERSION = ${spec.current};

export interface ConfigMigration {
  /** Migrates a file of this version to the next. */
  from: number;
  summary: string;
  renames: readonly { from: readonly string[]; to: readonly string[] }[];
}

export const CONFIG_MIGRATIONS: readonly ConfigMigration[] = ${JSON.stringify(spec.migrations, null, 2)};
`;
  return new Map([['generated/config-migrations.ts', withCodeHeader([SOURCE], body)]]);
}

/** Whether a dotted key is a property of the config schema (following $refs into $defs). */
export function configKeyExists(schema: Record<string, unknown>, path: readonly string[]): boolean {
  const defs = (schema['$defs'] ?? {}) as Record<string, Record<string, unknown>>;
  let node: Record<string, unknown> | undefined = schema;
  for (const key of path) {
    const ref = node?.['$ref'];
    if (typeof ref === 'string') node = defs[ref.replace('#/$defs/', '')];
    const props = node?.['properties'] as Record<string, Record<string, unknown>> | undefined;
    node = props?.[key];
    if (node === undefined) return false;
  }
  return true;
}
