// Two failures "say the same thing" when their first lines match once the parts that change from run to run are
// masked: numbers (counts, durations, line numbers, ports), hexadecimal ids (hashes, addresses), temporary paths
// and quoted values. What is left is the message's shape, which is what recurs.
import { createHash } from 'node:crypto';

/** The same raw line recurs (that is the point): each is normalised once per read, up to this many. */
const CACHE_LIMIT = 10_000;
const cache = new Map<string, string>();

export function normaliseFailure(line: string): string {
  const known = cache.get(line);
  if (known !== undefined) return known;
  const normalised = mask(line);
  if (cache.size < CACHE_LIMIT) cache.set(line, normalised);
  return normalised;
}

function mask(line: string): string {
  return line
    .toLowerCase()
    .replace(/\b[0-9]{4}-[0-9]{2}-[0-9]{2}[t ][0-9:.]+z?\b/g, '<time>')
    .replace(/(?:\/tmp|\/var\/folders|\/private\/var)\/[^\s'"`:)]*/g, '<tmp>')
    .replace(/\b(?=[0-9a-f]*[0-9])[0-9a-f]{7,64}\b/g, '<hex>')
    .replace(/"[^"]*"|'[^']*'|`[^`]*`/g, '<q>')
    .replace(/[0-9]+(\.[0-9]+)?/g, '#')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A short stable key for a normalised line (finding ids carry it). */
export function failureKey(normalised: string): string {
  return createHash('sha256').update(normalised).digest('hex').slice(0, 10);
}
