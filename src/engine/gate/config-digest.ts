// A digest of the configuration a gate ran under: the parsed discern.toml (key order normalised) and the
// trunk it was resolved against. Proof and replayed evidence are only current under the same digest.
import { createHash } from 'node:crypto';
import type { DiscernConfig } from '../../../generated/types.js';

export function configDigest(config: DiscernConfig, trunk: string): string {
  return createHash('sha256').update(canonicalJson({ config, trunk })).digest('hex');
}

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
