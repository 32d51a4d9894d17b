// status: where the caller is and what state it is in. Reads git (branch, HEAD, changes, distance from the
// trunk, worktrees) and the configuration; changes nothing. The default result is the spec-driven projection
// (collections capped); verbose returns them in full.
import { policyFacts } from './policy-facts.js';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { VERBS } from '../../generated/registry.js';
import type { StatusOutcome } from '../../generated/handlers.js';
import type { DiscernConfig, DiscernStatusData, DiscernStatusInput } from '../../generated/types.js';
import { fullCollections, projectCollections } from '../core/projection.js';
import { knownJobsReport } from '../engine/config/job-accounting.js';
import { resolvedConfig } from '../engine/config/resolved.js';
import { readFleet } from '../engine/fleet/fleet.js';
import { compileScopes, type CompiledScope } from '../engine/scopes/index.js';
import { scopeDefinitions } from '../engine/config/scope-definitions.js';
import { checkoutProof, runningOperation } from '../engine/gate/checkout-state.js';
import { configIdentity } from '../engine/gate/canonical-json.js';
import { gateStatePaths } from '../engine/gate/state-paths.js';
import { VERSION } from '../../generated/version.js';
import { readWorkingState } from '../engine/git/porcelain-status.js';
import { unfinishedSetup } from '../engine/setup/state.js';
import { trunkDistance } from '../engine/git/trunk-distance.js';
import { readTaskRecord } from '../engine/efforts/task-record.js';
import { argumentsHelp, type ProjectVerbContext } from './context.js';

export async function status(input: DiscernStatusInput, ctx: ProjectVerbContext): Promise<StatusOutcome> {
  if (input.all === true && input.local === true) {
    return {
      refusal: {
        error: 'invalid_arguments',
        message: 'all and local ask for opposite fleets; give at most one.',
        next: { help: argumentsHelp(ctx, 'status') },
      },
    };
  }
  const { project } = ctx;
  const signal = ctx.signal;
  // The configuration as it applies (defaults filled in), the same that doctor --verbose shows.
  const config = resolvedConfig(project);
  // The working state, the trunk distance and the fleet are read at the same time: none waits for another.
  const here = Promise.all([
    readWorkingState(project.root, ctx.env, signal),
    trunkDistance(project.root, project.trunk.name, {
      shallow: project.shallow,
      env: ctx.env,
      signal,
      dirs: { gitDir: project.gitDir, commonDir: project.commonDir },
    }),
  ]).then(([state, distance]) => ({ state, distance }));
  const fleetRun =
    input.local === true
      ? undefined
      : readFleet({
          root: project.root,
          currentRoot: project.root,
          commonDir: project.commonDir,
          location: project.location,
          trunk: project.trunk.name,
          branchPrefix: config.repository.branch_prefix,
          all: input.all === true,
          shallow: project.shallow,
          current: here,
          env: ctx.env,
          signal,
        });
  const paths = gateStatePaths(project.gitDir, project.commonDir);
  const gateState = here.then(({ state }) =>
    Promise.all([
      checkoutProof(
        paths,
        state.head,
        state.changed === 0,
        configIdentity(project.config, project.trunk.name),
        VERSION,
      ),
      runningOperation(paths),
    ]),
  );
  const setup = unfinishedSetup(project.commonDir, { cwd: project.root, env: ctx.env });
  const [{ state, distance }, listed, [gateProof, operation], setupUnfinished, worktree] = await Promise.all([
    here,
    fleetRun,
    gateState,
    setup,
    project.location === 'worktree' ? worktreeEffort(project.gitDir) : null,
  ]);
  // Efforts, the landing queue and their collisions: read only when the fleet was (not with local) and there is
  // something to read — linked worktrees, acceptance records, Proof notes or effort branches. A lone checkout
  // (the common case, and the one every call pays for) loads none of it.
  const efforts =
    listed === undefined || !(await hasEffortState(listed, project.commonDir, config.repository.branch_prefix))
      ? undefined
      : await (
          await import('../engine/fleet/efforts-view.js')
        ).effortsView(listed, {
          root: project.root,
          commonDir: project.commonDir,
          trunk: project.trunk.name,
          branchPrefix: config.repository.branch_prefix,
          config: project.config,
          scopes: compiledScopes(project.config),
          configCanonical: configIdentity(project.config, project.trunk.name),
          version: VERSION,
          env: ctx.env,
          ...(await trunkPolicyForAuthority(ctx)),
        });
  // The caller's own row carries the Proof state read for the top level, when the efforts view did not run.
  const fleet =
    efforts?.fleet ?? listed?.map((row) => (row.is_current && !row.broken ? { ...row, gate_proof: gateProof } : row));

  const data: Omit<DiscernStatusData, 'projection'> = {
    location: project.location,
    root: project.root,
    project: { ...config.project, config: project.configPath },
    worktree,
    git: {
      branch: state.branch,
      head: state.head,
      detached: state.detached,
      unborn: state.unborn,
      shallow: project.shallow,
      trunk: project.trunk.name,
      trunk_exists: project.trunk.exists,
      clean: state.changed === 0,
      changed_files: state.changed,
      untracked_files: state.untracked,
      ahead_trunk: distance.ahead,
      behind_trunk: distance.behind,
    },
    gate: {
      jobs: config.jobs,
      // A scope with a gate key is listed even when its commands are empty (`:`), as a job is.
      scope_gates: config.scopes
        .filter((scope) => project.config.scopes?.[scope.name]?.gate !== undefined)
        .map((scope) => ({ scope: scope.name, commands: scope.gate })),
    },
    scopes: config.scopes.map(({ name, paths, neutral }) => ({ name, paths, neutral })),
    standards: Object.keys(project.config.standards ?? {}),
    gate_proof: gateProof,
    ...currentAuthority(fleet),
    ...(operation
      ? {
          operation: {
            ...operation,
            read_back:
              ctx.surface === 'mcp'
                ? `discern_progress with handle "${operation.handle}"`
                : `discern progress ${operation.handle}`,
          },
        }
      : {}),
    ...(setupUnfinished ? { setup_unfinished: { ...setupUnfinished, ...knownJobsReport(project.config) } } : {}),
    ...(fleet ? { fleet, fleet_total: fleet.length } : {}),
    ...(efforts?.extra ?? {}),
  };
  // The landing's note is verified as `discern verify` would (in-process, one git process): status then says
  // whether HEAD's landing record holds, not only that one exists.
  if (data.landed_proof !== undefined)
    data.landed_proof = {
      ...data.landed_proof,
      verification: await landingVerification(ctx, data.landed_proof.commit),
    };
  const rules = VERBS.status.projection;
  if (input.verbose === true) return { data: fullCollections(data) };
  return { data: projectCollections(data, rules), hints: [VERBS.status.hints.verbose_route] };
}

