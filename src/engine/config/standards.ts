// The [standards.<name>] tables with their defaults applied: metric defaults to the table name, scale to 1,
// margin to 0, measure to gate.
import type { DiscernConfig } from '../../../generated/types.js';
import { commandList } from './commands.js';

export type StandardPer =
  | { kind: 'metric'; metric: string }
  | { kind: 'extent'; extent: 'files' | 'lines' | 'words' | 'bytes'; pathspecs: string[] };

export interface StandardDefinition {
  name: string;
  direction: 'up' | 'down';
  limit: number;
  commands: string[];
  metric: string;
  per?: StandardPer;
  scale: number;
  margin: number;
  measure: 'gate' | 'on-demand';
  inputs?: readonly string[];
  timeout?: number;
}

type StandardTable = NonNullable<NonNullable<DiscernConfig['standards']>[string]>;

export function configuredStandards(config: DiscernConfig): StandardDefinition[] {
  const out: StandardDefinition[] = [];
  for (const [name, table] of Object.entries(config.standards ?? {})) {
    if (table !== undefined) out.push(standardDefinition(name, table));
  }
  return out;
}

/** One [standards.<name>] table with its defaults applied (also used on the trunk's committed tables). */
export function standardDefinition(name: string, table: StandardTable): StandardDefinition {
  return {
    name,
    direction: table.direction,
    limit: table.limit,
    commands: commandList(table.run),
    metric: table.metric ?? name,
    ...(table.per !== undefined ? { per: perOf(table.per) } : {}),
    scale: table.scale ?? 1,
    margin: table.margin ?? 0,
    measure: table.measure ?? 'gate',
    ...(table.inputs !== undefined ? { inputs: table.inputs } : {}),
    ...(table.timeout !== undefined ? { timeout: table.timeout } : {}),
  };
}

/**
 * How a standard's value is obtained — everything but its limit, margin and timeout. Changing any of it (the
 * command, the metric, per, scale, on-demand, the inputs that decide replay) can move a value past a limit
 * without moving the limit, so against the trunk it counts as loosening.
 */
export function measurementOf(def: StandardDefinition): Record<string, unknown> {
  return {
    commands: def.commands,
    metric: def.metric,
    per: def.per ?? null,
    scale: def.scale,
    measure: def.measure,
    inputs: def.inputs ?? null,
  };
}

function perOf(per: NonNullable<NonNullable<NonNullable<DiscernConfig['standards']>[string]>['per']>): StandardPer {
  if (typeof per === 'string') return { kind: 'metric', metric: per };
  const [extent, spec] = Object.entries(per).find(([, v]) => v !== undefined) ?? ['files', []];
  return {
    kind: 'extent',
    extent: extent as 'files' | 'lines' | 'words' | 'bytes',
    pathspecs: Array.isArray(spec) ? spec : [String(spec)],
  };
}
