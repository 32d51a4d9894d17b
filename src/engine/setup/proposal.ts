// What setup proposes for discern.toml, each choice with its evidence: made from the repository's facts,
// overridden by a setup recipe, and — once the owner edits the draft on the setup branch — read back from the
// working file with the evidence of the choices that still stand. The draft, the pages and the inventory are
// all made from this one shape. Pure.
import { basename } from 'node:path';
import type { DiscernConfig, DiscernSetupConfig } from '../../../generated/types.js';
import { commandList } from '../config/commands.js';
import { configuredJobs, KNOWN_JOB_STAGES, type JobStage } from '../config/jobs.js';
import { slugify } from '../project/slug.js';
import type { RepositoryFacts, SplitScript } from './facts.js';

export type Agent = NonNullable<NonNullable<DiscernConfig['project']>['agents']>[number];

/** [project] agents when the file names none (spec/config.schema.json). */
export const DEFAULT_AGENTS: readonly Agent[] = ['claude_code', 'codex'];

export interface ProposedJob {
  name: string;
  stage: JobStage;
  run: string[];
  timeout?: number;
  /** The known jobs a custom job stands for (a recipe's or the owner's `provides`). */
  provides?: string[];
  why: string;
}

export interface ProposedScope {
  name: string;
  paths: string[];
  neutral: boolean;
  gate: string[];
  timeout?: number;
  why: string;
}

export interface SetupProposal {
  project: { name: string; slug?: string; agents: Agent[]; agents_why: string };
  trunk: { name: string; why: string };
  branch_prefix?: string;
  ensure: { run: string; why: string }[];
  jobs: ProposedJob[];
  scopes: ProposedScope[];
  /** Package scripts split into jobs, recorded in [meta] split_scripts for doctor. */
  splitScripts?: SplitScript[];
}

/** The split scripts the jobs came from, each once. */
function uniqueSources(jobs: RepositoryFacts['jobs']): SplitScript[] {
  const out: SplitScript[] = [];
  for (const job of jobs)
    if (job.source && !out.some((s) => s.file === job.source?.file && s.script === job.source.script))
      out.push({ ...job.source });
  return out;
}

export function proposalFromFacts(facts: RepositoryFacts): SetupProposal {
  const slug = slugFrom(facts.name);
  return {
    project: {
      name: facts.name,
      ...(slug !== undefined ? { slug } : {}),
      agents: [...DEFAULT_AGENTS],
      agents_why: 'the two discern wires by default; add gemini, cursor or copilot if they work here too',
    },
    trunk: {
      name: facts.branch ?? 'main',
      why: facts.branch
        ? 'the branch checked out when setup began; work lands here'
        : 'no branch was checked out: the default',
    },
    ensure: facts.ensure.map((e) => ({ run: e.run, why: e.why })),
    jobs: facts.jobs.map((j) => ({
      name: j.name,
      stage: j.stage ?? KNOWN_JOB_STAGES[j.name] ?? 'check',
      run: [...j.run],
      why: j.why,
    })),
    splitScripts: uniqueSources(facts.jobs),
    // Documentation a runner reads (doctests, a sphinx build) is checked: a change there is not neutral.
    scopes: (facts.python?.docs_in_checks ? [] : facts.docs_dirs).map((dir) => ({
      name: dir,
      paths: [`${dir}/**`],
      neutral: true,
      gate: [],
      why: `only documentation lives under ${dir}/: a change there alone needs no gate run`,
    })),
  };
}

