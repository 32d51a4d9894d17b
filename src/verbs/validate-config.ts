// validate config: checks a discern.toml text (inline) or file without saving anything, reporting every problem
// at once — syntax, schema, globs, pre_authorized, trunk, and job commands as warnings — each with its dotted
// key, line and column, so an agent can fix them all in one pass. A valid text also returns the configuration as
// discern would apply it and the stages the gate would run. Works in a repository without discern.toml (that is
// when a configuration is drafted) and, for the text alone, outside any checkout.
import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { VERBS } from '../../generated/registry.js';
import type { ValidateConfigOutcome } from '../../generated/handlers.js';
import type {
  DiscernConfigIssue,
  DiscernDiagnostic,
  DiscernValidateConfigData,
  DiscernValidateConfigInput,
} from '../../generated/types.js';
import { checkConfigText, type CheckRepository } from '../engine/config/check.js';
import { resolvedConfig } from '../engine/config/resolved.js';
import { gateConfig } from '../engine/gate/gate-config.js';
import { planGate } from '../engine/gate/plan.js';
import { chooseTrunk } from '../engine/project/resolve.js';
import { argumentsHelp, type InspectVerbContext } from './context.js';

const HINTS = VERBS.validateConfig.hints;
/** The same bound as the `toml` input's maxLength: a configuration is never this large. */
export const MAX_CONFIG_BYTES = 256 * 1024;
const INLINE = 'inline TOML';

export async function validateConfig(
  input: DiscernValidateConfigInput,
  ctx: InspectVerbContext,
): Promise<ValidateConfigOutcome> {
  const help = argumentsHelp(ctx, 'validate-config');
  const given = (input.toml !== undefined ? 1 : 0) + (input.file !== undefined ? 1 : 0);
  if (given !== 1) {
    return {
      refusal: {
        error: 'invalid_value',
        message: `validate config checks exactly one text, and ${given === 0 ? 'neither `toml` nor `file` was given' : 'both `toml` and `file` were given'}. ${HINTS.one_source}`,
        next: { help },
      },
    };
  }
  const { resolution } = ctx;
  // A missing config, a broken one, or no trunk yet is exactly when a text gets checked: only a call that cannot
  // be aimed anywhere is refused.
  if (
    !resolution.ok &&
    (resolution.refusal.error === 'invalid_arguments' || resolution.refusal.error === 'precondition_failed')
  )
    return { refusal: resolution.refusal };
  const checkout = resolution.ok ? resolution.project : resolution.partial.checkout;
  const repository: CheckRepository | undefined = checkout
    ? { root: checkout.root, commonDir: checkout.commonDir }
    : undefined;
  const base = checkout?.root ?? (await directoryOf(ctx.target));

  let bytes: Uint8Array;
  let source: DiscernValidateConfigData['source'];
  if (input.toml !== undefined) {
    bytes = Buffer.from(input.toml, 'utf8');
    source = { kind: 'inline', name: INLINE, bytes: bytes.length };
  } else {
    const file = input.file ?? '';
    const path = isAbsolute(file) ? file : resolve(base, file);
    const read = await readSource(path, file, help);
    if ('refusal' in read) return { refusal: read.refusal };
    bytes = read.bytes;
    source = { kind: 'file', name: file, path, bytes: bytes.length };
  }

  const check = await checkConfigText(bytes, {
    displayName: source.name,
    ...(repository ? { repository } : {}),
    env: ctx.env,
    signal: ctx.signal,
  });
  const data: DiscernValidateConfigData = {
    source,
    ...(repository ? { root: repository.root } : {}),
    valid: check.config !== undefined,
    errors: check.errors,
    warnings: check.warnings,
    checks: check.checks,
  };
  const diagnostics = [
    ...check.errors.map((i) => diagnostic(i, 'error', source, ctx)),
    ...check.warnings.map((i) => diagnostic(i, 'warning', source, ctx)),
  ];
  const outside = repository ? [] : [HINTS.no_checkout];

  if (check.config === undefined || check.slug !== undefined) {
    const slug = check.slug ?? 'invalid_config';
    return {
      data,
      diagnostics,
      hints: [...outside, HINTS.fix_all],
      refusal: {
        error: slug,
        message: failureMessage(source.name, check.errors),
        next: { file: source.kind === 'inline' ? 'the draft' : source.name, where: lines(check.errors) },
      },
    };
  }

  const config = check.config;
  const trunk = chooseTrunk(config, ctx.env);
  const gate = gateConfig(config);
  const planned = gate.ok
    ? planGate({
        mode: 'done',
        catalog: gate.gate.catalog,
        settings: gate.gate.settings,
        changedScopes: [],
        replayable: new Set(),
      })
    : undefined;
  return {
    data: {
      ...data,
      config: resolvedConfig({ root: base, config, trunk }),
      stages: (planned?.groups ?? []).map((g) => ({
        stage: g.name,
        parallel: g.parallel,
        jobs: g.producers.map((p) => ({ name: p.label, commands: p.commands })),
      })),
      scope_gates: gate.ok
        ? gate.gate.catalog.scopeGates.map((p) => ({ scope: p.scope ?? p.label, commands: p.commands }))
        : [],
    },
    ...(diagnostics.length > 0 ? { diagnostics } : {}),
    hints: [...outside, HINTS.save],
    held: ['config-valid'],
  };
}

