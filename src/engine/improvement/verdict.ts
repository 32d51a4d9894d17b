// Small helpers the rules share: verdict constructors, plural counts, and bounded lists for evidence text.
import type { Review, RuleStatus, Verdict } from './types.js';

interface VerdictParts {
  read: string[];
  counts?: Record<string, number>;
  fix?: string;
  against?: string;
  reviews?: Review[];
}

export function verdict(status: RuleStatus, detail: string, parts: VerdictParts): Verdict {
  return {
    status,
    detail,
    read: parts.read,
    ...(parts.counts ? { counts: parts.counts } : {}),
    ...(status !== 'pass' && parts.fix !== undefined ? { fix: parts.fix } : {}),
    ...(status !== 'pass' && parts.against !== undefined ? { against: parts.against } : {}),
    ...(parts.reviews && parts.reviews.length > 0 ? { reviews: parts.reviews } : {}),
  };
}

/**
 * A rule whose subject does not exist because another rule failed (no standards to measure, no map to link):
 * it fails — a missing thing is not a healthy one — but is not ranked on its own; its fix is the other rule's.
 */
export function blocked(by: string, detail: string, read: string[]): Verdict {
  return { status: 'fail', detail, read, fix: `Make \`${by}\` pass first.`, blockedBy: by };
}

/** "1 page", "3 pages". */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The first few items joined, with how many more there are. */
export function listed(items: readonly string[], shown = 3): string {
  const head = items.slice(0, shown).join(', ');
  return items.length > shown ? `${head} and ${items.length - shown} more` : head;
}

/** Whole days between two instants. */
export function daysBetween(fromMs: number, toMs: number): number {
  return Math.floor((toMs - fromMs) / 86_400_000);
}
