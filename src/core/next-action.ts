// The next-action registry: every error slug belongs to a family (spec/vocabularies.yaml) whose registered
// template, or the slug's own, becomes the last hint of a failed result. Templates name their placeholders;
// the values come from the refusal, so the hint is always registry text with facts filled in.
import { ERROR_REGISTRY, type NextActionParams } from '../../generated/errors.js';
import type { DiscernErrorSlug } from '../../generated/types.js';
import { ContractViolation } from './contract-violation.js';

export function nextAction<E extends DiscernErrorSlug>(slug: E, params: NextActionParams[E]): string {
  const registration = ERROR_REGISTRY[slug];
  const values = params as Record<string, string>;
  return registration.nextAction.replace(/\{([a-z_]+)\}/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined || value.length === 0)
      throw new ContractViolation(`next action for ${slug} needs {${name}}`);
    return value;
  });
}
