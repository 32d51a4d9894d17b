// The config commands that write: set, set-job, set-scope and set-standard. Each is one edit of discern.toml's
// text through the comment-preserving editor, validated against the configuration schema before anything is
// written, then written atomically with the file's mode kept. A refusal leaves the file byte-identical; a
// missing discern.toml is created (after checking it can be).
import type {
  ConfigSetErrorSlug,
  ConfigSetJobErrorSlug,
  ConfigSetJobOutcome,
  ConfigSetOutcome,
  ConfigSetScopeErrorSlug,
  ConfigSetScopeOutcome,
  ConfigSetStandardErrorSlug,
  ConfigSetStandardOutcome,
} from '../../generated/handlers.js';
import type {
  DiscernConfigSetData,
  DiscernConfigSetInput,
  DiscernConfigSetJobInput,
  DiscernConfigSetScopeInput,
  DiscernConfigSetStandardInput,
  DiscernStep,
} from '../../generated/types.js';
import { VERBS } from '../../generated/registry.js';
import { parseCliValue } from '../engine/config-file/cli-value.js';
import { ConfigChanged, OUTSIDE_PROJECT, writeConfigText, writeProblem } from '../engine/config-file/file.js';
import { schemaAt } from '../engine/config-file/schema.js';
import { KNOWN_JOB_STAGES } from '../engine/config/jobs.js';
import { parseConfig } from '../engine/config/validate.js';
import { compilePattern } from '../engine/scopes/index.js';
import { errorCode } from '../engine/state/atomic-write.js';
import { TomlEditError } from '../engine/toml-edit/errors.js';
import { formatValue, isTable, type TomlValue } from '../engine/toml-edit/format.js';
import { setTable, setValue } from '../engine/toml-edit/set.js';
import { dotted, lookup, parseTree } from '../engine/toml-edit/values.js';
import { CONFIG_FILE } from '../engine/project/resolve.js';
import { openConfig, readKey, suggestionsFor, valueAt, type OpenedConfig } from './config-common.js';
import type { InspectVerbContext } from './context.js';
import type { Outcome, Refusal } from '../core/outcome.js';

/** What every writer may refuse with: the slugs the four commands share, so one outcome serves each of them. */
type WriteSlug = ConfigSetErrorSlug & ConfigSetJobErrorSlug & ConfigSetScopeErrorSlug & ConfigSetStandardErrorSlug;
type WriteOutcome = Outcome<DiscernConfigSetData, WriteSlug, never, never>;
type PlanSlug = 'invalid_value' | 'unknown_key';

export async function configSet(input: DiscernConfigSetInput, ctx: InspectVerbContext): Promise<ConfigSetOutcome> {
  const key = readKey(input.key, 'config set');
  if (!key.ok) return { refusal: key.refusal };
  return await writeKey(ctx, 'config set', key.path, (config) => {
    const unknown = unknownKey(key.path, config);
    if (unknown) return { refusal: unknown };
    const value = parseCliValue(input.value, key.path);
    return { edit: (text) => setValue(text, key.path, value) };
  });
}

export async function configSetJob(
  input: DiscernConfigSetJobInput,
  ctx: InspectVerbContext,
): Promise<ConfigSetJobOutcome> {
  const path = ['jobs', input.name];
  return await writeKey(ctx, 'config set-job', path, (config) => {
    const existing = current(config, path);
    const known = KNOWN_JOB_STAGES[input.name];
    const timeout = input.timeout ?? (typeof existing['timeout'] === 'number' ? existing['timeout'] : undefined);
    if (known !== undefined) {
      if (input.stage !== undefined && input.stage !== known)
        return {
          refusal: invalid(
            `\`${input.name}\` is a known job name, and its stage is always ${known}; pick another name for a ${input.stage} job.`,
            'config set-job',
          ),
        };
      if (timeout === undefined) return { edit: (text) => setValue(text, path, input.command) };
      return { edit: (text) => setTable(text, path, { run: input.command, timeout }) };
    }
    const stage = input.stage ?? (typeof existing['stage'] === 'string' ? existing['stage'] : undefined);
    if (stage === undefined)
      return {
        refusal: invalid(
          `A job named \`${input.name}\` needs --stage (fix, build, check or test); only format, build, lint, typecheck, test and smoke carry their stage.`,
          'config set-job',
        ),
      };
    // What the job provides is kept: a new command does not make it stop being the project's test. A new stage
    // that no longer fits what it provides is refused by validation, naming both keys.
    const provides = Array.isArray(existing['provides']) ? { provides: existing['provides'] } : {};
    return {
      edit: (text) =>
        setTable(text, path, {
          stage,
          run: input.command,
          ...(timeout !== undefined ? { timeout } : {}),
          ...provides,
        }),
    };
  });
}

