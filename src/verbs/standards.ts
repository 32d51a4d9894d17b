// standards: measure the standards now — and, on request, pin improved limits in a commit — or record a batch of
// loosening proposals (docs/decisions/0027-standards-verbs.md). The action decides which inputs apply; one that
// does not is refused, not ignored. The CLI command `discern standards` always sends action "measure"; the
// scalar `discern standards propose` is its own command (standards-propose.ts).
import type { StandardsOutcome } from '../../generated/handlers.js';
import type { DiscernStandardsInput } from '../../generated/types.js';
import { argumentsHelp, type ProjectVerbContext } from './context.js';
import { proposeBatch } from './standards-propose.js';

export async function standards(input: DiscernStandardsInput, ctx: ProjectVerbContext): Promise<StandardsOutcome> {
  const help = argumentsHelp(ctx, 'standards');
  const misplaced = misplacedInputs(input);
  if (misplaced) return { refusal: { error: 'invalid_arguments', message: misplaced, next: { help } } };
  if (input.action === 'propose') {
    const result = await proposeBatch(input.proposals ?? [], input.dry_run === true, ctx, help);
    switch (result.kind) {
      case 'refused':
        return {
          ...(result.steps ? { steps: result.steps } : {}),
          data: { action: 'propose', ...(result.suggestions ? { suggestions: result.suggestions } : {}) },
          refusal: result.refusal,
        };
      case 'planned':
        return {
          dry_run: true,
          plan: result.plan,
          data: {
            action: 'propose',
            proposals: result.proposals,
            proposal_commit: result.commit,
            proposals_path: result.path,
          },
        };
      case 'recorded':
        return {
          steps: result.steps,
          data: {
            action: 'propose',
            proposals: result.proposals,
            proposal_commit: result.commit,
            proposals_path: result.path,
          },
          hints: result.hints,
        };
    }
  }
  if (input.pin === true && input.force === true) {
    return {
      refusal: {
        error: 'invalid_value',
        message:
          'pin commits limits measured on HEAD, so it needs a clean committed tree: force (measuring a dirty tree) cannot be combined with it.',
        next: { help },
      },
    };
  }
  // The measurement's machinery (executor, journal) loads only when something will be measured.
  const { measureStandards } = await import('./standards-measure.js');
  return measureStandards(input, ctx);
}

/** Which keys the action does not take, as the refusal says it; undefined when the call fits its action. */
function misplacedInputs(input: DiscernStandardsInput): string | undefined {
  if (input.action === 'propose') {
    const measureOnly = (['names', 'force', 'pin'] as const).filter((k) => input[k] !== undefined);
    if (measureOnly.length > 0)
      return `${measureOnly.map((k) => `\`${k}\``).join(', ')} ${measureOnly.length === 1 ? 'applies' : 'apply'} to action "measure" only; action "propose" takes \`proposals\` (and \`dry_run\`).`;
    if (input.proposals === undefined)
      return 'action "propose" needs `proposals`: one {name, reason} per standard this branch loosens.';
    return undefined;
  }
  if (input.proposals !== undefined)
    return '`proposals` applies to action "propose" only; action "measure" takes `names`, `force`, `pin` and `dry_run`.';
  return undefined;
}
