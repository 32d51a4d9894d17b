// doctor: checks that discern can work here — Node, git, the checkout, discern.toml, the trunk, that each
// configured job's command resolves (looked up, never run), and each configured agent's wiring (integration
// health: present, current, and its command starts from the project root). A failed check fails the result with its
// classified error; a warning keeps it successful as a doctor-warning advisory.
import { VERBS, VERSION } from '../../generated/registry.js';
import type { DoctorOutcome } from '../../generated/handlers.js';
import type { DiscernDoctorCheck, DiscernDoctorData, DiscernDoctorInput } from '../../generated/types.js';
import { configuredCommands } from '../engine/config/configured-commands.js';
import { commandList } from '../engine/config/commands.js';
import { gateConfig } from '../engine/gate/gate-config.js';
import { resolvedConfig } from '../engine/config/resolved.js';
import { atLeast, gitVersion } from '../engine/environment/git-version.js';
import { resolveCommand } from '../engine/jobs/resolve-command.js';
import { wiringHealth } from '../engine/refresh/wiring-health.js';
import type { InspectVerbContext } from './context.js';
import { doctorFilters } from './doctor-filters.js';
import { splitScriptChecks } from './doctor-split-scripts.js';
import { projectPageChecks } from './doctor-pages.js';

const HINTS = VERBS.doctor.hints;
const MIN_NODE_MAJOR = 20;

