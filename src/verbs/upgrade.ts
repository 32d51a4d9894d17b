// upgrade: migrates discern.toml from an older configuration format. It reads the file itself (the project
// resolution refuses a file with renamed keys, which is exactly the file this verb is for), plans the renames
// purely, validates the migrated text, and writes it atomically; a refusal leaves the file byte-identical.
import type { UpgradeOutcome } from '../../generated/handlers.js';
import type { DiscernStep, DiscernUpgradeData, DiscernUpgradeInput } from '../../generated/types.js';
import { VERBS } from '../../generated/registry.js';
import { CONFIG_SCHEMA_VERSION } from '../../generated/config-migrations.js';
import { ConfigChanged, OUTSIDE_PROJECT, writeConfigText, writeProblem } from '../engine/config-file/file.js';
import { planUpgrade, type UpgradePlan } from '../engine/config/upgrade-plan.js';
import { parseConfig } from '../engine/config/validate.js';
import { CONFIG_FILE } from '../engine/project/resolve.js';
import { errorCode } from '../engine/state/atomic-write.js';
import { TomlEditError } from '../engine/toml-edit/errors.js';
import { refreshAfterSetup } from '../engine/setup/instruction-refresh.js';
import { openConfig } from './config-common.js';
import type { InspectVerbContext } from './context.js';

export async function upgrade(input: DiscernUpgradeInput, ctx: InspectVerbContext): Promise<UpgradeOutcome> {
  const opened = await openConfig(ctx, 'refuse');
  if (!opened.ok) return { refusal: opened.refusal };
  const config = opened.config;
  const file = config.location.path;
  let plan: UpgradePlan;
  try {
    plan = planUpgrade(config.text);
  } catch (error) {
    if (!(error instanceof TomlEditError)) throw error;
    return {
      refusal: {
        error: 'edit_failed',
        message: `${CONFIG_FILE} cannot be migrated: ${error.reason}. Nothing was written.`,
        next: {
          recovery: `rename the keys by hand (\`discern docs configuration\` lists the renames), then run \`discern doctor\``,
        },
      },
    };
  }
  if (plan.fromVersion > CONFIG_SCHEMA_VERSION) {
    return {
      refusal: {
        error: 'schema_version_too_new',
        message: `${CONFIG_FILE} was written for a newer discern: its [meta] schema_version is ${plan.fromVersion}, and this discern reads formats up to ${CONFIG_SCHEMA_VERSION}. Nothing was written.`,
        next: { file: CONFIG_FILE },
      },
    };
  }
  const changed = plan.text !== config.text;
  const data: DiscernUpgradeData = {
    file,
    from_version: plan.fromVersion,
    to_version: plan.toVersion,
    migrations: plan.migrations,
    changed,
  };
  const renames = plan.migrations.flatMap((m) => m.renames);
  if (input.dry_run === true) {
    return {
      dry_run: true,
      plan: {
        title: changed
          ? `upgrade would migrate ${CONFIG_FILE} from format ${plan.fromVersion} to ${plan.toVersion}`
          : `${CONFIG_FILE} is in the current format ${plan.toVersion}`,
        details: renames.map(
          (r) => `rename \`${r.from}\`${r.line !== undefined ? ` (line ${r.line})` : ''} to \`${r.to}\``,
        ),
        steps: changed
          ? [{ kind: 'env', label: `write ${CONFIG_FILE} in format ${plan.toVersion}`, disposition: 'run', note: file }]
          : [],
      },
      data,
    };
  }
  if (!changed)
    return withRefresh(data, [], [VERBS.upgrade.hints['current'] ?? 'Nothing was written.'], ctx, config.location.root);
  const checked = parseConfig(new TextEncoder().encode(plan.text), CONFIG_FILE);
  if (!checked.ok) {
    return {
      data: { ...data, changed: false },
      refusal: {
        error: 'invalid_migrated_config',
        message: `The migrated ${CONFIG_FILE} would not validate: ${checked.message} Nothing was written.`,
        next: { file: CONFIG_FILE, where: checked.where },
      },
    };
  }
  const denied = await writeProblem(config.location, true);
  if (denied)
    return {
      data: { ...data, changed: false },
      refusal: {
        error: 'write_denied',
        message:
          denied.code === OUTSIDE_PROJECT
            ? `${CONFIG_FILE} leads outside the project (to ${denied.target}); discern writes only inside it, so nothing was changed.`
            : `${denied.target} cannot be written (${denied.code}); nothing was changed.`,
        next:
          denied.code === OUTSIDE_PROJECT
            ? { target: CONFIG_FILE, access: 'writable without leaving the project (a link on its way leads outside)' }
            : { target: denied.target, access: 'writable' },
      },
    };
  const started = Date.now();
  try {
    await writeConfigText(config.location, plan.text, config, ctx.env, 'upgrade:write');
  } catch (error) {
    if (error instanceof ConfigChanged)
      return {
        data: { ...data, changed: false },
        refusal: {
          error: 'edit_failed',
          message: `${file} changed while it was being upgraded; nothing was written.`,
          next: { recovery: 'run `discern upgrade` again: it migrates the file as it is now' },
        },
      };
    return {
      data: { ...data, changed: false },
      refusal: {
        error: 'write_denied',
        message: `${file} could not be written (${errorCode(error) ?? 'error'}); it is as it was.`,
        next: { target: file, access: 'writable' },
      },
    };
  }
  const migrated: DiscernStep = {
    kind: 'env',
    label: `migrate ${CONFIG_FILE} from format ${plan.fromVersion} to ${plan.toVersion}`,
    disposition: 'run',
    note: renames.map((r) => `${r.from} → ${r.to}`).join(', ') || file,
    outcome: 'ok',
    duration_s: Math.round((Date.now() - started) / 1000),
  };
  const hint = `${CONFIG_FILE} is in format ${plan.toVersion}; commit it, then \`discern doctor\` checks the whole configuration.`;
  return withRefresh(data, [migrated], [hint], ctx, config.location.root);
}

