// The data of discern.toml walked for listing: every key set (full dotted names, in file order), and the
// tables directly under one table.
import { isTable } from '../toml-edit/format.js';
import { dotted } from '../toml-edit/values.js';

/** Full dotted names of every value under `value` that is not a table; an array is one value. */
export function leafKeys(value: unknown, prefix: readonly string[]): string[] {
  if (!isTable(value)) return prefix.length > 0 ? [dotted(prefix)] : [];
  return Object.entries(value).flatMap(([k, v]) => leafKeys(v, [...prefix, k]));
}

/** Every key path set (tables included), for suggestions. */
export function allKeys(value: unknown, prefix: readonly string[] = []): string[] {
  if (!isTable(value)) return [];
  return Object.entries(value).flatMap(([k, v]) => [dotted([...prefix, k]), ...allKeys(v, [...prefix, k])]);
}

export function subsections(value: unknown): string[] {
  return isTable(value) ? Object.entries(value).filter(([, v]) => isTable(v)).map(([k]) => k) : [];
}
