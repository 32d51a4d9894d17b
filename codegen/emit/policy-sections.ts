// spec/policy.yaml → generated/policy-sections.ts: the closed list of discern.toml keys that are not policy.
// Checked here so the list can never name a key the config schema lacks.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { withCodeHeader } from './provenance.js';
import { configKeyExists } from './config-migrations.js';

const SOURCE = 'spec/policy.yaml';

export function emitPolicySections(root: string): Map<string, string> {
  const spec = parse(readFileSync(join(root, SOURCE), 'utf8')) as { not_policy: { key: string; why: string }[] };
  const schema = JSON.parse(readFileSync(join(root, 'spec/config.schema.json'), 'utf8')) as Record<string, unknown>;
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const entry of spec.not_policy) {
    if (typeof entry.why !== 'string' || entry.why.trim() === '')
      problems.push(`${entry.key}: say why it is not policy`);
    if (seen.has(entry.key)) problems.push(`${entry.key} is listed twice`);
    seen.add(entry.key);
    const path = entry.key.split('.');
    if (path.length > 2) problems.push(`${entry.key}: a section or one key of a section, no deeper`);
    if (!configKeyExists(schema, path)) problems.push(`${entry.key} is not a key of spec/config.schema.json`);
  }
  if (problems.length > 0) throw new Error(`${SOURCE}: ${problems.join('; ')}`);
  const keys = spec.not_policy.map((e) => e.key.split('.'));
  const body = `/** discern.toml keys that are not policy (a section, or one key of a section); everything else is. */
export const NOT_POLICY: readonly (readonly string[])[] = ${JSON.stringify(keys)};
`;
  return new Map([['generated/policy-sections.ts', withCodeHeader([SOURCE], body)]]);
}
