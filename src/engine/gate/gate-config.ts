// The gate's view of discern.toml: producers, settings, [generated] ownership and the scope matchers, with
// every glob compiled up front. A glob that cannot be compiled is a configuration problem reported with its
// dotted key, before anything runs.
import type { DiscernConfig, DiscernConfigIssue } from '../../../generated/types.js';
import { dotted } from '../config/load-result.js';
import { gateSettings, type GateSettings } from '../config/gate-settings.js';
import { compiledScopes } from '../config/scopes.js';
import { configuredStandards, type StandardDefinition } from '../config/standards.js';
import { compilePattern, type CompiledScope } from '../scopes/index.js';
import { compileCheckpoints } from '../checkpoints/definitions.js';
import type { GeneratedPaths } from './drift.js';
import { producerCatalog, type ProducerCatalog } from './producers.js';

export interface GateConfig {
  settings: GateSettings;
  catalog: ProducerCatalog;
  standards: StandardDefinition[];
  generated: GeneratedPaths;
  scopes: CompiledScope[];
}

export function gateConfig(
  config: DiscernConfig,
): { ok: true; gate: GateConfig } | { ok: false; issues: [DiscernConfigIssue, ...DiscernConfigIssue[]] } {
  const issues: DiscernConfigIssue[] = [];
  const scopes = compiledScopes(config);
  issues.push(...scopes.issues);
  const owners: ((path: string) => boolean)[] = [];
  for (const [name, table] of Object.entries(config.generated ?? {})) {
    table?.paths.forEach((pattern, index) => {
      const compiled = compilePattern(pattern);
      if (compiled.ok) owners.push(compiled.test);
      else
        issues.push({
          kind: 'invalid_config',
          path: dotted(['generated', name, 'paths', String(index)]),
          message: `pattern "${pattern}" ${compiled.reason}`,
        });
    });
  }
  for (const [name, table] of Object.entries(config.standards ?? {})) {
    table?.inputs?.forEach((pattern, index) => {
      const compiled = compilePattern(pattern);
      if (!compiled.ok)
        issues.push({
          kind: 'invalid_config',
          path: dotted(['standards', name, 'inputs', String(index)]),
          message: `pattern "${pattern}" ${compiled.reason}`,
        });
    });
  }
  // A [checkpoints] table this file cannot use is refused here too, though the merge-base's file is the one
  // that governs: what lands from this file governs later branches.
  issues.push(...compileCheckpoints(config).issues);
  const [first, ...rest] = issues;
  if (first !== undefined) return { ok: false, issues: [first, ...rest] };
  const settings = gateSettings(config);
  return {
    ok: true,
    gate: {
      settings,
      catalog: producerCatalog(config, settings),
      standards: configuredStandards(config),
      generated: { owns: (path) => owners.some((test) => test(path)) },
      scopes: scopes.scopes,
    },
  };
}