/** The recipe's sections over the proposal: project and trunk keys one by one, ensure, jobs and scopes whole. */
export function applyRecipe(
  proposal: SetupProposal,
  recipe: DiscernSetupConfig,
  file: string,
): { proposal: SetupProposal; applied: string[] } {
  const applied: string[] = [];
  const why = `set by the setup recipe ${basename(file)}`;
  const next: SetupProposal = structuredClone(proposal);
  const project = recipe.project;
  if (project?.name !== undefined) {
    next.project.name = project.name;
    applied.push('project.name');
    // A slug follows the recipe's name unless the recipe gives one too.
    const slug = slugFrom(project.name);
    if (slug !== undefined) next.project.slug = slug;
    else delete next.project.slug;
  }
  if (project?.slug !== undefined) {
    next.project.slug = project.slug;
    applied.push('project.slug');
  }
  if (project?.agents !== undefined) {
    next.project.agents = [...project.agents];
    next.project.agents_why = why;
    applied.push('project.agents');
  }
  const repository = recipe.repository;
  if (repository?.trunk !== undefined) {
    next.trunk = { name: repository.trunk, why };
    applied.push('repository.trunk');
  }
  if (repository?.branch_prefix !== undefined) {
    next.branch_prefix = repository.branch_prefix;
    applied.push('repository.branch_prefix');
  }
  if (repository?.ensure !== undefined) {
    next.ensure = commandList(repository.ensure).map((run) => ({
      run,
      why: kept(proposal.ensure.find((e) => e.run === run)?.why, why),
    }));
    applied.push('repository.ensure');
  }
  if (recipe.jobs !== undefined) {
    next.jobs = configuredJobs({ jobs: recipe.jobs }).map((job) => {
      const proposed = proposal.jobs.find((p) => p.name === job.name && same(p.run, job.commands));
      return {
        name: job.name,
        stage: job.stage,
        run: job.commands,
        ...(job.timeout !== undefined ? { timeout: job.timeout } : {}),
        ...(job.provides !== undefined ? { provides: job.provides } : {}),
        why: kept(proposed?.why, why),
      };
    });
    applied.push('jobs');
  }
  if (recipe.scopes !== undefined) {
    next.scopes = scopesOf(recipe.scopes, () => why);
    applied.push('scopes');
  }
  return { proposal: next, applied };
}

/**
 * What the working discern.toml says, in the proposal's shape: a choice that is still what setup proposed keeps
 * its evidence; one the owner changed or added says so.
 */
export function proposalFromConfig(
  config: DiscernConfig,
  proposed: SetupProposal,
  context: { root: string; trunk: string },
): SetupProposal {
  const changed = 'changed on the setup branch';
  const added = 'added on the setup branch';
  const agents = config.project?.agents;
  const slug = config.project?.slug;
  const split = config.meta?.split_scripts;
  return {
    ...(split && split.length > 0 ? { splitScripts: split.map((s) => ({ ...s })) } : {}),
    project: {
      name: config.project?.name ?? basename(context.root),
      ...(slug !== undefined ? { slug } : {}),
      agents: agents ? [...agents] : [...DEFAULT_AGENTS],
      agents_why:
        agents && same(agents, proposed.project.agents)
          ? proposed.project.agents_why
          : agents
            ? changed
            : 'none named: the default agents',
    },
    trunk: { name: context.trunk, why: context.trunk === proposed.trunk.name ? proposed.trunk.why : changed },
    ...(config.repository?.branch_prefix !== undefined ? { branch_prefix: config.repository.branch_prefix } : {}),
    ensure: commandList(config.repository?.ensure).map((run) => ({
      run,
      why: proposed.ensure.find((e) => e.run === run)?.why ?? added,
    })),
    jobs: configuredJobs(config).map((job) => {
      const before = proposed.jobs.find((p) => p.name === job.name);
      const why =
        before === undefined
          ? added
          : same(before.run, job.commands)
            ? before.why
            : `${changed}; setup proposed \`${before.run.join(' && ')}\``;
      return {
        name: job.name,
        stage: job.stage,
        run: job.commands,
        ...(job.timeout !== undefined ? { timeout: job.timeout } : {}),
        ...(job.provides !== undefined ? { provides: job.provides } : {}),
        why,
      };
    }),
    scopes: scopesOf(config.scopes ?? {}, (name, paths) => {
      const before = proposed.scopes.find((s) => s.name === name);
      return before === undefined ? added : same(before.paths, paths) ? before.why : changed;
    }),
  };
}

function scopesOf(
  scopes: NonNullable<DiscernConfig['scopes']>,
  why: (name: string, paths: string[]) => string,
): ProposedScope[] {
  return Object.entries(scopes).flatMap(([name, scope]) =>
    scope === undefined
      ? []
      : [
          {
            name,
            paths: [...scope.paths],
            neutral: scope.neutral === true,
            gate: commandList(scope.gate),
            ...(scope.timeout !== undefined ? { timeout: scope.timeout } : {}),
            why: why(name, scope.paths),
          },
        ],
  );
}

/** A project slug from a package or folder name: an npm scope is not part of it. */
export function slugFrom(name: string): string | undefined {
  return slugify(name.replace(/^@[^/]+\//, ''));
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

function kept(evidence: string | undefined, why: string): string {
  return evidence === undefined ? why : `${evidence}; the recipe keeps it`;
}
