// What `start` will do, decided from facts gathered beforehand: the effort's name (unique), branch and path,
// the commit it starts from, the env files to copy, the ensure commands and the resources to create. Pure:
// the dry run shows exactly this plan, and the executor (start-apply.ts) carries it out step by step.
import { isAbsolute, join, relative } from 'node:path';
import type { DiscernConfig, DiscernPlanStep } from '../../../generated/types.js';
import { commandList } from '../config/commands.js';
import { DEFAULT_GATE_TIMEOUT_S } from '../config/gate-settings.js';
import { DEFAULT_ENV_FILES } from './env-files.js';
import type { EnvWrite } from './env-write.js';
import { nameFromTitle, nameProblem, uniqueName } from './naming.js';
import type { CopyPattern } from './warm/copy-entries.js';

export interface StartFacts {
  config: DiscernConfig;
  /** The main checkout's root (the first worktree git lists). */
  mainRoot: string;
  /** The start point as given (or the trunk's name) and the commit it resolved to. */
  from: { ref: string; commit: string };
  /** The trunk the effort lands on: recorded so a change to discern.toml cannot redirect it. */
  trunk: string;
  /** Local branch names that exist. */
  branches: ReadonlySet<string>;
  /** Paths git has registered as worktrees. */
  worktreePaths: ReadonlySet<string>;
  /** Whether something exists at a worktree path, or discern keeps records for an effort of that name. */
  exists: (path: string) => boolean;
  /** Env files present in the main checkout and absent from the starting commit (project-relative). */
  envFiles: readonly string[];
  /** The [worktree] copy entries for the starting commit (copy-entries.ts). */
  copy: readonly CopyPattern[];
  /** The port allocated under the start lock, when [worktree] port is on (ports.ts). */
  port?: number;
}

export interface StartInputs {
  name?: string;
  title?: string;
  brief?: string;
}

export interface PlannedResource {
  name: string;
  create: string;
  destroy?: string;
  ensure?: string;
  required: boolean;
  retries: number;
  timeoutS: number;
}

export interface StartPlan {
  id: string;
  branch: string;
  path: string;
  root: string;
  from: { ref: string; commit: string };
  trunk: string;
  nameNote?: string;
  task: { title?: string; brief?: string };
  envFiles: string[];
  /** PORT and the [worktree] inherit_env values written into the first env file after the copies. */
  envWrite: EnvWrite;
  /** The port the effort holds ([worktree] port), recorded in its task record. */
  port?: number;
  ensure: string[];
  /** [worktree.setup] steps and ensure, run after [repository] ensure. */
  setupSteps: string[];
  setupEnsure: string[];
  ensureTimeoutS: number;
  resources: PlannedResource[];
  /** What the new worktree may take from the main checkout ([worktree] copy, or the ecosystem's default). */
  copy: CopyPattern[];
}

export type StartPlanning = { ok: true; plan: StartPlan } | { ok: false; problem: 'name' | 'root'; message: string };

export function worktreeRoot(
  config: DiscernConfig,
  mainRoot: string,
): { ok: true; root: string; inside: boolean } | { ok: false; message: string } {
  const configured = config.worktree?.root ?? '';
  if (configured === '') return { ok: true, root: `${mainRoot}.worktrees`, inside: false };
  if (isAbsolute(configured)) return { ok: true, root: configured, inside: isInside(configured, mainRoot) };
  const root = join(mainRoot, configured);
  if (!isInside(root, mainRoot))
    return {
      ok: false,
      message: `[worktree] root "${configured}" leaves the checkout: give an absolute path for a directory outside it.`,
    };
  if (relative(mainRoot, root) === '' || relative(mainRoot, root).split('/')[0] === '.git')
    return {
      ok: false,
      message: `[worktree] root "${configured}" must name a directory of its own, not the checkout or its .git.`,
    };
  return { ok: true, root, inside: true };
}

function isInside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

