// The never-loosen rule: a branch may not lower a floor, raise a ceiling, flip a direction or delete a
// standard that the trunk's committed discern.toml sets. Only [standards] of the trunk's file is read, and
// leniently: a trunk config written for another discern version still compares as long as its TOML parses.
import { parse } from 'smol-toml';
import type { StandardDefinition } from '../config/standards.js';

export interface TrunkLimit {
  name: string;
  direction: 'up' | 'down';
  limit: number;
}

export type TrunkLimits = { ok: true; limits: TrunkLimit[] } | { ok: false; reason: string };

export function readTrunkLimits(text: string): TrunkLimits {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (error) {
    return { ok: false, reason: `its discern.toml is not valid TOML: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}` };
  }
  const standards = (doc as { standards?: unknown }).standards;
  if (standards === undefined) return { ok: true, limits: [] };
  if (typeof standards !== 'object' || standards === null || Array.isArray(standards)) return { ok: false, reason: 'its [standards] is not a table' };
  const limits: TrunkLimit[] = [];
  for (const [name, table] of Object.entries(standards as Record<string, unknown>)) {
    const t = table as { direction?: unknown; limit?: unknown };
    if ((t.direction !== 'up' && t.direction !== 'down') || typeof t.limit !== 'number') {
      return { ok: false, reason: `its [standards.${name}] has no valid direction and limit` };
    }
    limits.push({ name, direction: t.direction, limit: t.limit });
  }
  return { ok: true, limits };
}

/** One sentence per loosened standard; empty when nothing loosened. */
export function loosenedStandards(trunk: readonly TrunkLimit[], current: readonly Pick<StandardDefinition, 'name' | 'direction' | 'limit'>[]): string[] {
  const out: string[] = [];
  for (const t of trunk) {
    const c = current.find((s) => s.name === t.name);
    if (c === undefined) out.push(`[standards.${t.name}] is deleted; the trunk holds it at ${t.direction === 'up' ? '≥' : '≤'} ${t.limit}`);
    else if (c.direction !== t.direction) out.push(`[standards.${t.name}] direction changed from ${t.direction} to ${c.direction}`);
    else if (t.direction === 'up' && c.limit < t.limit) out.push(`[standards.${t.name}] floor lowered from ${t.limit} to ${c.limit}`);
    else if (t.direction === 'down' && c.limit > t.limit) out.push(`[standards.${t.name}] ceiling raised from ${t.limit} to ${c.limit}`);
  }
  return out;
}
