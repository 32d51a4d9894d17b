// setup verify: check the working discern.toml on the setup branch the way the rest of discern will read it —
// the schema first (invalid_toml, unknown_key, invalid_config, each with its line), then what the schema cannot
// see: every pattern compiles, each configured command resolves as doctor looks it up, and the trunk exists.
// Every problem comes back with its dotted key and line. Read-only.
import { readFile } from 'node:fs/promises';
import type { SetupVerifyOutcome } from '../../generated/handlers.js';
import { VERBS } from '../../generated/registry.js';
import type { DiscernConfigIssue, DiscernSetupVerifyData, DiscernSetupVerifyInput } from '../../generated/types.js';
import { commandList } from '../engine/config/commands.js';
import { configuredCommands } from '../engine/config/configured-commands.js';
import { configuredJobs } from '../engine/config/jobs.js';
import { dotted } from '../engine/config/load-result.js';
import { locateKey } from '../engine/config/locate.js';
import { gateConfig } from '../engine/gate/gate-config.js';
import { localBranchExists } from '../engine/git/local-branch.js';
import { resolveCommand } from '../engine/jobs/resolve-command.js';
import { chooseTrunk } from '../engine/project/resolve.js';
import type { InspectVerbContext } from './context.js';
import { configPath, onSetupBranch, setupInProgress, setupPlace } from './setup-context.js';

export async function setupVerify(
  _input: DiscernSetupVerifyInput,
  ctx: InspectVerbContext,
): Promise<SetupVerifyOutcome> {
  const place = setupPlace(ctx);
  if ('refusal' in place) return place;
  const current = await setupInProgress(place);
  if ('refusal' in current) return current;
  const off = await onSetupBranch(place, current.state, 'discern setup verify');
  if (off) return { refusal: off };
  const path = configPath(place);
  const base = { branch: current.state.branch, config_path: path };
  const { resolution } = ctx;
  const config = resolution.ok ? resolution.project.config : resolution.partial.config;
  if (config === undefined) {
    // The schema does not hold: its problems, as resolution located them; nothing past them can be judged.
    const refusal = resolution.ok ? undefined : resolution.refusal;
    const issues = resolution.ok ? [] : (resolution.partial.configIssues ?? []);
    const data: DiscernSetupVerifyData = { ...base, valid: false, issues };
    if (
      refusal?.error === 'invalid_toml' ||
      refusal?.error === 'invalid_config' ||
      refusal?.error === 'unknown_key' ||
      refusal?.error === 'read_failed'
    )
      return { data, refusal };
    return {
      data,
      refusal: {
        error: 'read_failed',
        message: refusal?.message ?? 'discern.toml cannot be read.',
        next: { target: path, access: 'readable' },
      },
    };
  }

  const text = await readFile(path, 'utf8').catch(() => '');
  const at = (keys: string[]): Pick<DiscernConfigIssue, 'line' | 'column'> => {
    const found = locateKey(text, keys);
    return found ? { line: found.line, column: found.column } : {};
  };
  const issues: DiscernConfigIssue[] = [];
  const warnings: DiscernConfigIssue[] = [];
  const gate = gateConfig(config);
  if (!gate.ok) for (const issue of gate.issues) issues.push({ ...issue, ...at(issue.path.split('.')) });
  for (const entry of configuredCommands(config)) {
    const resolved = await Promise.all(
      entry.commands.map((command) =>
        resolveCommand(command, place.checkout.root, ctx.env, commandList(config.repository?.ensure)),
      ),
    );
    resolved.forEach((r, i) => {
      if (r.status === 'ok') return;
      const keys = entry.commands.length > 1 ? [...entry.key, String(i)] : entry.key;
      const issue: DiscernConfigIssue = {
        kind: 'unresolved_command',
        path: dotted(keys),
        message: `\`${entry.commands[i] ?? ''}\`: ${r.detail}. ${r.fix}`,
        ...at(entry.key),
      };
      (r.status === 'fail' ? issues : warnings).push(issue);
    });
  }
  const trunk = chooseTrunk(config, ctx.env);
  if (!(await localBranchExists(place.checkout.commonDir, trunk.name, place.run))) {
    const from =
      trunk.source === 'env' ? 'DISCERN_TRUNK' : trunk.source === 'config' ? '[repository] trunk' : 'the default';
    issues.push({
      kind: 'missing_trunk',
      path: 'repository.trunk',
      message: `the trunk "${trunk.name}" (from ${from}) is not a branch here: setup lands on it, so name a branch that exists`,
      ...at(['repository', 'trunk']),
    });
  }
  issues.sort(
    (a, b) => (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER) || a.path.localeCompare(b.path),
  );
  const jobs = configuredJobs(config).map((job) => ({ name: job.name, stage: job.stage, commands: job.commands }));
  const data: DiscernSetupVerifyData = {
    ...base,
    valid: issues.length === 0,
    issues,
    ...(warnings.length > 0 ? { warnings } : {}),
    trunk: trunk.name,
    jobs,
  };
  const [first] = issues;
  if (first !== undefined) {
    const where = first.line !== undefined ? ` (line ${first.line})` : '';
    return {
      data,
      refusal: {
        error: 'precondition_failed',
        message: `discern.toml has ${issues.length === 1 ? 'a problem' : `${issues.length} problems`} the gate would meet: ${issues.map((i) => `\`${i.path}\`${i.line !== undefined ? ` (line ${i.line})` : ''} ${i.message}`).join('; ')}. Fix the first at \`${first.path}\`${where}, commit, and check again.`,
        next: { rerun: 'discern setup verify' },
      },
    };
  }
  return { data, hints: [VERBS.setupVerify.hints.valid] };
}
