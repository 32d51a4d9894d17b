// improvement: a health audit of how the project works with discern, ranked into one next action. Gathers the
// facts once, evaluates every rule of the audited categories over them, scores, ranks, and reports; writes
// nothing (docs/decisions/0030). `min_score` turns a low score into below_min_score with the audit kept.
import { VERBS } from '../../generated/registry.js';
import type { ImprovementOutcome } from '../../generated/handlers.js';
import type {
  DiscernImprovementAction,
  DiscernImprovementAudit,
  DiscernImprovementCategory,
  DiscernImprovementInput,
} from '../../generated/types.js';
import { CATEGORIES, CATEGORY_NAMES } from '../engine/improvement/categories.js';
import { gatherFacts } from '../engine/improvement/gather.js';
import { audit, type Audit, type CategoryOutcome, type Ranked } from '../engine/improvement/score.js';
import { editDistance } from '../engine/search/edit-distance.js';
import type { ProjectVerbContext } from './context.js';

const HINTS = VERBS.improvement.hints;

export async function improvement(
  input: DiscernImprovementInput,
  ctx: ProjectVerbContext,
): Promise<ImprovementOutcome> {
  const categories = input.category === undefined ? CATEGORIES : CATEGORIES.filter((c) => c.name === input.category);
  if (input.category !== undefined && categories.length === 0) {
    const wanted = input.category.toLowerCase();
    const suggestions = [...CATEGORY_NAMES].sort(
      (a, b) =>
        editDistance(wanted, a) - editDistance(wanted, b) || CATEGORY_NAMES.indexOf(a) - CATEGORY_NAMES.indexOf(b),
    );
    return {
      data: { target: input.category, suggestions },
      refusal: {
        error: 'unknown_category',
        message: `"${input.category}" is not an improvement category; the categories are ${CATEGORY_NAMES.join(', ')}.`,
        next: { list: ctx.surface === 'mcp' ? 'discern_improvement without category' : '`discern improvement`' },
      },
    };
  }
  const facts = await gatherFacts(ctx.project, { env: ctx.env, signal: ctx.signal });
  const result = audit(categories, facts);
  const data = auditData(result, input);
  const hints = [
    ...(data.recommendations ? [HINTS.more] : []),
    data.next_action ? nextHint(data.next_action) : HINTS.all_pass,
  ];
  if (input.min_score !== undefined && result.score < input.min_score) {
    const rerun =
      ctx.surface === 'mcp'
        ? `discern_improvement with min_score ${input.min_score}${input.category ? ` and category "${input.category}"` : ''}`
        : `discern improvement${input.category ? ` --category ${input.category}` : ''} --min-score ${input.min_score}`;
    return {
      data,
      hints: hints.slice(0, -1),
      refusal: {
        error: 'below_min_score',
        message: `The ${input.category ? `${input.category} ` : ''}score is ${result.score}, below the minimum ${input.min_score}${result.weak.length > 0 ? `; weak: ${result.weak.join(', ')}` : ''}.`,
        next: {
          action: data.next_action ? `${data.next_action.id}: ${data.next_action.action}` : 'nothing is ranked',
          rerun,
        },
      },
    };
  }
  return { data, hints };
}

function nextHint(action: DiscernImprovementAction): string {
  return `Next improvement (${action.id}, ${action.kind}): ${action.action}`;
}

function auditData(result: Audit, input: DiscernImprovementInput): DiscernImprovementAudit {
  return {
    score: result.score,
    weak: result.weak,
    open_reviews: result.openReviews,
    ...(input.category !== undefined ? { category: input.category } : {}),
    ...(input.min_score !== undefined ? { min_score: input.min_score } : {}),
    ...(result.next ? { next_action: actionOf(result.next) } : {}),
    ...(result.recommendations.length > 0 ? { recommendations: result.recommendations.map(actionOf) } : {}),
    categories: result.categories.map(categoryData),
  };
}

function actionOf({ category, outcome }: Ranked): DiscernImprovementAction {
  const { rule, verdict } = outcome;
  return {
    kind: rule.kind,
    category: category.category.name,
    id: rule.id,
    title: rule.title,
    action: verdict.fix ?? `Make ${rule.id} pass.`,
    why: `${verdict.detail} (read: ${verdict.read.join(', ')})`,
    ...(verdict.against !== undefined && verdict.against !== '' ? { against: verdict.against } : {}),
  };
}

function categoryData(o: CategoryOutcome): DiscernImprovementCategory {
  return {
    name: o.category.name,
    title: o.category.title,
    score: o.score,
    weight: o.category.weight,
    weak: o.weak,
    rules: o.rules.map(({ rule, verdict }) => ({
      id: rule.id,
      status: verdict.status,
      title: rule.title,
      severity: rule.severity,
      kind: rule.kind,
      evidence: { read: verdict.read, detail: verdict.detail, ...(verdict.counts ? { counts: verdict.counts } : {}) },
      ...(verdict.fix !== undefined && verdict.status !== 'pass' ? { fix: verdict.fix } : {}),
    })),
    reviews: o.reviews,
  };
}
