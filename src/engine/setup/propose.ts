// From facts to proposals: which command each known job should run, and what makes a fresh worktree usable.
// Evidence ranks: the project's own package scripts, then its Makefile targets, then the conventional command of
// a tool it configures. Pure: no I/O.
import type { EnsureProposal, JobName, JobProposal, NodeFacts, RepositoryFacts, SplitScript } from './facts.js';
import { splitChain, type ChainPart } from './chains.js';
import { KNOWN_JOB_STAGES } from '../config/jobs.js';
import { pythonPlan } from './python-plan.js';

export type InspectedFacts = Omit<RepositoryFacts, 'jobs' | 'ensure'>;

const JOB_ORDER: readonly JobName[] = ['format', 'build', 'lint', 'typecheck', 'test'];
const SCRIPT_NAMES: Record<JobName, readonly string[]> = {
  format: ['format', 'fmt', 'prettier'],
  build: ['build'],
  lint: ['lint', 'eslint'],
  typecheck: ['typecheck', 'type-check', 'check-types', 'types', 'tsc'],
  test: ['test'],
};
const MAKE_NAMES: Record<JobName, readonly string[]> = {
  format: ['format', 'fmt'],
  build: ['build'],
  lint: ['lint'],
  typecheck: ['typecheck'],
  test: ['test', 'check'],
};
/** npm's placeholder `test` script fails on purpose: it is not a test suite. */
const NPM_PLACEHOLDER_TEST = /no test specified/;

interface Candidate {
  run: string;
  why: string;
}

export function propose(facts: InspectedFacts): { jobs: JobProposal[]; ensure: EnsureProposal[] } {
  const byJob = new Map<JobName, Candidate[]>();
  const add = (job: JobName, candidate: Candidate | undefined): void => {
    if (candidate) byJob.set(job, [...(byJob.get(job) ?? []), candidate]);
  };
  const parts: JobProposal[] = [];
  const python = facts.python ? pythonPlan(facts.python, facts.ci_steps) : undefined;
  // A Python runner's environments are jobs of their own names (tox-py, nox-lint), as split scripts' parts are.
  parts.push(...(python?.jobs.filter((j) => !JOB_ORDER.includes(j.name as JobName)) ?? []));
  for (const job of JOB_ORDER) {
    const make = makeCandidate(job, facts.make_targets);
    const split = facts.node ? splitScript(job, facts.node) : undefined;
    if (split) parts.push(...split);
    else if (facts.node) add(job, nodeScript(job, facts.node) ?? make ?? nodeTool(job, facts.node));
    else if (make) add(job, make);
    const py = python?.jobs.find((j) => j.name === job);
    if (py) add(job, { run: py.run[0], why: py.why });
    if (facts.rust) add(job, RUST[job]);
    if (facts.go) add(job, GO[job]);
  }
  const jobs: JobProposal[] = [];
  for (const job of JOB_ORDER) {
    const candidates = dedupe(byJob.get(job) ?? []);
    const [first, ...others] = candidates.map((c) => c.run);
    if (first === undefined) continue;
    const ci = candidates.filter((c) => facts.ci_steps.some((s) => s.run.includes(c.run))).map((c) => c.run);
    const why =
      candidates.map((c) => c.why).join('; ') +
      (ci.length > 0 ? `; CI runs ${ci.map((r) => `\`${r}\``).join(', ')} too` : '');
    jobs.push({ name: job, run: [first, ...others], why });
  }
  // The parts of split scripts, each once (a part two scripts share, such as a linter, is one job).
  for (const part of parts)
    if (!jobs.some((j) => j.name === part.name)) jobs.push(part);
    else if (!jobs.some((j) => j.name === part.name && j.run[0] === part.run[0]))
      jobs.push({ ...part, name: `${part.name}-${part.source?.script ?? 'part'}` });
  return { jobs, ensure: ensureCommands(facts) };
}

/**
 * The script a job would run, split into one job per part when it chains tools safely (chains.ts); undefined
 * when there is no such script or it is not a safe chain. A part named like a known job must have that job's stage.
 */
function splitScript(job: JobName, node: NodeFacts): JobProposal[] | undefined {
  const script = SCRIPT_NAMES[job].find((name) => node.scripts[name] !== undefined);
  if (script === undefined) return undefined;
  const text = node.scripts[script] ?? '';
  const parts = splitChain(script, {
    exec: exec(node.package_manager),
    scripts: node.scripts,
    runScript: (name) => runScript(node.package_manager, name),
  });
  if (
    parts === undefined ||
    parts.some((p) => KNOWN_JOB_STAGES[p.name] !== undefined && KNOWN_JOB_STAGES[p.name] !== p.stage)
  )
    return undefined;
  const source: SplitScript = { file: 'package.json', script, text };
  return parts.map((p) => ({
    name: p.name,
    ...(KNOWN_JOB_STAGES[p.name] === undefined ? { stage: p.stage } : {}),
    run: [p.run],
    why: `package.json's \`${script}\` script runs \`${text}\`; this is its part \`${p.run}\` (${PART_KIND[p.kind]}), a job of its own so its failure reads apart and it runs beside the others`,
    source,
  }));
}

