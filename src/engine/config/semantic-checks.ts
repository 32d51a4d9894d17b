// The checks of a discern.toml that the schema cannot express — globs that do not compile, [acceptance]
// pre_authorized naming no scope, job commands that do not resolve — on a configuration that already fits the
// schema. Apart from check.ts so a caller holding a loaded configuration (the improvement audit) does not load
// the schema validator, the largest module on the CLI's path.
import type { DiscernConfig, DiscernConfigIssue } from '../../../generated/types.js';
import { gateConfig } from '../gate/gate-config.js';
import { resolveCommand } from '../jobs/resolve-command.js';
import { commandList } from './commands.js';
import { configuredGenerators } from './generators.js';
import { configuredJobs } from './jobs.js';
import { dotted } from './load-result.js';
import { locateKey } from './locate.js';
import { configuredStandards } from './standards.js';

/** Every [scopes], [generated] and [standards] glob that does not compile, as the gate compiles them. */
export function globIssues(config: DiscernConfig, text: string): DiscernConfigIssue[] {
  const compiled = gateConfig(config);
  return compiled.ok ? [] : compiled.issues.map((i) => at(text, keysOf(i.path), { ...i, kind: 'invalid_config' }));
}

export function preAuthorizedIssues(config: DiscernConfig, text: string): DiscernConfigIssue[] {
  const scopes = Object.keys(config.scopes ?? {});
  return (config.acceptance?.pre_authorized ?? []).flatMap((name, index) =>
    scopes.includes(name)
      ? []
      : [
          at(text, ['acceptance', 'pre_authorized', String(index)], {
            kind: 'unknown_scope',
            path: dotted(['acceptance', 'pre_authorized', String(index)]),
            message: `names "${name}", which no [scopes.${name}] table defines, so it would grant nothing${scopes.length > 0 ? ` (the scopes are ${scopes.join(', ')})` : ' (there are no scopes)'}`,
          }),
        ],
  );
}

/** Each job's, generator's, standard's and scope gate's program, looked up as doctor does: warnings. */
export async function commandIssues(
  config: DiscernConfig,
  text: string,
  root: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<DiscernConfigIssue[]> {
  const entries: { keys: string[]; commands: string[] }[] = [
    ...configuredJobs(config).map((j) => ({ keys: ['jobs', j.name], commands: j.commands })),
    ...configuredGenerators(config).map((g) => ({ keys: ['generated', g.name, 'run'], commands: g.commands })),
    ...configuredStandards(config).map((s) => ({ keys: ['standards', s.name, 'run'], commands: s.commands })),
    ...Object.entries(config.scopes ?? {}).map(([name, scope]) => ({
      keys: ['scopes', name, 'gate'],
      commands: commandList(scope?.gate),
    })),
    ...(config.repository?.ensure ?? []).map((c, i) => ({
      keys: ['repository', 'ensure', String(i)],
      commands: commandList(c),
    })),
  ];
  const issues: DiscernConfigIssue[] = [];
  for (const entry of entries) {
    for (const command of entry.commands) {
      const resolution = await resolveCommand(command, root, env, commandList(config.repository?.ensure));
      if (resolution.status === 'ok') continue;
      issues.push(
        at(text, entry.keys, {
          kind: 'command_not_found',
          path: dotted(entry.keys),
          message: `\`${command}\`: ${resolution.detail}. ${resolution.fix}`,
        }),
      );
    }
  }
  return issues;
}

export function at(text: string, keys: readonly string[], issue: DiscernConfigIssue): DiscernConfigIssue {
  const where = keys.length > 0 ? locateKey(text, keys) : undefined;
  return { ...issue, ...(where ? { line: where.line, column: where.column } : {}) };
}

/** The keys of a dotted path as `dotted` writes it: bare keys, or JSON-quoted ones. */
export function keysOf(path: string): string[] {
  const keys: string[] = [];
  const pattern = /"((?:[^"\\]|\\.)*)"|([^.]+)/gy;
  let match: RegExpExecArray | null;
  let index = 0;
  while (index < path.length) {
    pattern.lastIndex = index;
    match = pattern.exec(path);
    if (!match) break;
    keys.push(match[1] !== undefined ? (JSON.parse(`"${match[1]}"`) as string) : (match[2] ?? ''));
    index = pattern.lastIndex + 1; // past the dot
  }
  return keys;
}
