// The jobs and ensure commands for a Python project: the project's own runner when it has one — tox
// environments, nox sessions, hatch scripts, or uv and poetry in front of its tools — and otherwise a virtualenv
// in the worktree (`.venv`, made by ensure, the package installed into it), never the system interpreter, with
// each configured tool run from it. Pure.
import type { EnsureProposal, JobProposal, PythonFacts } from './facts.js';

export interface PythonPlan {
  jobs: JobProposal[];
  ensure: EnsureProposal[];
}

/** A name that says the environment checks rather than tests. */
const CHECKING = /lint|flake8|ruff|pylint|style|pep8|black|isort|format|fmt|mypy|type|typing|pyright|check|docs?$/;
const VENV = '.venv/bin/python';

type Runner = 'tox' | 'nox' | 'hatch' | 'uv' | 'poetry' | 'venv';

/**
 * Which runner: the one CI runs, when the project has it; else tox, nox, hatch, uv, poetry in that order; else a
 * virtualenv of discern's making.
 */
export function pythonRunner(python: PythonFacts, ci: readonly { run: string }[] = []): Runner {
  const has: Record<Runner, boolean> = {
    tox: python.tools.includes('tox'),
    nox: python.tools.includes('nox'),
    hatch: (python.hatch_scripts ?? []).length > 0,
    uv: python.installer === 'uv',
    poetry: python.installer === 'poetry',
    venv: true,
  };
  const inCi: Record<Exclude<Runner, 'venv'>, RegExp> = {
    tox: /(^|\s)tox(\s|$)/,
    nox: /(^|\s)nox(\s|$)/,
    hatch: /(^|\s)hatch\s+(run|test)\b/,
    uv: /(^|\s)uv\s+(run|sync)\b/,
    poetry: /(^|\s)poetry\s+(run|install)\b/,
  };
  for (const runner of ['tox', 'nox', 'hatch', 'uv', 'poetry'] as const)
    if (has[runner] && ci.some((step) => inCi[runner].test(step.run))) return runner;
  return (['tox', 'nox', 'hatch', 'uv', 'poetry'] as const).find((r) => has[r]) ?? 'venv';
}

export function pythonPlan(python: PythonFacts, ci: readonly { run: string }[] = []): PythonPlan {
  const runner = pythonRunner(python, ci);
  if (runner === 'tox') return runnerJobs('tox', python.tox_envs, (env) => `tox -e ${env}`, 'tox.ini');
  if (runner === 'nox') return runnerJobs('nox', python.nox_sessions ?? [], (s) => `nox -s ${s}`, 'noxfile.py');
  if (runner === 'hatch' && python.hatch_scripts)
    return {
      jobs: python.hatch_scripts.map(({ env, script }) => ({
        name: safeName(`hatch-${env === 'default' ? '' : `${env}-`}${script}`),
        stage: CHECKING.test(`${env} ${script}`) ? 'check' : 'test',
        run: [`hatch run ${env === 'default' ? '' : `${env}:`}${script}`],
        why: `pyproject.toml defines the hatch script \`${script}\` in the \`${env}\` environment: the project's own runner`,
      })),
      ensure: [],
    };
  if (runner === 'uv')
    return toolJobs(python, { tool: 'uv run ', module: 'uv run python -m ' }, [
      { run: 'uv sync', why: 'installs the locked Python environment (uv.lock)' },
    ]);
  if (runner === 'poetry')
    return toolJobs(python, { tool: 'poetry run ', module: 'poetry run python -m ' }, [
      { run: 'poetry install', why: 'installs the locked Python environment (poetry.lock)' },
    ]);
  return toolJobs(python, { tool: `${VENV} -m `, module: `${VENV} -m ` }, venvEnsure(python));
}

/** One job per environment of a runner (or the runner whole, when it names none). */
function runnerJobs(
  runner: 'tox' | 'nox',
  names: readonly string[],
  command: (name: string) => string,
  file: string,
): PythonPlan {
  if (names.length === 0)
    return {
      jobs: [{ name: 'test', run: [runner], why: `${file} defines how this project is tested: its own runner` }],
      ensure: [],
    };
  return {
    jobs: names.map((name) => ({
      name: safeName(`${runner}-${name}`),
      stage: CHECKING.test(name) ? ('check' as const) : ('test' as const),
      run: [command(name)],
      why: `${file} defines the ${runner === 'tox' ? 'environment' : 'session'} \`${name}\`: the project's own runner, which installs what it needs`,
    })),
    ensure: [],
  };
}

/** The configured tools, each run through the environment: uv run, poetry run, or the virtualenv's python -m. */
function toolJobs(
  python: PythonFacts,
  through: { tool: string; module: string },
  ensure: EnsureProposal[],
): PythonPlan {
  const prefix = through.tool;
  const has = (tool: string): boolean => python.tools.includes(tool);
  const jobs: JobProposal[] = [];
  const add = (name: JobProposal['name'], run: string, why: string): void => {
    if (!jobs.some((j) => j.name === name)) jobs.push({ name, run: [run], why });
  };
  if (has('ruff'))
    add('format', `${prefix}ruff format --check .`, 'the project configures Ruff; --check changes nothing');
  else if (has('black')) add('format', `${prefix}black --check .`, 'the project uses Black; --check changes nothing');
  if (has('ruff')) add('lint', `${prefix}ruff check .`, 'the project configures Ruff');
  else if (has('flake8')) add('lint', `${prefix}flake8`, 'the project configures flake8');
  if (has('mypy')) add('typecheck', `${prefix}mypy .`, 'the project configures mypy');
  if (has('pytest')) add('test', `${prefix}pytest`, 'the project uses pytest');
  else if (python.unittest)
    add('test', `${through.module}unittest discover -s tests`, 'tests/ holds unittest tests and no pytest is declared');
  return { jobs, ensure };
}

/**
 * A virtualenv in the worktree: made, told to ignore itself (git then never sees it, whatever .gitignore says),
 * and given the package (with its test or dev extras) or the requirements.
 */
function venvEnsure(python: PythonFacts): EnsureProposal[] {
  const ensure: EnsureProposal[] = [
    {
      run: 'python3 -m venv .venv',
      why: 'a virtualenv in the worktree: the jobs run its python, never the system one',
    },
    { run: "printf '*\\n' > .venv/.gitignore", why: 'the virtualenv ignores itself, so the worktree stays clean' },
  ];
  const extras = python.extras ?? [];
  if (python.installable)
    ensure.push({
      run: `${VENV} -m pip install -e ${extras.length > 0 ? `".[${extras.join(',')}]"` : '.'}`,
      why: `installs the package${extras.length > 0 ? ` with its ${extras.join(', ')} extras` : ''} into the virtualenv, editable`,
    });
  if (python.markers.includes('requirements.txt'))
    ensure.push({
      run: `${VENV} -m pip install -r requirements.txt`,
      why: 'installs requirements.txt into the virtualenv',
    });
  if (python.markers.includes('requirements-dev.txt'))
    ensure.push({
      run: `${VENV} -m pip install -r requirements-dev.txt`,
      why: 'installs requirements-dev.txt into the virtualenv',
    });
  return ensure;
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/-+$/, '') || 'python';
}
