// Keys close to one that is not set: the keys the file sets and the ones the schema names, by edit distance on
// the dotted text, best first.
import { editDistance } from '../search/edit-distance.js';

export function closeKeys(wanted: string, candidates: Iterable<string>, limit = 3): string[] {
  const scored: { key: string; distance: number }[] = [];
  for (const key of new Set(candidates)) {
    if (key === wanted) continue;
    const distance = editDistance(wanted.toLowerCase(), key.toLowerCase()) - (key.startsWith(`${wanted}.`) ? 2 : 0);
    if (distance <= Math.max(2, Math.ceil(wanted.length * 0.25))) scored.push({ key, distance });
  }
  return scored
    .sort((a, b) => a.distance - b.distance || a.key.localeCompare(b.key))
    .slice(0, limit)
    .map((s) => s.key);
}
