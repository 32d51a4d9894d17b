// Resolves a target — section/slug, a path, a slug, a page id, or a region name — to one page or one region of
// a corpus (the manual or a map). Targets are matched against the pages already enumerated, never used to
// touch the file system, and any target shaped to escape the corpus (.., absolute, backslashes,
// percent-encoding, control characters) is refused before lookup.
import { editDistance } from '../search/edit-distance.js';
import type { Corpus, CorpusPage, CorpusRegion } from './types.js';

export type TargetLookup =
  | { kind: 'page'; page: CorpusPage }
  | { kind: 'region'; region: CorpusRegion }
  | { kind: 'ambiguous'; candidates: string[] }
  | { kind: 'unknown'; suggestions: string[] }
  | { kind: 'refused'; reason: string };

export function refusalReason(target: string): string | undefined {
  const t = target.trim();
  if (t.length === 0) return 'it is empty';
  if (t.startsWith('/') || /^[A-Za-z]:/.test(t)) return 'it is an absolute path';
  if (t.includes('\\')) return 'it contains a backslash';
  if (t.includes('%')) return 'it is percent-encoded';
  if (/[\u0000-\u001f\u007f]/.test(t)) return 'it contains control characters';
  if (t.split('/').some((segment) => segment === '..' || segment === '.')) return 'it has a . or .. segment';
  return undefined;
}

/**
 * `prefix` is the folder name a caller may put in front of a path (docs/ for the manual). A target is matched
 * as written first, then ignoring case, because file names on disk are not always lowercase — and two pages
 * whose paths differ only in case (a.md, a.MD) are each reached by their own spelling.
 */
export function lookupTarget(bundle: Corpus, rawTarget: string, prefix?: string): TargetLookup {
  const reason = refusalReason(rawTarget);
  if (reason !== undefined) return { kind: 'refused', reason };
  let target = rawTarget.trim().replace(/\/+$/, '');
  if (prefix !== undefined && target.toLowerCase().startsWith(`${prefix.toLowerCase()}/`))
    target = target.slice(prefix.length + 1);

  const found =
    named(bundle, target, (a, b) => a === b) ?? named(bundle, target, (a, b) => a.toLowerCase() === b.toLowerCase());
  if (found) return found;
  const withoutMd = target.replace(/\.md$/i, '').toLowerCase();
  const bySlug = bundle.pages.filter((p) => p.slug.toLowerCase() === withoutMd || p.id.toLowerCase() === withoutMd);
  if (bySlug.length === 1 && bySlug[0]) return { kind: 'page', page: bySlug[0] };
  if (bySlug.length > 1) return { kind: 'ambiguous', candidates: bySlug.map((p) => p.target).sort() };
  return { kind: 'unknown', suggestions: suggest(bundle, withoutMd) };
}

/** A page by target or path (.md optional), else a region by name or folder, under one notion of "same". */
function named(bundle: Corpus, target: string, same: (a: string, b: string) => boolean): TargetLookup | undefined {
  const withoutMd = target.replace(/\.md$/i, '');
  const page = bundle.pages.find(
    (p) =>
      same(p.target, target) || same(p.target, withoutMd) || same(p.path, target) || same(p.path, `${withoutMd}.md`),
  );
  if (page) return { kind: 'page', page };
  const region = bundle.regions.find((r) => same(r.name, withoutMd) || same(r.dir, withoutMd));
  return region ? { kind: 'region', region } : undefined;
}

/** Up to three targets closest to what was asked, by edit distance to targets, slugs and titles. */
function suggest(bundle: Corpus, asked: string): string[] {
  const scored = bundle.pages.map((p) => {
    const candidates = [p.target, p.slug, p.title, ...p.aliases].map((c) => c.toLowerCase());
    const distance = Math.min(...candidates.map((c) => editDistance(asked, c) / Math.max(c.length, asked.length, 1)));
    return { target: p.target, distance };
  });
  return scored
    .filter((s) => s.distance <= 0.5)
    .sort((a, b) => a.distance - b.distance || a.target.localeCompare(b.target))
    .slice(0, 3)
    .map((s) => s.target);
}