/** `wiring: false` leaves integration health out: setup done runs doctor before it writes the wiring. */
export async function doctor(
  input: DiscernDoctorInput,
  ctx: InspectVerbContext,
  options: { wiring?: boolean } = {},
): Promise<DoctorOutcome> {
  const checks: DiscernDoctorCheck[] = [];
  const add = (name: string, status: 'ok' | 'warn' | 'fail', detail: string, fix?: string): void => {
    checks.push({
      name,
      status,
      ok: status !== 'fail',
      detail,
      ...(fix !== undefined && status !== 'ok' ? { fix } : {}),
    });
  };

  const nodeMajor = Number(process.versions.node.split('.')[0]);
  add(
    'node',
    nodeMajor >= MIN_NODE_MAJOR ? 'ok' : 'fail',
    `Node.js ${process.versions.node}`,
    `Install Node.js ${MIN_NODE_MAJOR} or newer.`,
  );

  const version = await gitVersion(ctx.env);
  if (!version) add('git', 'fail', 'git was not found on PATH', 'Install git 2.38 or newer and put it on PATH.');
  else if (!atLeast(version, 2, 31))
    add('git', 'fail', `git ${version.text} is older than 2.31, which discern needs`, 'Install git 2.38 or newer.');
  else if (!atLeast(version, 2, 38))
    add('git', 'warn', `git ${version.text}; 2.38 or newer is recommended`, 'Install git 2.38 or newer.');
  else add('git', 'ok', `git ${version.text}`);

  const { resolution } = ctx;
  const partial = resolution.ok ? resolution.project : resolution.partial;
  const checkout = resolution.ok ? resolution.project : resolution.partial.checkout;
  if (checkout)
    add(
      'repository',
      'ok',
      `${checkout.location === 'main' ? 'main checkout' : 'linked worktree'} at ${checkout.root}`,
    );
  else if (!resolution.ok) {
    const fix =
      resolution.refusal.error === 'no_repository'
        ? 'Run discern inside a git checkout (over MCP, pass an absolute path inside one).'
        : 'Do what the detail says, then run discern doctor again.';
    add('repository', 'fail', resolution.refusal.message, fix);
  }

  if (checkout) {
    const configPath = resolution.ok ? resolution.project.configPath : resolution.partial.configPath;
    const config = resolution.ok ? resolution.project.config : resolution.partial.config;
    if (config) add('config', 'ok', `${configPath ?? 'discern.toml'} is valid`);
    else if (!resolution.ok)
      add(
        'config',
        'fail',
        resolution.refusal.message,
        'Write or fix discern.toml at the checkout root; `discern docs configure-a-project` shows how.',
      );
  }
  const trunk = 'trunk' in partial ? partial.trunk : undefined;
  if (trunk) {
    if (resolution.ok) add('trunk', 'ok', `trunk "${trunk.name}" exists (from ${trunk.source})`);
    else if (resolution.refusal.error === 'no_trunk')
      add(
        'trunk',
        'fail',
        resolution.refusal.message,
        `Create the branch "${trunk.name}", or set [repository] trunk or DISCERN_TRUNK.`,
      );
  }

  // Every glob the gate compiles: [scopes] paths, [generated] paths and [standards] inputs.
  const configured = resolution.ok ? gateConfig(resolution.project.config) : undefined;
  const scopeIssues = configured && !configured.ok ? configured.issues : [];
  const globTables = resolution.ok
    ? ['scopes', 'generated', 'standards'].filter(
        (t) => Object.keys((resolution.project.config as Record<string, object | undefined>)[t] ?? {}).length > 0,
      )
    : [];
  if (resolution.ok && scopeIssues.length > 0) {
    add(
      'patterns',
      'fail',
      `${scopeIssues.length} glob pattern${scopeIssues.length === 1 ? '' : 's'} cannot be used: ${scopeIssues.map((i) => `${i.path} (${i.message})`).join('; ')}`,
      'Rewrite each pattern in one of the forms `discern docs configuration` lists.',
    );
  } else if (globTables.length > 0) {
    add('patterns', 'ok', `every glob in ${globTables.map((t) => `[${t}]`).join(', ')} compiles`);
  }

  if (resolution.ok) {
    const config = resolution.project.config;
    for (const entry of configuredCommands(config)) {
      if (entry.commands.length === 0) {
        add(entry.name, 'ok', 'no command (skipped by design)');
        continue;
      }
      const ensure = commandList(config.repository?.ensure);
      const results = await Promise.all(
        entry.commands.map((c) => resolveCommand(c, resolution.project.root, ctx.env, ensure)),
      );
      const worst = results.find((r) => r.status === 'fail') ?? results.find((r) => r.status === 'warn') ?? results[0];
      if (worst)
        add(entry.name, worst.status, `${entry.what}: ${worst.detail}`, worst.status === 'ok' ? undefined : worst.fix);
    }
  }

  // The package scripts setup split into jobs: each should still read as it did.
  if (resolution.ok)
    for (const c of await splitScriptChecks(resolution.project.config, resolution.project.root))
      add(c.name, c.status, c.detail, c.fix);

  // The page of known traps the instructions point to.
  if (resolution.ok)
    for (const c of await projectPageChecks(resolution.project.config, resolution.project.root))
      add(c.name, c.status, c.detail, c.fix);

  // The git filter drivers and whether done trusts each (docs/30-verbs/done.md, "Filters").
  const filters =
    checkout && version
      ? await doctorFilters(checkout.root, ctx.env, resolution.ok ? resolution.project.trunk.name : undefined)
      : undefined;
  for (const f of filters ?? [])
    add(
      `filter:${f.name}`,
      f.trusted ? 'ok' : 'warn',
      f.commands
        .map((c) => `${c.key} \`${c.command}\` (${c.trusted ? 'trusted' : 'not trusted'}: ${c.reason})`)
        .join('; '),
      f.line !== undefined
        ? `done refuses while a .gitattributes filter= names it. To trust it, add \`${f.line}\` under [gate] in the trunk's discern.toml; otherwise remove it from git config.`
        : undefined,
    );

  // Integration health: each configured agent's wiring is present, current, and starts from the project root.
  if (resolution.ok && options.wiring !== false)
    for (const h of await wiringHealth(resolution.project, ctx.env))
      add(`wiring:${h.agent}`, h.status, h.detail, h.fix);

  const environment: DiscernDoctorData['environment'] = {
    discern: VERSION,
    platform: `${process.platform}-${process.arch}`,
    node: process.versions.node,
    ...(version ? { git: version.text } : {}),
    ...(checkout ? { root: checkout.root, location: checkout.location } : {}),
    ...(trunk ? { trunk: trunk.name, trunk_source: trunk.source } : {}),
  };
  const issues = resolution.ok ? scopeIssues : resolution.partial.configIssues;
  const data: DiscernDoctorData = {
    kit_version: VERSION,
    environment,
    checks,
    ...(filters && filters.length > 0 ? { filters } : {}),
    ...(issues && issues.length > 0 ? { issues } : {}),
    ...(input.verbose && resolution.ok ? { config: resolvedConfig(resolution.project) } : {}),
    ...(input.verbose
      ? {
          execution_model: Object.values(VERBS).map((v) => ({
            verb: v.verb,
            when: v.execution.when,
            steps: v.execution.steps.map((s) => ({ ...s })),
          })),
        }
      : {}),
  };
  const warnings = checks.filter((c) => c.status === 'warn');
  const advisories = warnings.map((c) => ({
    kind: 'doctor-warning' as const,
    evidence: [`${c.name}: ${c.detail}`] as [string],
    next_action: c.fix ?? 'See the check detail.',
  }));
  const hints = input.verbose ? [] : [HINTS.verbose_route];

  if (!resolution.ok) return { data, advisories, hints, refusal: resolution.refusal };
  const [firstIssue] = scopeIssues;
  if (firstIssue !== undefined) {
    return {
      data,
      advisories,
      hints,
      refusal: {
        error: 'invalid_config',
        message: `discern.toml: \`${firstIssue.path}\` ${firstIssue.message}.`,
        next: { file: 'discern.toml', where: `key \`${firstIssue.path}\`` },
      },
    };
  }
  const failed = checks.find((c) => c.status === 'fail');
  if (failed) {
    return {
      data,
      advisories,
      hints,
      refusal: {
        error: 'precondition_failed',
        message: `doctor check ${failed.name} failed: ${failed.detail}.`,
        next: { rerun: 'discern doctor' },
      },
    };
  }
  return { data, advisories, hints: [HINTS.all_clear, ...hints], held: ['doctor-checks'] };
}