export function planStart(input: StartInputs, facts: StartFacts, root: string): StartPlanning {
  const prefix = facts.config.repository?.branch_prefix ?? 'agent/';
  const wanted = input.name ?? (input.title !== undefined ? nameFromTitle(input.title) : undefined) ?? 'effort';
  const problem = nameProblem(wanted, prefix);
  if (problem !== undefined)
    return { ok: false, problem: 'name', message: `"${wanted}" cannot name an effort: ${problem}.` };
  const taken = (name: string): string | undefined => {
    const branch = `${prefix}${name}`;
    if (facts.branches.has(branch)) return `the branch ${branch} exists`;
    const path = join(root, name);
    if (facts.worktreePaths.has(path)) return `a worktree is registered at ${path}`;
    if (facts.exists(path)) return `${path} exists, or discern keeps records of an effort of that name`;
    return undefined;
  };
  const unique = uniqueName(wanted, taken);
  const gateTimeout = facts.config.gate?.timeout ?? DEFAULT_GATE_TIMEOUT_S;
  const resources = Object.entries(facts.config.worktree?.resources ?? {}).flatMap(([name, r]) =>
    r === undefined
      ? []
      : [
          {
            name,
            create: r.create,
            ...(r.destroy !== undefined && commandList(r.destroy).length > 0 ? { destroy: r.destroy } : {}),
            ...(r.ensure !== undefined && commandList(r.ensure).length > 0 ? { ensure: r.ensure } : {}),
            required: r.required ?? true,
            retries: r.retries ?? 0,
            timeoutS: r.timeout ?? gateTimeout,
          },
        ],
  );
  return {
    ok: true,
    plan: {
      id: unique.name,
      branch: `${prefix}${unique.name}`,
      path: join(root, unique.name),
      root,
      from: facts.from,
      trunk: facts.trunk,
      ...(unique.takenBy !== undefined
        ? { nameNote: `"${wanted}" was taken (${unique.takenBy}), so this effort is "${unique.name}".` }
        : {}),
      task: {
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(input.brief !== undefined ? { brief: input.brief } : {}),
      },
      envFiles: [...facts.envFiles],
      envWrite: {
        envFiles: facts.config.worktree?.env_files ?? DEFAULT_ENV_FILES,
        ...(facts.port !== undefined ? { port: facts.port } : {}),
        inherit: facts.config.worktree?.inherit_env ?? [],
      },
      ...(facts.port !== undefined ? { port: facts.port } : {}),
      ensure: commandList(facts.config.repository?.ensure),
      setupSteps: commandList(facts.config.worktree?.setup?.steps),
      setupEnsure: commandList(facts.config.worktree?.setup?.ensure),
      ensureTimeoutS: gateTimeout,
      copy: [...facts.copy],
      resources: resources.filter((r) => commandList(r.create).length > 0),
    },
  };
}

/** The plan as steps, in the order the executor takes them. */
export function startPlanSteps(plan: StartPlan): DiscernPlanStep[] {
  return [
    {
      kind: 'git',
      label: `create branch ${plan.branch} and its worktree at ${plan.path}`,
      disposition: 'run',
      note: `from ${plan.from.ref} (${plan.from.commit.slice(0, 12)})`,
    },
    {
      kind: 'task-metadata',
      label: "record the task in the worktree's git dir",
      disposition: 'run',
      ...(plan.task.title ? { note: plan.task.title } : {}),
    },
    ...plan.copy.map((entry): DiscernPlanStep => ({
      kind: 'worktree-copy',
      label: `copy ${entry.path} from the main checkout if ${entry.key.length === 1 ? 'its key file matches' : 'its key files match'}`,
      disposition: 'run',
      note: entry.key.join(', '),
    })),
    ...plan.envFiles.map((file): DiscernPlanStep => ({
      kind: 'env',
      label: `copy ${file} from the main checkout`,
      disposition: 'run',
    })),
    ...envWriteSteps(plan.envWrite),
    ...plan.ensure.map((command): DiscernPlanStep => ({
      kind: 'repository-ensure',
      label: 'ensure',
      disposition: 'run',
      note: command,
    })),
    ...plan.setupSteps.map((command): DiscernPlanStep => ({
      kind: 'worktree-setup-step',
      label: 'worktree setup step',
      disposition: 'run',
      note: command,
    })),
    ...plan.setupEnsure.map((command): DiscernPlanStep => ({
      kind: 'worktree-ensure',
      label: 'worktree ensure',
      disposition: 'run',
      note: command,
    })),
    ...plan.resources.map((r): DiscernPlanStep => ({
      kind: 'resource-create',
      label: `resource:${r.name}`,
      disposition: 'run',
      note: r.create,
      ...(r.required ? {} : { group: 'optional' }),
    })),
  ];
}

function envWriteSteps(write: EnvWrite): DiscernPlanStep[] {
  const names = [...(write.port !== undefined ? [`PORT=${write.port}`] : []), ...write.inherit];
  const target = write.envFiles[0];
  if (names.length === 0 || target === undefined) return [];
  return [
    {
      kind: 'env',
      label: `write ${names.join(', ')} to ${target}`,
      disposition: 'run',
      ...(write.inherit.length > 0 ? { note: "inherited names take the main checkout's current values" } : {}),
    },
  ];
}
