// Resolves a manual target — section/slug, a path, a slug, a page id, or a section name — to one page or one
// section. Targets are matched against the bundled set only, never used to touch the file system, and any
// target shaped to escape the manual (.., absolute, backslashes, percent-encoding, control characters) is
// refused before lookup.
import { editDistance } from '../search/edit-distance.js';
import type { ManualBundle, ManualPage, ManualRegion } from './types.js';

export type TargetLookup =
  | { kind: 'page'; page: ManualPage }
  | { kind: 'region'; region: ManualRegion }
  | { kind: 'ambiguous'; candidates: string[] }
  | { kind: 'unknown'; suggestions: string[] }
  | { kind: 'refused'; reason: string };

const SAFE_TARGET = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/;

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

export function lookupTarget(bundle: ManualBundle, rawTarget: string): TargetLookup {
  const reason = refusalReason(rawTarget);
  if (reason !== undefined) return { kind: 'refused', reason };
  const target = rawTarget.trim().toLowerCase().replace(/^docs\//, '').replace(/\/+$/, '');
  if (!SAFE_TARGET.test(target)) return { kind: 'unknown', suggestions: suggest(bundle, target) };

  const withoutMd = target.replace(/\.md$/, '');
  const exact = bundle.pages.find((p) => p.target === withoutMd || p.path === target || p.path === `${withoutMd}.md`);
  if (exact) return { kind: 'page', page: exact };
  const region = bundle.regions.find((r) => r.name === withoutMd || r.dir === withoutMd);
  if (region) return { kind: 'region', region };
  const bySlug = bundle.pages.filter((p) => p.slug === withoutMd || p.id === withoutMd);
  if (bySlug.length === 1 && bySlug[0]) return { kind: 'page', page: bySlug[0] };
  if (bySlug.length > 1) return { kind: 'ambiguous', candidates: bySlug.map((p) => p.target).sort() };
  return { kind: 'unknown', suggestions: suggest(bundle, withoutMd) };
}

/** Up to three targets closest to what was asked, by edit distance to targets, slugs and titles. */
function suggest(bundle: ManualBundle, asked: string): string[] {
  const scored = bundle.pages.map((p) => {
    const candidates = [p.target, p.slug, p.title.toLowerCase(), ...p.aliases.map((a) => a.toLowerCase())];
    const distance = Math.min(...candidates.map((c) => editDistance(asked, c) / Math.max(c.length, asked.length, 1)));
    return { target: p.target, distance };
  });
  return scored
    .filter((s) => s.distance <= 0.5)
    .sort((a, b) => a.distance - b.distance || a.target.localeCompare(b.target))
    .slice(0, 3)
    .map((s) => s.target);
}
