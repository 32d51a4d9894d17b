// The default projection of a result's data: every repeated collection the verb's data schema declares
// (generated as CollectionRule[] from spec) is capped, outer collections first, and each cut is recorded as an
// exact omitted count under its dotted path with zero-based array indexes (`fleet`, `gate.jobs.2.commands`).
// One generic function serves every verb with a projection; nothing here knows a field name.
import type { CollectionRule } from '../../generated/registry.js';
import type { DiscernProjection } from '../../generated/types.js';

export function projectCollections<T extends object>(
  data: T,
  rules: readonly CollectionRule[],
): T & { projection: DiscernProjection } {
  const copy = structuredClone(data) as Record<string, unknown>;
  const omitted: Record<string, number> = {};
  // Outer collections are capped before inner ones, so inner counts cover only the items that remain.
  const ordered = [...rules].sort((a, b) => a.path.length - b.path.length);
  for (const rule of ordered) {
    for (const { holder, key, dotted } of locations(copy, rule.path)) {
      const value = holder[key];
      if (!Array.isArray(value) || value.length <= rule.cap) continue;
      omitted[dotted.join('.')] = value.length - rule.cap;
      holder[key] = value.slice(0, rule.cap);
    }
  }
  const projection: DiscernProjection =
    Object.keys(omitted).length > 0 ? { mode: 'orientation', omitted: sortKeys(omitted) } : { mode: 'orientation' };
  return { ...(copy as T), projection };
}

/** The full data, labelled as such. */
export function fullCollections<T extends object>(data: T): T & { projection: DiscernProjection } {
  return { ...data, projection: { mode: 'full' } };
}

interface Location {
  holder: Record<string, unknown>;
  key: string;
  dotted: string[];
}

/** Every concrete place a rule's path names: `*` steps into each item of the array found so far. */
function locations(root: Record<string, unknown>, path: readonly string[]): Location[] {
  let frontier: { value: unknown; dotted: string[] }[] = [{ value: root, dotted: [] }];
  for (let i = 0; i < path.length - 1; i++) {
    const step = path[i] ?? '';
    const next: { value: unknown; dotted: string[] }[] = [];
    for (const { value, dotted } of frontier) {
      if (step === '*') {
        if (Array.isArray(value))
          value.forEach((item, index) => next.push({ value: item, dotted: [...dotted, String(index)] }));
      } else if (isRecord(value) && step in value) {
        next.push({ value: value[step], dotted: [...dotted, step] });
      }
    }
    frontier = next;
  }
  const last = path[path.length - 1] ?? '';
  return frontier
    .filter((f): f is { value: Record<string, unknown>; dotted: string[] } => isRecord(f.value) && last in f.value)
    .map((f) => ({ holder: f.value, key: last, dotted: [...f.dotted, last] }));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sortKeys(record: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