/**
 * The instruction refresh every applied upgrade ends with (idempotent: a current project compiles nothing), so
 * the agents' files follow the migrated configuration. Partial: the migration stays, the retry is refresh.
 */
async function withRefresh(
  data: DiscernUpgradeData,
  steps: DiscernStep[],
  hints: string[],
  ctx: InspectVerbContext,
  root: string,
): Promise<UpgradeOutcome> {
  const started = Date.now();
  const refresh = await refreshAfterSetup({ root, env: ctx.env, signal: ctx.signal });
  const refreshed: DiscernStep = {
    kind: 'refresh',
    label: 'refresh the agents’ instructions and wiring',
    disposition: 'run',
    note: refresh.compiled.join(', ') || 'everything was current',
    outcome: refresh.status === 'complete' ? 'ok' : 'failed',
    duration_s: Math.round((Date.now() - started) / 1000),
  };
  const applied = { ...data, instruction_refresh: refresh };
  if (refresh.status === 'partial') {
    return {
      data: applied,
      steps: [...steps, refreshed],
      refusal: {
        error: 'partial_refresh',
        message: `The instruction refresh after the upgrade stopped part way: ${(refresh.failures ?? []).join('; ')}.${data.changed ? ` ${CONFIG_FILE} stays migrated to format ${data.to_version}.` : ''}`,
        next: { recovery: 'run `discern refresh` (safe to retry)' },
      },
    };
  }
  const wrote =
    refresh.compiled.length > 0
      ? [`Refreshed ${refresh.compiled.join(', ')}; commit ${refresh.compiled.length === 1 ? 'it' : 'them'}.`]
      : [];
  const ran = refresh.compiled.length > 0 || steps.length > 0 ? { steps: [...steps, refreshed] } : {};
  return { data: applied, ...ran, held: ['instruction-refresh'], hints: [...hints, ...wrote] };
}