const PART_KIND: Record<ChainPart['kind'], string> = {
  check: 'a read-only check',
  test: 'a test run',
  build: 'a build later parts read, so it runs first',
  script: 'another script',
};

function dedupe(candidates: Candidate[]): Candidate[] {
  return candidates.filter((c, i) => candidates.findIndex((o) => o.run === c.run) === i);
}

function makeCandidate(job: JobName, targets: readonly string[]): Candidate | undefined {
  const target = MAKE_NAMES[job].find((t) => targets.includes(t));
  return target ? { run: `make ${target}`, why: `the Makefile has a \`${target}\` target` } : undefined;
}

function runScript(manager: NodeFacts['package_manager'], script: string): string {
  if (manager === 'npm') return script === 'test' ? 'npm test' : `npm run ${script}`;
  if (manager === 'yarn') return `yarn ${script}`;
  return `${manager} run ${script}`;
}

function exec(manager: NodeFacts['package_manager']): string {
  return { npm: 'npx', pnpm: 'pnpm exec', yarn: 'yarn', bun: 'bunx' }[manager];
}

function nodeScript(job: JobName, node: NodeFacts): Candidate | undefined {
  const script = SCRIPT_NAMES[job].find(
    (name) =>
      node.scripts[name] !== undefined && !(name === 'test' && NPM_PLACEHOLDER_TEST.test(node.scripts[name] ?? '')),
  );
  return script
    ? {
        run: runScript(node.package_manager, script),
        why: `package.json has a \`${script}\` script (\`${node.scripts[script]}\`)`,
      }
    : undefined;
}

function nodeTool(job: JobName, node: NodeFacts): Candidate | undefined {
  const x = exec(node.package_manager);
  const has = (tool: string): boolean => node.tools.includes(tool);
  if (job === 'format' && has('prettier')) return { run: `${x} prettier --write .`, why: 'the project uses Prettier' };
  if (job === 'format' && has('biome')) return { run: `${x} biome format --write .`, why: 'the project uses Biome' };
  if (job === 'lint' && has('eslint')) return { run: `${x} eslint .`, why: 'the project uses ESLint' };
  if (job === 'lint' && has('biome')) return { run: `${x} biome lint .`, why: 'the project uses Biome' };
  if (job === 'typecheck' && has('typescript'))
    return { run: `${x} tsc --noEmit`, why: 'the project has a tsconfig.json or depends on TypeScript' };
  if (job === 'test' && has('vitest')) return { run: `${x} vitest run`, why: 'the project depends on Vitest' };
  if (job === 'test' && has('jest')) return { run: `${x} jest`, why: 'the project depends on Jest' };
  if (job === 'test' && has('mocha')) return { run: `${x} mocha`, why: 'the project depends on Mocha' };
  return undefined;
}

const RUST: Partial<Record<JobName, Candidate>> = {
  format: {
    run: 'cargo fmt --all --check',
    why: 'Cargo.toml: rustfmt is the Rust formatter; --check fails on unformatted code and changes nothing',
  },
  lint: { run: 'cargo clippy --all-targets -- -D warnings', why: 'Cargo.toml: Clippy is the Rust linter' },
  test: { run: 'cargo test', why: 'Cargo.toml: cargo test builds and runs the tests' },
};

const GO: Partial<Record<JobName, Candidate>> = {
  format: {
    run: 'test -z "$(gofmt -l .)"',
    why: 'go.mod: gofmt is the Go formatter; it lists unformatted files (and exits 0 either way), so the job fails when it lists any',
  },
  lint: { run: 'go vet ./...', why: 'go.mod: go vet reports suspicious constructs' },
  test: { run: 'go test ./...', why: 'go.mod: go test runs every package’s tests' },
};

function ensureCommands(facts: InspectedFacts): EnsureProposal[] {
  const ensure: EnsureProposal[] = [];
  const node = facts.node;
  if (node) {
    // Without a committed lockfile an install must not write one: every worktree would start dirty.
    const locked = node.lockfile !== undefined;
    const run = locked
      ? {
          npm: 'npm ci',
          pnpm: 'pnpm install --frozen-lockfile',
          yarn: 'yarn install --immutable',
          bun: 'bun install --frozen-lockfile',
        }[node.package_manager]
      : {
          npm: 'npm install --no-package-lock',
          pnpm: 'pnpm install --no-lockfile',
          yarn: 'yarn install --no-lockfile',
          bun: 'bun install --no-save',
        }[node.package_manager];
    ensure.push({
      run,
      why: locked
        ? `installs the locked Node dependencies with ${node.package_manager} (${node.lockfile ?? ''})`
        : `installs the Node dependencies with ${node.package_manager}; the repository commits no lockfile, so none is written`,
    });
  }
  if (facts.python) ensure.push(...pythonPlan(facts.python, facts.ci_steps).ensure);
  if (facts.rust?.locked) ensure.push({ run: 'cargo fetch', why: 'downloads the crates Cargo.lock names' });
  if (facts.go) ensure.push({ run: 'go mod download', why: 'downloads the modules go.sum names' });
  return ensure;
}
