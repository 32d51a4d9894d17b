// impact: the scopes the current change activates. The change runs from the merge-base with the trunk to the
// working tree (untracked files included; renames count on both sides); an unmatched path counts as code.
import type { ImpactOutcome } from '../../generated/handlers.js';
import type { DiscernImpactData, DiscernImpactInput } from '../../generated/types.js';
import { compiledScopes } from '../engine/config/scopes.js';
import { scopeDefinitions } from '../engine/config/scope-definitions.js';
import { readChangeSet } from '../engine/git/change-set.js';
import { classify } from '../engine/scopes/index.js';
import type { ProjectVerbContext } from './context.js';

const UNSCOPED_SHOWN = 6;

export async function impact(input: DiscernImpactInput, ctx: ProjectVerbContext): Promise<ImpactOutcome> {
  const { project } = ctx;
  const { scopes, issues } = compiledScopes(project.config);
  const [first, ...others] = issues;
  if (first !== undefined) {
    return {
      data: { issues: [first, ...others] },
      refusal: {
        error: 'invalid_config',
        message: `discern.toml has ${issues.length} scope pattern${issues.length === 1 ? '' : 's'} that cannot be used: ${issues.map((i) => `\`${i.path}\` (${i.message})`).join('; ')}.`,
        next: { file: 'discern.toml', where: `key \`${first.path}\`` },
      },
    };
  }
  if (input.has !== undefined && !scopes.some((s) => s.name === input.has)) {
    const known = scopeDefinitions(project.config).map((s) => s.name);
    return {
      refusal: {
        error: 'invalid_value',
        message: `"${input.has}" is not a scope of this project${known.length > 0 ? `; its scopes are ${known.join(', ')}` : '; discern.toml defines no [scopes]'}.`,
        next: { help: `${ctx.surface === 'mcp' ? 'discern_status' : '`discern status`'} (its scopes)` },
      },
    };
  }
  const change = await readChangeSet({ cwd: project.root, env: ctx.env, signal: ctx.signal }, project.trunk.name);
  const classification = classify(change.changes, scopes);
  const data: DiscernImpactData = {
    trunk: project.trunk.name,
    base: change.base,
    changed_files: classification.paths,
    scopes: classification.scopes,
    neutral: classification.neutral,
    code: classification.code,
    unscoped: classification.unscoped.slice(0, UNSCOPED_SHOWN),
    unscoped_total: classification.unscoped.length,
    ...(input.has !== undefined
      ? { membership: { scope: input.has, present: classification.scopes.includes(input.has) } }
      : {}),
  };
  return { data };
}