type SourceRead =
  | { bytes: Uint8Array }
  | { refusal: Extract<ValidateConfigOutcome['refusal'], { error: 'invalid_value' | 'read_failed' }> };

/** The file to check: a regular file of at most 256 KiB. */
async function readSource(path: string, given: string, help: string): Promise<SourceRead> {
  const named = given === path ? path : `${given} (${path})`;
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile())
      return { refusal: { error: 'invalid_value', message: `${named} is not a file.`, next: { help } } };
    size = info.size;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    if (code === 'ENOENT' || code === 'ENOTDIR')
      return {
        refusal: {
          error: 'invalid_value',
          message: `${named} does not exist; \`file\` is absolute or relative to the project root.`,
          next: { help },
        },
      };
    return {
      refusal: {
        error: 'read_failed',
        message: `${named} cannot be read (${code}).`,
        next: { target: path, access: 'readable' },
      },
    };
  }
  if (size > MAX_CONFIG_BYTES)
    return {
      refusal: {
        error: 'invalid_value',
        message: `${named} has ${size} bytes; validate config reads at most 256 KiB.`,
        next: { help },
      },
    };
  try {
    return { bytes: await readFile(path) };
  } catch (error) {
    return {
      refusal: {
        error: 'read_failed',
        message: `${named} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
        next: { target: path, access: 'readable' },
      },
    };
  }
}

async function directoryOf(path: string): Promise<string> {
  const info = await stat(path).catch(() => undefined);
  return info && !info.isDirectory() ? dirname(path) : path;
}

/** One problem as the envelope's diagnostic: file, line, column, the message naming the key, and how to check again. */
function diagnostic(
  issue: DiscernConfigIssue,
  severity: 'error' | 'warning',
  source: DiscernValidateConfigData['source'],
  ctx: InspectVerbContext,
): DiscernDiagnostic {
  const again =
    source.kind === 'file'
      ? ctx.surface === 'mcp'
        ? `discern_validate_config with file "${source.name}"`
        : `discern validate-config ${source.name}`
      : ctx.surface === 'mcp'
        ? 'discern_validate_config with the corrected text as toml'
        : 'discern validate-config --toml <the corrected text>';
  return {
    tool: 'discern validate-config',
    severity,
    message: `\`${issue.path}\` ${issue.message}`,
    reproduce_cmd: again,
    file: source.name,
    ...(issue.line !== undefined ? { line: issue.line } : {}),
    ...(issue.column !== undefined ? { col: issue.column } : {}),
    ...(issue.kind !== undefined ? { rule: issue.kind } : {}),
  };
}

function failureMessage(name: string, errors: readonly DiscernConfigIssue[]): string {
  const shown = errors
    .slice(0, 8)
    .map((i) => `\`${i.path}\`${i.line !== undefined ? ` (line ${i.line})` : ''} ${i.message}`);
  const more = errors.length > shown.length ? `; and ${errors.length - shown.length} more in diagnostics` : '';
  return `${name} has ${errors.length} error${errors.length === 1 ? '' : 's'}: ${shown.join('; ')}${more}.`;
}

/** `line 7`, `lines 7 and 12`, `lines 3, 7 and 12`: where the errors are, for the next action. */
function lines(errors: readonly DiscernConfigIssue[]): string {
  const numbers = [...new Set(errors.flatMap((e) => (e.line !== undefined ? [e.line] : [])))].sort((a, b) => a - b);
  if (numbers.length === 0) return errors.map((e) => `\`${e.path}\``).join(', ') || 'the start of the file';
  if (numbers.length === 1) return `line ${numbers[0]}`;
  return `lines ${numbers.slice(0, -1).join(', ')} and ${numbers.at(-1)}`;
}
