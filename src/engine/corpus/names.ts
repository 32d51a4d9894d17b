// Unique names for a corpus's regions and pages. Dropping number prefixes, `.md` and case can turn two names
// into one (10-guides and 20-guides; a.md and 01-a.md; a.md and a.MD), and a name must lead to one thing: the
// search index keys on it and lookups ignore case. So names are granted one at a time, and a request whose
// preferred name is taken falls back to a longer one that is still its own.

export interface NameRequest {
  /** What the name is for: a region's folder or a page's path. Unique, and the last tie-breaker. */
  source: string;
  /** Names to try, preferred first; one is free when no granted name equals it ignoring case. */
  candidates: readonly string[];
  /** The last resort, the source itself as written: unique on disk, so only an exact clash can stop it. */
  exact: string;
  /** How far the source is from its preferred name (segments renamed); the nearest claims it first. */
  distance: number;
}

export interface NameGrant {
  name: string;
  /** When this request could not have its preferred name: that name, and the source holding it. */
  displaced?: { wanted: string; by: string };
}

export function grantNames(requests: readonly NameRequest[]): Map<string, NameGrant> {
  const order = [...requests].sort(
    (a, b) => a.distance - b.distance || (a.source < b.source ? -1 : a.source > b.source ? 1 : 0),
  );
  // Each granted name folded to lower case, as lookups fold it, with the source holding it.
  const folded = new Map<string, string>();
  const exact = new Set<string>();
  const grants = new Map<string, NameGrant>();
  for (const request of order) {
    const name = request.candidates.find((c) => !folded.has(c.toLowerCase())) ?? exactName(request.exact, exact);
    const preferred = request.candidates[0];
    const holder = preferred !== undefined && name !== preferred ? folded.get(preferred.toLowerCase()) : undefined;
    if (!folded.has(name.toLowerCase())) folded.set(name.toLowerCase(), request.source);
    exact.add(name);
    grants.set(
      request.source,
      preferred !== undefined && holder !== undefined
        ? { name, displaced: { wanted: preferred, by: holder } }
        : { name },
    );
  }
  return grants;
}

/**
 * The source as written, free when no granted name has that exact spelling: lookups try the exact spelling
 * before ignoring case, so it still leads here. A shorter name could in principle have that spelling (the
 * page x.md.md is preferably "x.md"); `~2` keeps names unique then without relying on the grant order.
 */
function exactName(wanted: string, taken: ReadonlySet<string>): string {
  if (!taken.has(wanted)) return wanted;
  let n = 2;
  while (taken.has(`${wanted}~${n}`)) n++;
  return `${wanted}~${n}`;
}
