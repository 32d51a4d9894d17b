// What setup learns about a repository before proposing a discern.toml: the ecosystems present, the commands
// the project already runs (package scripts, make targets, CI steps) and the tools it configures. Pure data; the
// shape is published as RepositoryFacts in spec/common.schema.json.

export type Ecosystem = 'node' | 'python' | 'rust' | 'go';
export type JobName = 'format' | 'build' | 'lint' | 'typecheck' | 'test';

export interface NodeFacts {
  package_manager: 'npm' | 'pnpm' | 'yarn' | 'bun';
  /** The lockfile that decided the package manager, when there is one. */
  lockfile?: string;
  /** package.json scripts, name → command, in file order. */
  scripts: Record<string, string>;
  /** Tools found in dependencies or config files: eslint, prettier, biome, typescript, vitest, jest, mocha. */
  tools: string[];
}

export interface PythonFacts {
  /** The files that mark the project as Python: pyproject.toml, setup.py, setup.cfg, tox.ini, noxfile.py, requirements. */
  markers: string[];
  /** uv, poetry, pip (from uv.lock, poetry.lock, requirements*.txt). */
  installer?: 'uv' | 'poetry' | 'pip';
  /** Tools configured or depended on: pytest, ruff, black, mypy, flake8, and the runners tox, nox, hatch. */
  tools: string[];
  /** tox.ini's environments, factors expanded. */
  tox_envs: string[];
  nox_sessions?: string[];
  hatch_scripts?: { env: string; script: string }[];
  /** The project installs (pyproject [project] or [build-system], setup.py, setup.cfg). */
  installable?: boolean;
  /** Its optional dependency groups for tests or development (test, tests, testing, dev). */
  extras?: string[];
  /** Tests under tests/ and no pytest: unittest runs them. */
  unittest?: boolean;
  /** A runner or the test configuration reads docs/ (doctests, sphinx): docs/ is not a neutral scope. */
  docs_in_checks?: boolean;
}

export interface CiStep {
  /** Workflow file, repository-relative. */
  file: string;
  run: string;
}

/** A package script setup split into one job per part, with its text then (doctor warns when it changes). */
export interface SplitScript {
  file: string;
  script: string;
  text: string;
}

/** One job setup proposes, with why: the evidence it came from. */
export interface JobProposal {
  /** A known job (its name fixes its stage), or one of its own with `stage`. */
  name: string;
  stage?: 'fix' | 'build' | 'check' | 'test';
  /** Commands run in order (one per ecosystem that has this job). */
  run: [string, ...string[]];
  why: string;
  /** The split script this job is a part of. */
  source?: SplitScript;
}

export interface EnsureProposal {
  run: string;
  why: string;
}

export interface RepositoryFacts {
  root: string;
  /** A human name: package.json/Cargo.toml/pyproject name, else the folder's. */
  name: string;
  ecosystems: Ecosystem[];
  node?: NodeFacts;
  python?: PythonFacts;
  /** Cargo package or workspace. */
  rust?: { package?: string; workspace: boolean; locked?: boolean };
  go?: { module: string };
  /** Makefile targets, in file order. */
  make_targets: string[];
  ci_steps: CiStep[];
  /** Repository-relative folders that hold only documentation (docs/, doc/). */
  docs_dirs: string[];
  /** The current branch, the trunk setup proposes. */
  branch?: string;
  /** Untracked files (not ignored) the proposal read: a fresh clone lacks them until they are committed. */
  untracked?: string[];
  /** The jobs setup proposes from these facts, in stage order. */
  jobs: JobProposal[];
  /** Idempotent commands that make a fresh worktree usable (dependency install). */
  ensure: EnsureProposal[];
}