async function landingVerification(
  ctx: ProjectVerbContext,
  commit: string,
): Promise<NonNullable<NonNullable<DiscernStatusData['landed_proof']>['verification']>> {
  const { verifyCommit } = await import('../engine/verification/verify-commit.js');
  const outcome = await verifyCommit(policyFacts(ctx), commit);
  if (outcome.kind !== 'judged') return { state: 'failed', message: outcome.reason };
  const failure = outcome.verdict.failure;
  if (failure === undefined) return { state: 'verified' };
  if (failure.error === 'unsigned') return { state: 'unsigned' };
  return { state: 'failed', error: failure.error, message: failure.message };
}

/** The configured scopes, compiled; a pattern that does not compile only matches nothing here (impact reports it). */
function compiledScopes(config: ProjectVerbContext['project']['config']): ReturnType<typeof compileScopes>['scopes'] {
  return compileScopes(scopeDefinitions(config)).scopes;
}

/** Whether the efforts view has anything to show: cheap file checks, no git and no module loads. */
async function hasEffortState(
  fleet: readonly { is_main: boolean }[],
  commonDir: string,
  branchPrefix: string,
): Promise<boolean> {
  if (fleet.some((row) => !row.is_main)) return true;
  const discern = join(commonDir, 'discern');
  if (['submissions', 'grants', 'parked', 'emergency'].some((dir) => existsSync(join(discern, dir)))) return true;
  if (
    existsSync(join(commonDir, 'refs', 'notes', 'discern')) ||
    existsSync(join(commonDir, 'refs', 'notes', 'discern-exceptions')) ||
    existsSync(join(commonDir, 'refs', 'heads', ...branchPrefix.split('/').filter(Boolean)))
  )
    return true;
  const packed = await readFile(join(commonDir, 'packed-refs'), 'utf8').catch(() => '');
  return (
    packed.includes(' refs/notes/discern') ||
    packed.includes(` refs/heads/${branchPrefix}`) ||
    existsSync(join(commonDir, 'reftable'))
  );
}

/** The trunk's committed policy, for landing authority: an effort's own discern.toml never decides it. */
async function trunkPolicyForAuthority(
  ctx: Parameters<typeof policyFacts>[0],
): Promise<{ trunkPolicy?: { config: DiscernConfig; scopes: CompiledScope[] } }> {
  const { readTrunkPolicy } = await import('../engine/policy/currency.js');
  const { policy } = await readTrunkPolicy(policyFacts(ctx)).catch(() => ({ policy: undefined }));
  if (policy?.state !== 'present') return {};
  return { trunkPolicy: { config: policy.config, scopes: compiledScopes(policy.config) } };
}

/** The caller's own effort row's landing authority, at the top level too. */
function currentAuthority(fleet: DiscernStatusData['fleet']): Pick<DiscernStatusData, 'landing_authority'> {
  const mine = fleet?.find((row) => row.is_current && !row.is_main);
  return mine?.landing_authority ? { landing_authority: mine.landing_authority } : {};
}

/** The effort this linked worktree belongs to, from its task record: null for one discern did not start. */
async function worktreeEffort(gitDir: string): Promise<DiscernStatusData['worktree']> {
  const record = await readTaskRecord(gitDir);
  if (record === undefined) return null;
  return {
    id: record.id,
    branch: record.branch,
    ...(record.port !== undefined ? { port: record.port } : {}),
    resources: record.resources.map((r) => r.name),
  };
}
