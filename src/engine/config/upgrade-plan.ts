// The configuration upgrade as a pure plan: which format steps a file of a given version needs, which of their
// renames apply to this file (with the old key's line), and the migrated text. Applying it is writing the text.
import { CONFIG_MIGRATIONS, CONFIG_SCHEMA_VERSION } from '../../../generated/config-migrations.js';
import { renameKey, setValue } from '../toml-edit/index.js';
import { dotted, lookup, parseTree } from '../toml-edit/values.js';
import { locateKey } from './locate.js';
import { declaredVersion } from './schema-version.js';

export interface PlannedRename {
  from: string;
  to: string;
  line?: number;
}

export interface UpgradePlan {
  fromVersion: number;
  toVersion: number;
  migrations: { from: number; to: number; summary: string; renames: PlannedRename[] }[];
  /** The migrated text; equal to the input when nothing changes. */
  text: string;
}

/** Throws TomlEditError when the text cannot be parsed or a rename cannot be applied (its target already set). */
export function planUpgrade(text: string): UpgradePlan {
  const fromVersion = declaredVersion(parseTree(text));
  const steps = CONFIG_MIGRATIONS.filter((m) => m.from >= fromVersion);
  let migrated = text;
  const migrations = steps.map((m) => {
    const renames: PlannedRename[] = [];
    for (const r of m.renames) {
      if (lookup(parseTree(migrated), r.from) === undefined) continue;
      const at = locateKey(text, [...r.from]);
      renames.push({ from: dotted(r.from), to: dotted(r.to), ...(at ? { line: at.line } : {}) });
      migrated = renameKey(migrated, r.from, r.to);
    }
    return { from: m.from, to: m.from + 1, summary: m.summary, renames };
  });
  if (steps.length > 0) migrated = setValue(migrated, ['meta', 'schema_version'], CONFIG_SCHEMA_VERSION);
  return { fromVersion, toVersion: CONFIG_SCHEMA_VERSION, migrations, text: migrated };
}
