// Scoring and ranking, pure over the rules' verdicts (docs/decisions/0030). A rule counts by its severity:
// pass 1, partial 1/2, fail 0; a category's score is the severity-weighted share, 0–100; the overall score is
// the category-weighted mean. The next action is the failing rule with the highest severity × shortfall in the
// weakest category; the recommendations follow by weight × severity × shortfall. Every tie is broken by the
// fixed order of categories and rules, so the same facts always rank the same way.
import type { Category, Facts, Review, Rule, Verdict } from './types.js';

/** Below this a category is weak. */
export const WEAK_BELOW = 60;
/** How many improvements follow the next one. */
export const RECOMMENDATIONS = 5;

const POINTS = { pass: 1, partial: 0.5, fail: 0 } as const;

export interface RuleOutcome {
  rule: Rule;
  verdict: Verdict;
  /** Position in its category, for tie-breaks. */
  index: number;
}

export interface CategoryOutcome {
  category: Category;
  /** Position in the audit, for tie-breaks. */
  index: number;
  /** Unrounded, 0–100. */
  raw: number;
  score: number;
  weak: boolean;
  rules: RuleOutcome[];
  reviews: (Review & { rule: string })[];
}

export interface Ranked {
  category: CategoryOutcome;
  outcome: RuleOutcome;
}

export interface Audit {
  score: number;
  weak: string[];
  openReviews: number;
  categories: CategoryOutcome[];
  next?: Ranked;
  recommendations: Ranked[];
}

export function evaluateCategory(category: Category, index: number, facts: Facts): CategoryOutcome {
  const rules = category.rules.map((rule, i) => ({ rule, verdict: rule.evaluate(facts), index: i }));
  const total = rules.reduce((sum, r) => sum + r.rule.severity, 0);
  const earned = rules.reduce((sum, r) => sum + r.rule.severity * POINTS[r.verdict.status], 0);
  const raw = total === 0 ? 100 : (100 * earned) / total;
  const reviews = rules.flatMap((r) => (r.verdict.reviews ?? []).map((review) => ({ rule: r.rule.id, ...review })));
  return { category, index, raw, score: Math.round(raw), weak: raw < WEAK_BELOW, rules, reviews };
}

export function audit(categories: readonly Category[], facts: Facts): Audit {
  const outcomes = categories.map((c, i) => evaluateCategory(c, i, facts));
  const weights = outcomes.reduce((sum, o) => sum + o.category.weight, 0);
  const raw = weights === 0 ? 100 : outcomes.reduce((sum, o) => sum + o.category.weight * o.raw, 0) / weights;
  const { next, recommendations } = rank(outcomes);
  return {
    score: Math.round(raw),
    weak: outcomes.filter((o) => o.weak).map((o) => o.category.name),
    openReviews: outcomes.reduce((sum, o) => sum + o.reviews.length, 0),
    categories: outcomes,
    ...(next ? { next } : {}),
    recommendations,
  };
}

function shortfall(verdict: Verdict): number {
  return 1 - POINTS[verdict.status];
}

/** The next action and the recommendations after it. Blocked rules are left to the rule that blocks them. */
export function rank(outcomes: readonly CategoryOutcome[]): { next?: Ranked; recommendations: Ranked[] } {
  const candidates: Ranked[] = outcomes.flatMap((category) =>
    category.rules
      .filter((r) => r.verdict.status !== 'pass' && r.verdict.blockedBy === undefined)
      .map((outcome) => ({ category, outcome })),
  );
  if (candidates.length === 0) return { recommendations: [] };
  const weakest = [...new Set(candidates.map((c) => c.category))].sort(
    (a, b) => a.raw - b.raw || b.category.weight - a.category.weight || a.index - b.index,
  )[0];
  const within = candidates
    .filter((c) => c.category === weakest)
    .sort(
      (a, b) =>
        b.outcome.rule.severity * shortfall(b.outcome.verdict) -
          a.outcome.rule.severity * shortfall(a.outcome.verdict) || a.outcome.index - b.outcome.index,
    );
  const next = within[0] as Ranked;
  const priority = (c: Ranked): number =>
    c.category.category.weight * c.outcome.rule.severity * shortfall(c.outcome.verdict);
  const recommendations = candidates
    .filter((c) => c !== next)
    .sort(
      (a, b) =>
        priority(b) - priority(a) ||
        a.category.raw - b.category.raw ||
        a.category.index - b.category.index ||
        a.outcome.index - b.outcome.index,
    )
    .slice(0, RECOMMENDATIONS);
  return { next, recommendations };
}