export async function configSetScope(
  input: DiscernConfigSetScopeInput,
  ctx: InspectVerbContext,
): Promise<ConfigSetScopeOutcome> {
  const path = ['scopes', input.name];
  return await writeKey(ctx, 'config set-scope', path, (config) => {
    for (const pattern of input.paths) {
      const compiled = compilePattern(pattern);
      if (!compiled.ok)
        return {
          refusal: invalid(`The path pattern "${pattern}" cannot be used: ${compiled.reason}.`, 'config set-scope'),
        };
    }
    const entries: Record<string, TomlValue> = {
      ...current(config, path),
      paths: input.paths,
      ...(input.neutral === true ? { neutral: true } : {}),
    };
    return { edit: (text) => setTable(text, path, entries) };
  });
}

export async function configSetStandard(
  input: DiscernConfigSetStandardInput,
  ctx: InspectVerbContext,
): Promise<ConfigSetStandardOutcome> {
  const path = ['standards', input.name];
  return await writeKey(ctx, 'config set-standard', path, (config) => {
    const entries: Record<string, TomlValue> = {
      ...current(config, path),
      direction: input.direction,
      limit: input.limit,
      run: input.run,
      ...(input.margin !== undefined ? { margin: input.margin } : {}),
    };
    return { edit: (text) => setTable(text, path, entries) };
  });
}

type Plan = { edit: (text: string) => string } | { refusal: Refusal<PlanSlug> };

/** Edits that raced this one are redone from the bytes they left, this many times, before the edit refuses. */
const EDIT_ATTEMPTS = 64;

/**
 * The edit's whole life: read, plan, edit the text, validate, write (or refuse with the file untouched). The
 * write is a compare-and-swap on the bytes read: when another edit landed first, the edit is redone from its
 * result, so concurrent edits of different keys all land.
 */
async function writeKey(
  ctx: InspectVerbContext,
  command: string,
  path: string[],
  plan: (config: OpenedConfig) => Plan,
): Promise<WriteOutcome> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await writeKeyOnce(ctx, command, path, plan);
    } catch (error) {
      if (!(error instanceof ConfigChanged)) throw error;
      if (attempt >= EDIT_ATTEMPTS)
        return {
          refusal: {
            error: 'edit_failed',
            message: `${CONFIG_FILE} kept changing while \`${dotted(path)}\` was being written (${attempt} attempts); nothing of this edit was written.`,
            next: { recovery: 'wait for the other edits of discern.toml to finish, then run the same call again' },
          },
        };
      // A short random pause spreads writers that met, so one of them lands each round.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20));
    }
  }
}

async function writeKeyOnce(
  ctx: InspectVerbContext,
  command: string,
  path: string[],
  plan: (config: OpenedConfig) => Plan,
): Promise<WriteOutcome> {
  const key = dotted(path);
  const help = `\`discern help ${command}\``;
  // JavaScript gives `__proto__` a meaning of its own: as a name it would be written to the file and then be
  // missing from every object read back from it.
  if (path.includes('__proto__'))
    return {
      refusal: invalid(`\`__proto__\` cannot name a key of ${CONFIG_FILE}; choose another name.`, command),
    };
  const opened = await openConfig(ctx, 'empty');
  if (!opened.ok) return { refusal: opened.refusal };
  const config = opened.config;
  const file = config.location.path;
  const before = valueAt(config.tree, path, command);
  if (!before.ok) return { refusal: before.refusal };
  if (!config.exists) {
    const denied = await writeProblem(config.location, false);
    if (denied) return { refusal: writeDenied(denied) };
  }
  const planned = plan(config);
  if ('refusal' in planned) return { refusal: planned.refusal };
  let text: string;
  try {
    text = planned.edit(config.text);
  } catch (error) {
    if (!(error instanceof TomlEditError)) throw error;
    return {
      refusal: {
        error: 'edit_failed',
        message: `${CONFIG_FILE} cannot take \`${key}\`: ${error.reason}. Nothing was written.`,
        next: { recovery: `edit ${file} by hand, then run \`discern doctor\`` },
      },
    };
  }
  const value = lookup(parseTree(text), path);
  // TOML has no null; a key the edit left unset would be the editor's own failure.
  if (value === undefined || value === null) {
    return {
      refusal: {
        error: 'edit_failed',
        message: `The edit of ${CONFIG_FILE} did not set \`${key}\`. Nothing was written.`,
        next: { recovery: 'report this as a discern bug, with the key and value' },
      },
    };
  }
  const previous = before.value !== undefined && before.value !== null ? { previous: before.value } : {};
  const data = {
    key,
    value,
    ...previous,
    changed: text !== config.text,
    ...(config.exists ? {} : { created: true }),
    file,
  };
  const checked = parseConfig(new TextEncoder().encode(text), CONFIG_FILE);
  if (!checked.ok)
    return {
      data: { ...data, changed: false, ...(config.exists ? {} : { created: false }) },
      refusal: invalidResult(checked, key, value, help),
    };
  if (!data.changed && config.exists)
    return { data, hints: [VERBS.configSet.hints['unchanged'] ?? 'Nothing was written.'] };
  if (config.exists) {
    const denied = await writeProblem(config.location, true);
    if (denied) return { data: { ...data, changed: false }, refusal: writeDenied(denied) };
  }
  const started = Date.now();
  try {
    await writeConfigText(config.location, text, config, ctx.env);
  } catch (error) {
    if (error instanceof ConfigChanged) throw error;
    const code = errorCode(error) ?? 'error';
    return {
      data: { ...data, changed: false },
      refusal: {
        error: 'write_denied',
        message: `${file} could not be written (${code}); it is as it was.`,
        next: { target: file, access: 'writable' },
      },
    };
  }
  const step: DiscernStep = {
    kind: 'env',
    label: `write \`${key}\` to ${CONFIG_FILE}`,
    disposition: 'run',
    note: file,
    outcome: 'ok',
    duration_s: Math.round((Date.now() - started) / 1000),
  };
  return {
    data,
    steps: [step],
    hints: [
      config.exists
        ? `${CONFIG_FILE} now sets \`${key}\`; \`discern doctor\` checks the whole configuration.`
        : `Created ${file}; \`discern doctor\` checks it.`,
    ],
  };
}

