// The never-loosen rule: a branch may not lower a floor, raise a ceiling, flip a direction, delete a standard
// the trunk's committed discern.toml sets, or change how its value is obtained (command, metric, per, scale,
// measure, inputs) — each could carry a value past a limit without touching the limit. Only [standards] of the
// trunk's file is read, leniently: a trunk config written for another discern version still compares as long
// as its TOML parses and its standards have a direction, a limit and a command.
import { parse } from 'smol-toml';
import { measurementOf, standardDefinition, type StandardDefinition } from '../config/standards.js';
import { canonicalJson } from './canonical-json.js';

export type TrunkStandards = { ok: true; standards: StandardDefinition[] } | { ok: false; reason: string };

export function readTrunkStandards(text: string): TrunkStandards {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (error) {
    return {
      ok: false,
      reason: `its discern.toml is not valid TOML: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    };
  }
  const standards = (doc as { standards?: unknown }).standards;
  if (standards === undefined) return { ok: true, standards: [] };
  if (typeof standards !== 'object' || standards === null || Array.isArray(standards))
    return { ok: false, reason: 'its [standards] is not a table' };
  const out: StandardDefinition[] = [];
  for (const [name, table] of Object.entries(standards as Record<string, unknown>)) {
    const t = JSON.parse(JSON.stringify(table)) as { direction?: unknown; limit?: unknown; run?: unknown };
    const run = t.run;
    if (
      (t.direction !== 'up' && t.direction !== 'down') ||
      typeof t.limit !== 'number' ||
      !(typeof run === 'string' || (Array.isArray(run) && run.every((c) => typeof c === 'string')))
    ) {
      return { ok: false, reason: `its [standards.${name}] has no valid direction, limit and run` };
    }
    out.push(standardDefinition(name, t as Parameters<typeof standardDefinition>[1]));
  }
  return { ok: true, standards: out };
}

/** How one standard of the trunk's is loosened on this branch. Only a `limit` breach can be proposed. */
export interface LimitBreach {
  name: string;
  kind: 'deleted' | 'direction' | 'limit' | 'measurement';
  direction: 'up' | 'down';
  /** The trunk's limit. */
  from: number;
  /** This branch's limit (kind limit, or a changed measurement with its limit). */
  to?: number;
  sentence: string;
}

/** Every standard this branch loosens against the trunk, in the trunk's order; empty when nothing loosened. */
export function limitBreaches(
  trunk: readonly StandardDefinition[],
  current: readonly StandardDefinition[],
): LimitBreach[] {
  const out: LimitBreach[] = [];
  for (const t of trunk) {
    const c = current.find((s) => s.name === t.name);
    const base = { name: t.name, direction: t.direction, from: t.limit };
    if (c === undefined)
      out.push({
        ...base,
        kind: 'deleted',
        sentence: `[standards.${t.name}] is deleted; the trunk holds it at ${t.direction === 'up' ? '≥' : '≤'} ${t.limit}`,
      });
    else if (c.direction !== t.direction)
      out.push({
        ...base,
        kind: 'direction',
        sentence: `[standards.${t.name}] direction changed from ${t.direction} to ${c.direction}`,
      });
    else if (t.direction === 'up' && c.limit < t.limit)
      out.push({
        ...base,
        kind: 'limit',
        to: c.limit,
        sentence: `[standards.${t.name}] floor lowered from ${t.limit} to ${c.limit}`,
      });
    else if (t.direction === 'down' && c.limit > t.limit)
      out.push({
        ...base,
        kind: 'limit',
        to: c.limit,
        sentence: `[standards.${t.name}] ceiling raised from ${t.limit} to ${c.limit}`,
      });
    else if (canonicalJson(measurementOf(c)) !== canonicalJson(measurementOf(t)))
      out.push({
        ...base,
        kind: 'measurement',
        to: c.limit,
        sentence: `[standards.${t.name}] changes how its value is measured (${changedKeys(t, c).join(', ')})`,
      });
  }
  return out;
}

/** One sentence per loosened standard; empty when nothing loosened. */
export function loosenedStandards(
  trunk: readonly StandardDefinition[],
  current: readonly StandardDefinition[],
): string[] {
  return limitBreaches(trunk, current).map((b) => b.sentence);
}

function changedKeys(t: StandardDefinition, c: StandardDefinition): string[] {
  const a = measurementOf(t);
  const b = measurementOf(c);
  const names: Record<string, string> = {
    commands: 'run',
    metric: 'metric',
    per: 'per',
    scale: 'scale',
    measure: 'measure',
    inputs: 'inputs',
  };
  return Object.keys(a)
    .filter((k) => canonicalJson(a[k]) !== canonicalJson(b[k]))
    .map((k) => names[k] ?? k);
}
