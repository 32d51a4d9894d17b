// JSON with object keys in code-point order, so equal values always print the same text; and the identity of
// the configuration a gate ran under (the parsed discern.toml and the trunk it resolved against). Kept apart
// from hashing so a comparison needs no crypto module.
import type { DiscernConfig } from '../../../generated/types.js';

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

export function configIdentity(config: DiscernConfig, trunk: string): string {
  return canonicalJson({ config, trunk });
}