/** The schema's complaint about the edited text: about the key itself → invalid_value; elsewhere → as the loader names it. */
function invalidResult(
  checked: Extract<ReturnType<typeof parseConfig>, { ok: false }>,
  key: string,
  value: unknown,
  help: string,
): Refusal<'invalid_value' | 'unknown_key' | 'invalid_config' | 'edit_failed'> {
  const issue = checked.issues[0];
  const about = issue?.path ?? key;
  const ownKey = about === key || about.startsWith(`${key}.`) || key.startsWith(`${about}.`);
  const detail =
    checked.error === 'invalid_config' && issue
      ? `\`${issue.path}\` ${issue.message}${issue.line !== undefined && !ownKey ? ` (line ${issue.line})` : ''}`
      : checked.message.replace(/\.$/, '');
  const message = `\`${key}\` cannot be set to ${literal(value)}: ${detail}. Nothing was written.`;
  if (checked.error === 'invalid_config' && ownKey) return { error: 'invalid_value', message, next: { help } };
  if (checked.error === 'unknown_key' || checked.error === 'invalid_config')
    return { error: checked.error, message, next: { file: CONFIG_FILE, where: checked.where } };
  return { error: 'edit_failed', message, next: { recovery: 'report this as a discern bug, with the key and value' } };
}

function literal(value: unknown): string {
  try {
    return formatValue(value as TomlValue);
  } catch {
    return JSON.stringify(value);
  }
}

function unknownKey(path: readonly string[], config: OpenedConfig): Refusal<'unknown_key'> | undefined {
  if (schemaAt(path) !== undefined) return undefined;
  const key = dotted(path);
  const suggestions = suggestionsFor(key, config.tree);
  const close = suggestions.length > 0 ? ` Did you mean ${suggestions.map((s) => `\`${s}\``).join(' or ')}?` : '';
  return {
    error: 'unknown_key',
    message: `\`${key}\` is not a key discern.toml accepts, so nothing was written.${close} \`discern docs configuration\` lists every key.`,
    next: { file: CONFIG_FILE, where: `key \`${key}\`` },
  };
}

function current(config: OpenedConfig, path: readonly string[]): Record<string, TomlValue> {
  const value = lookup(config.tree, path);
  return isTable(value) ? (value as Record<string, TomlValue>) : {};
}

function invalid(message: string, command: string): Refusal<'invalid_value'> {
  return { error: 'invalid_value', message, next: { help: `\`discern help ${command}\`` } };
}

function writeDenied(denied: { target: string; code: string }): Refusal<'write_denied'> {
  if (denied.code === OUTSIDE_PROJECT)
    return {
      error: 'write_denied',
      message: `${CONFIG_FILE} leads outside the project (to ${denied.target}); discern writes only inside it, so nothing was changed.`,
      next: { target: CONFIG_FILE, access: 'writable without leaving the project (a link on its way leads outside)' },
    };
  return {
    error: 'write_denied',
    message: `${denied.target} is not writable (${denied.code}), so discern.toml cannot be written; nothing was changed.`,
    next: { target: denied.target, access: 'writable' },
  };
}
