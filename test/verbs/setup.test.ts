// Setup end to end through the built CLI, on synthetic repositories of four ecosystems made here: begin drafts
// discern.toml on the setup branch, step pages through it, verify checks it, done proves it with the first gate,
// accept lands it — and the work loop refuses setup_unfinished until then. Around that: the dry run writes
// nothing, a denied path changes nothing, the recipe (JSON and TOML) and its refusals, an unknown page, the
// wrong branch, a moved trunk, a red gate, a dirty tree, a linked worktree, hooks and a missing identity.
import { execFileSync } from 'node:child_process';
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import type { DiscernConfigIssues, DiscernResult, DiscernResultsByVerb } from '../../generated/types.js';
import { renderMarkdown } from '../../src/render/markdown/index.js';
import { runCli } from '../helpers/cli.js';
import { assertPublishedResult, resultValidator } from '../helpers/published-schema.js';
import { cleanEnv, scratchRepo, tempDir, type ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

const PASS = 'node -e "process.exit(0)"';

/** A repository of one ecosystem, committed on main, with a command the gate can really run. */
function fixture(kind: 'node' | 'python' | 'rust' | 'go', extra: Record<string, string> = {}): ScratchRepo {
  const files: Record<string, Record<string, string>> = {
    node: {
      'package.json': JSON.stringify({ name: 'web-shop', scripts: { test: PASS } }, null, 2),
      'docs/guide.md': '# Guide\n',
    },
    python: {
      'pyproject.toml': '[project]\nname = "data-tools"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
      'tests/test_it.py': 'def test_it():\n    assert True\n',
    },
    rust: { 'Cargo.toml': '[package]\nname = "ferris"\nversion = "0.1.0"\n', 'src/main.rs': 'fn main() {}\n' },
    go: { 'go.mod': 'module example.com/gopher\n\ngo 1.22\n', 'main.go': 'package main\n\nfunc main() {}\n' },
  };
  const r = scratchRepo({ ...files[kind], ...extra });
  repos.push(r);
  return r;
}

interface Ran {
  result: DiscernResult;
  code: number | null;
}

/** One call of the built CLI with --json: the result validates against its published definition, the exit code matches the verdict, and its Markdown ends with the next action. */
async function discern(cwd: string, args: string[], env: Record<string, string> = {}): Promise<Ran> {
  const run = await runCli([...args, '--json'], { cwd, env: cleanEnv(env) });
  const result = JSON.parse(run.stdout.trim()) as DiscernResult;
  assertPublishedResult(result);
  const definition = `Discern${result.verb
    .split(' ')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('')}Result`;
  const validate = resultValidator(definition);
  assert.ok(validate(result), `${definition}: ${JSON.stringify(validate.errors, null, 2)}`);
  assert.equal(
    run.code,
    result.ok ? 0 : result.error === 'invalid_arguments' ? 2 : 1,
    `${args.join(' ')}: exit ${run.code}\n${run.stderr}`,
  );
  const markdown = renderMarkdown(result);
  if (!result.ok) assert.ok(markdown.trimEnd().endsWith(result.hints[result.hints.length - 1] ?? ''), markdown);
  return { result, code: run.code };
}

function show(r: DiscernResult): string {
  return JSON.stringify(r, null, 2);
}

type DataOf<V extends keyof DiscernResultsByVerb> = Exclude<
  NonNullable<DiscernResultsByVerb[V]['data']>,
  DiscernConfigIssues
>;

/** The data of a result of the named verb (its own payload, not the config-issue escape). */
function dataOf<V extends keyof DiscernResultsByVerb>(r: DiscernResult, verb: V): DataOf<V> {
  assert.equal(r.verb, verb);
  assert.ok(r.data && !('issues' in r.data && Object.keys(r.data).length === 1), show(r));
  return r.data as DataOf<V>;
}

function git(r: ScratchRepo, ...args: string[]): string {
  return r.git(...args).trim();
}

function setupState(r: ScratchRepo): Record<string, unknown> {
  return JSON.parse(readFileSync(join(r.root, '.git', 'discern', 'setup.json'), 'utf8')) as Record<string, unknown>;
}

/** The owner's edit of the draft on the setup branch: the file's text changed and committed. */
function ownerEdits(r: ScratchRepo, edit: (text: string) => string, message = 'Confirm the jobs'): void {
  const path = join(r.root, 'discern.toml');
  writeFileSync(path, edit(readFileSync(path, 'utf8')));
  r.commit(message);
}

/** Replaces the whole [jobs] section (up to the next table) with `jobs`. */
function withJobs(text: string, jobs: string): string {
  return text.replace(/\[jobs\]\n[\s\S]*?(?=\n\[|\n# [^\n]*\n\[|$)/, `[jobs]\n${jobs}\n`);
}

describe('setup on a Node project, begin to accept', () => {
  const r = fixture('node');
  const base = git(r, 'rev-parse', 'HEAD');
  let pages = 0;

  it('begin drafts discern.toml from the facts, commits it on discern/setup and returns the contract and page 1', async () => {
    const { result } = await discern(r.root, ['setup', 'begin']);
    assert.ok(result.ok, show(result));
    const data = dataOf(result, 'setup begin');
    assert.equal(data.phase, 'begun');
    assert.equal(data.branch, 'discern/setup');
    assert.equal(data.trunk, 'main');
    assert.equal(data.base, base);
    assert.deepEqual(data.facts.ecosystems, ['node']);
    assert.match(data.draft, /^test = "npm test"$/m);
    assert.match(data.draft, /^# package\.json has a `test` script/m);
    assert.match(data.draft, /^\[scopes\.docs\]$/m);
    assert.ok(
      data.contract.discern_does.length > 0 && data.contract.owner_decides.length === data.spine.owner_moments.length,
    );
    assert.equal(data.page.number, 1);
    assert.deepEqual(data.page.owner_moments, ['trunk', 'identity']);
    pages = data.pages_total;
    assert.ok(pages >= 5, 'trunk, ensure, a job, scopes, agents');
    // The spine carries each moment once; every page's ids name one of them.
    const ids = data.spine.owner_moments.map((m) => m.id);
    assert.equal(new Set(ids).size, ids.length);
    assert.equal(git(r, 'symbolic-ref', '--short', 'HEAD'), 'discern/setup');
    assert.equal(git(r, 'rev-parse', 'main'), base, 'the trunk does not move');
    assert.equal(git(r, 'show', 'HEAD:discern.toml'), data.draft.trimEnd());
    assert.equal(data.commit, git(r, 'rev-parse', 'HEAD'));
    assert.equal(git(r, 'status', '--porcelain'), '');
    assert.equal(setupState(r)['phase'], 'begun');
    assert.deepEqual(result.hints, ['Go through the pages with the owner: `discern setup step 2` is next.']);
  });

  it('step pages through every page; each refers to moments of the spine; out of range is unknown_step naming the range', async () => {
    for (let n = 1; n <= pages; n++) {
      const { result } = await discern(r.root, ['setup', 'step', String(n)]);
      assert.ok(result.ok, show(result));
      const data = dataOf(result, 'setup step');
      assert.equal(data.page.number, n);
      assert.equal(data.pages_total, pages);
      assert.ok(data.page.body.length > 0);
      for (const id of data.page.owner_moments)
        assert.ok(
          data.spine.owner_moments.some((m) => m.id === id),
          `${id} is in the spine`,
        );
      assert.equal(
        result.hints?.[result.hints.length - 1],
        n < pages
          ? `Next page: \`discern setup step ${n + 1}\`.`
          : 'That was the last page: `discern setup verify` checks the draft, then `discern setup done` proves it.',
      );
    }
    const job = await discern(r.root, ['setup', 'step', '3']);
    assert.ok(job.result.ok);
    assert.match(
      dataOf(job.result, 'setup step').page.body,
      /^ {4}npm test$/m,
      'a job page shows its command verbatim, to try',
    );
    for (const n of ['0', String(pages + 1)]) {
      const { result } = await discern(r.root, ['setup', 'step', n]);
      assert.equal(result.error, 'unknown_step', show(result));
      assert.match(result.message ?? '', new RegExp(`pages 1 to ${pages}`));
      assert.match(result.hints?.at(-1) ?? '', new RegExp(`from 1 to ${pages}`));
    }
  });

  it('the work loop refuses setup_unfinished mid-setup, with the next action for the phase; status says so', async () => {
    for (const args of [
      ['done'],
      ['prepare'],
      ['test'],
      ['start', 'x'],
      ['update'],
      ['await', '--trunk-moved', '--timeout', '0'],
      ['accept', 'x'],
    ]) {
      const { result } = await discern(r.root, args);
      assert.equal(result.error, 'setup_unfinished', `${args.join(' ')}: ${show(result)}`);
      assert.equal(result.hints?.at(-1), 'Finish setup first: run `discern setup step 1`.');
    }
    const status = await discern(r.root, ['status']);
    assert.ok(status.result.ok, show(status.result));
    assert.deepEqual(dataOf(status.result, 'status').setup_unfinished, {
      phase: 'begun',
      branch: 'discern/setup',
      next: 'discern setup step 1',
      known_jobs: ['format', 'build', 'lint', 'typecheck', 'test', 'smoke'].map((name) => ({
        name,
        wired: name === 'test',
      })),
    });
    for (const args of [['doctor'], ['docs', 'setup'], ['help', 'setup', 'begin'], ['impact']]) {
      const { result } = await discern(r.root, args);
      assert.notEqual(result.error, 'setup_unfinished', `${args.join(' ')} is not gated`);
    }
  });

  it('verify finds the draft sound and lists the jobs it would run', async () => {
    const { result } = await discern(r.root, ['setup', 'verify']);
    assert.ok(result.ok, show(result));
    const data = dataOf(result, 'setup verify');
    assert.equal(data.valid, true);
    assert.deepEqual(data.issues, []);
    assert.deepEqual(data.jobs, [{ name: 'test', stage: 'test', commands: ['npm test'] }]);
  });

  it('done runs doctor and the first gate: Proof, the inventory, one next action', async () => {
    const draft = git(r, 'rev-parse', 'HEAD');
    const { result } = await discern(r.root, ['setup', 'done']);
    assert.ok(result.ok, show(result));
    // The agents' files for the draft's configuration were written and committed on top of the draft; that
    // commit is the one proven.
    const tip = git(r, 'rev-parse', 'HEAD');
    assert.equal(git(r, 'rev-parse', 'HEAD~1'), draft);
    assert.equal(git(r, 'log', '-1', '--format=%s'), 'discern setup: agent instructions, MCP wiring and skills');
    assert.deepEqual(
      git(r, 'show', '--name-only', '--format=', 'HEAD')
        .split('\n')
        .filter((p) => ['AGENTS.md', 'CLAUDE.md', '.mcp.json'].includes(p))
        .sort(),
      ['.mcp.json', 'AGENTS.md', 'CLAUDE.md'],
    );
    assert.equal(git(r, 'status', '--porcelain'), '');
    assert.ok(result.steps?.some((s) => s.kind === 'refresh' && s.outcome === 'ok'));
    const data = dataOf(result, 'setup done');
    assert.equal(data.phase, 'done');
    assert.deepEqual(data.completion, {
      status: 'proven',
      commit: tip,
      ...(data.proof?.proof_id ? { proof_id: data.proof.proof_id } : {}),
    });
    assert.equal(data.proof?.commit, tip);
    assert.ok(data.checks.every((c) => c.status !== 'fail'));
    assert.deepEqual(data.inventory?.jobs, [{ name: 'test', stage: 'test', commands: ['npm test'] }]);
    assert.deepEqual(data.inventory?.scopes, [{ name: 'docs', paths: ['docs/**'], neutral: true }]);
    assert.deepEqual(data.inventory?.agents, ['claude_code', 'codex']);
    assert.deepEqual(data.inventory?.project_context.ecosystems, ['node']);
    assert.deepEqual(result.hints, ['Proven. Land it on the trunk with `discern setup accept`.']);
    assert.ok(
      result.steps?.some((s) => s.label === 'test' && s.outcome === 'ok'),
      'the gate ran the job',
    );
    assert.equal(setupState(r)['phase'], 'done');
    const gated = await discern(r.root, ['done']);
    assert.equal(gated.result.hints?.at(-1), 'Finish setup first: run `discern setup accept`.');
  });

  it('accept fast-forwards the trunk, checks it out, writes the Proof note, deletes the branch; the work loop then works', async () => {
    const tip = git(r, 'rev-parse', 'HEAD');
    const { result } = await discern(r.root, ['setup', 'accept']);
    assert.ok(result.ok, show(result));
    const data = dataOf(result, 'setup accept');
    assert.deepEqual(data.completion, { status: 'landed', reason: 'fast_forward' });
    assert.equal(data.landed_commit, tip);
    assert.equal(data.proof_note?.status, 'recorded');
    assert.deepEqual(
      data.instruction_refresh,
      { status: 'complete', compiled: [] },
      'setup done committed the agents’ files, so nothing is left to write',
    );
    assert.deepEqual(
      data.reactivation.map((a) => [a.agent, a.recovery]),
      [
        ['claude_code', 'discern refresh'],
        ['codex', 'discern refresh (in a project Codex trusts), else codex mcp add discern -- discern mcp'],
      ],
    );
    assert.match(data.reactivation[0]?.check ?? '', /\/mcp/);
    assert.match(data.activation_context, /session starts/);
    assert.equal(git(r, 'rev-parse', 'main'), tip);
    assert.equal(git(r, 'symbolic-ref', '--short', 'HEAD'), 'main');
    assert.equal(git(r, 'branch', '--list', 'discern/setup'), '');
    assert.match(git(r, 'notes', '--ref=refs/notes/discern', 'show', tip), /payloadType/);
    assert.equal(setupState(r)['phase'], 'accepted');
    const done = await discern(r.root, ['done']);
    assert.ok(done.result.ok, show(done.result));
    const status = await discern(r.root, ['status']);
    assert.equal(dataOf(status.result, 'status').setup_unfinished, undefined);
  });

  it('accept again is a no-op; begin again refuses: the repository is set up', async () => {
    const again = await discern(r.root, ['setup', 'accept']);
    assert.ok(again.result.ok, show(again.result));
    assert.deepEqual(dataOf(again.result, 'setup accept').completion, { status: 'no_op', reason: 'already_on_target' });
    const begin = await discern(r.root, ['setup', 'begin']);
    assert.equal(begin.result.error, 'precondition_failed', show(begin.result));
    assert.match(begin.result.message ?? '', /already set up/);
    assert.match(begin.result.message ?? '', /discern doctor/);
    assert.match(begin.result.message ?? '', /discern config/);
  });
});

describe('setup with a recipe, on a Python project', () => {
  it("a JSON recipe replaces what it names; the setup is proven and lands with the recipe's agents", async () => {
    const r = fixture('python', { 'docs/index.md': '# Docs\n' });
    const recipe = join(tempDir('discern-recipe-'), 'setup.json');
    writeFileSync(
      recipe,
      JSON.stringify(
        {
          $schema: 'https://discern.sh/schema/v1/discern-setup-config.schema.json',
          project: { name: 'Data Tools', agents: ['claude_code', 'gemini'] },
          // No install here: the package index is out of reach (the live Python fixtures install offline).
          repository: { ensure: [] },
          jobs: { test: PASS, lint: [PASS, PASS] },
          scopes: { documentation: { paths: ['docs/**'], neutral: true } },
        },
        null,
        2,
      ),
    );
    const { result } = await discern(r.root, ['setup', 'begin', '--config', recipe]);
    assert.ok(result.ok, show(result));
    const data = dataOf(result, 'setup begin');
    assert.deepEqual(data.facts.ecosystems, ['python']);
    assert.deepEqual(
      data.facts.jobs.map((j) => j.run),
      [['.venv/bin/python -m pytest']],
      'the facts still say what was found',
    );
    assert.deepEqual(data.recipe, {
      path: recipe,
      applied: ['project.name', 'project.agents', 'repository.ensure', 'jobs', 'scopes'],
    });
    assert.match(data.draft, /^name = "Data Tools"$/m);
    assert.match(data.draft, /^slug = "data-tools"$/m);
    assert.match(data.draft, /^agents = \["claude_code", "gemini"\]$/m);
    assert.match(data.draft, /^test = "node -e \\"process\.exit\(0\)\\""$/m);
    assert.doesNotMatch(data.draft, /pytest/);
    assert.match(data.draft, /^\[scopes\.documentation\]$/m);
    assert.match(data.draft, /# set by the setup recipe setup\.json\./);
    const verify = await discern(r.root, ['setup', 'verify']);
    assert.ok(verify.result.ok, show(verify.result));
    const done = await discern(r.root, ['setup', 'done']);
    assert.ok(done.result.ok, show(done.result));
    assert.deepEqual(
      dataOf(done.result, 'setup done').inventory?.jobs.map((j) => [j.name, j.stage]),
      [
        ['test', 'test'],
        ['lint', 'check'],
      ],
    );
    const accepted = await discern(r.root, ['setup', 'accept']);
    assert.ok(accepted.result.ok, show(accepted.result));
    assert.deepEqual(
      dataOf(accepted.result, 'setup accept').reactivation.map((a) => a.agent),
      ['claude_code', 'gemini'],
    );
  });

  it('a TOML recipe (by its extension) in a dry run: the plan and the draft, nothing written', async () => {
    const r = fixture('python');
    const recipe = join(tempDir('discern-recipe-'), 'recipe.toml');
    writeFileSync(
      recipe,
      '[repository]\nensure = ["node -e 0"]\n\n[jobs]\ntest = { run = "node -e 0", timeout = 60 }\n\n[jobs.e2e]\nstage = "test"\nrun = ["node -e 0"]\n',
    );
    const { result } = await discern(r.root, ['setup', 'begin', '--dry-run', '--config', recipe]);
    assert.ok(result.ok, show(result));
    assert.equal(result.dry_run, true);
    assert.ok(result.plan && result.plan.steps.length > 0 && result.steps === undefined);
    const data = dataOf(result, 'setup begin');
    assert.deepEqual(data.recipe?.applied, ['repository.ensure', 'jobs']);
    assert.match(data.draft, /^ensure = \["node -e 0"\]$/m);
    assert.match(data.draft, /^test = \{ run = "node -e 0", timeout = 60 \}$/m);
    assert.match(data.draft, /^\[jobs\.e2e\]\nstage = "test"\nrun = "node -e 0"$/m);
    assert.equal(git(r, 'symbolic-ref', '--short', 'HEAD'), 'main');
    assert.equal(existsSync(join(r.root, 'discern.toml')), false);
  });

  it("an invalid recipe is invalid_config_file with the schema complaint and the recipe's line; nothing is written", async () => {
    const r = fixture('python');
    const dir = tempDir('discern-recipe-');
    const cases: [string, string, RegExp, number][] = [
      ['wrong-type.json', '{\n  "jobs": {\n    "test": 5\n  }\n}\n', /`jobs\.test` must be/, 3],
      [
        'unknown-key.json',
        '{\n  "project": {\n    "nmae": "x"\n  }\n}\n',
        /`project\.nmae` is not a key a setup recipe accepts/,
        3,
      ],
      ['broken.json', '{\n  "jobs": {,\n}\n', /is not valid JSON/, 2],
      ['bad.toml', '[jobs]\ntest = 5\n', /`jobs\.test` must be/, 2],
    ];
    for (const [name, text, message, line] of cases) {
      writeFileSync(join(dir, name), text);
      const { result } = await discern(r.root, ['setup', 'begin', '--config', join(dir, name)]);
      assert.equal(result.error, 'invalid_config_file', show(result));
      assert.match(result.message ?? '', message);
      assert.match(result.hints?.at(-1) ?? '', new RegExp(`line ${line}`), `${name}: ${result.hints?.at(-1) ?? ''}`);
      assert.match(result.hints?.at(-1) ?? '', /discern setup begin --config/);
    }
    const missing = await discern(r.root, ['setup', 'begin', '--config', join(dir, 'absent.json')]);
    assert.equal(missing.result.error, 'invalid_config_file');
    assert.equal(git(r, 'branch', '--list', 'discern/setup'), '');
    assert.equal(existsSync(join(r.root, '.git', 'discern', 'setup.json')), false);
  });
});

it('a recipe naming an existing trunk the main checkout is not on is not_on_trunk; nothing is written', async () => {
  const r = fixture('python');
  git(r, 'switch', '-q', '-c', 'feature');
  writeFileSync(join(r.root, 'feature.txt'), 'not for the trunk\n');
  git(r, 'add', 'feature.txt');
  git(r, 'commit', '-q', '-m', 'feature work');
  const recipe = join(tempDir('discern-recipe-'), 'setup.json');
  writeFileSync(recipe, JSON.stringify({ repository: { trunk: 'main', ensure: [] } }));
  for (const args of [
    ['setup', 'begin', '--config', recipe],
    ['setup', 'begin', '--config', recipe, '--dry-run'],
  ]) {
    const { result, code } = await discern(r.root, args);
    assert.equal(code, 1);
    assert.equal(result.error, 'not_on_trunk', show(result));
    assert.match(result.message ?? '', /on `feature`, not on the trunk `main`/);
    assert.equal(
      result.hints?.at(-1),
      `Check the trunk out in the main checkout (\`git switch main\`), then run \`discern setup begin --config ${recipe}\` again.`,
    );
  }
  assert.equal(git(r, 'branch', '--list', 'discern/setup'), '');
  assert.equal(existsSync(join(r.root, '.git', 'discern', 'setup.json')), false);
  // A trunk the recipe names anew is made at landing: begun from feature, that is not a refusal.
  writeFileSync(recipe, JSON.stringify({ repository: { trunk: 'release', ensure: [] } }));
  const fresh = await discern(r.root, ['setup', 'begin', '--config', recipe, '--dry-run']);
  assert.ok(fresh.result.ok, show(fresh.result));
});

describe('setup on a Rust project: the owner edits the draft, and the trunk moves', () => {
  const r = fixture('rust');

  it('begin proposes cargo; verify names a command that does not resolve, with its line; the fix verifies', async () => {
    const { result } = await discern(r.root, ['setup', 'begin']);
    assert.ok(result.ok, show(result));
    const data = dataOf(result, 'setup begin');
    assert.deepEqual(data.facts.ecosystems, ['rust']);
    assert.match(data.draft, /^test = "cargo test"$/m);
    assert.doesNotMatch(data.draft, /^ensure = /m, 'no Cargo.lock is committed: nothing to fetch ahead');
    ownerEdits(r, (t) => withJobs(t, 'test = "definitely-not-a-program-7f3 --all"').replace(/^ensure = .*\n/m, ''));
    const bad = await discern(r.root, ['setup', 'verify']);
    assert.equal(bad.result.error, 'precondition_failed', show(bad.result));
    const issues = dataOf(bad.result, 'setup verify').issues;
    assert.equal(issues.length, 1);
    const line =
      readFileSync(join(r.root, 'discern.toml'), 'utf8')
        .split('\n')
        .findIndex((l) => l.startsWith('test = ')) + 1;
    assert.deepEqual([issues[0]?.kind, issues[0]?.path, issues[0]?.line], ['unresolved_command', 'jobs.test', line]);
    assert.match(bad.result.message ?? '', new RegExp(`\\(line ${line}\\)`));
    // The pages follow the working file: the job the owner changed says so.
    const page = await discern(r.root, ['setup', 'step', '3']);
    assert.match(
      dataOf(page.result, 'setup step').page.body,
      /changed on the setup branch; setup proposed `cargo test`/,
    );
    ownerEdits(r, (t) => withJobs(t, `test = ${JSON.stringify(PASS)}`));
    const good = await discern(r.root, ['setup', 'verify']);
    assert.ok(good.result.ok, show(good.result));
  });

  it('a schema problem in the draft is reported with its line, and step still pages the proposal', async () => {
    const path = join(r.root, 'discern.toml');
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.replace('[project]\n', '[project]\nnmae = "typo"\n'));
    const bad = await discern(r.root, ['setup', 'verify']);
    assert.equal(bad.result.error, 'unknown_key', show(bad.result));
    assert.deepEqual(
      dataOf(bad.result, 'setup verify').issues.map((i) => [i.path, i.line]),
      [['project.nmae', text.split('\n').indexOf('[project]') + 2]],
    );
    const page = await discern(r.root, ['setup', 'step', '1']);
    assert.ok(page.result.ok, show(page.result));
    assert.equal(dataOf(page.result, 'setup step').config_issues?.[0]?.path, 'project.nmae');
    writeFileSync(path, text);
  });

  it('accept with the trunk moved refuses and changes nothing; merged and proven again, it lands', async () => {
    const proven = await discern(r.root, ['setup', 'done']);
    assert.ok(proven.result.ok, show(proven.result));
    // Someone lands on main meanwhile (main is not checked out anywhere: commit it with plumbing).
    const moved = git(r, 'commit-tree', 'main^{tree}', '-p', 'main', '-m', 'Elsewhere');
    git(r, 'update-ref', 'refs/heads/main', moved);
    const tip = git(r, 'rev-parse', 'HEAD');
    const refused = await discern(r.root, ['setup', 'accept']);
    assert.equal(refused.result.error, 'precondition_failed', show(refused.result));
    assert.match(refused.result.message ?? '', /moved since setup began/);
    assert.match(refused.result.message ?? '', /git merge main/);
    assert.equal(git(r, 'rev-parse', 'main'), moved, 'the trunk is untouched');
    assert.equal(git(r, 'rev-parse', 'HEAD'), tip);
    assert.equal(setupState(r)['phase'], 'done');
    git(r, 'merge', '-q', '--no-edit', 'main');
    const unproven = await discern(r.root, ['setup', 'accept']);
    assert.equal(unproven.result.error, 'incomplete', show(unproven.result));
    assert.match(unproven.result.hints?.at(-1) ?? '', /discern setup done/);
    const gated = await discern(r.root, ['done']);
    assert.equal(
      gated.result.hints?.at(-1),
      'Finish setup first: run `discern setup done`.',
      'a proven setup whose tip moved is proven again',
    );
    assert.ok((await discern(r.root, ['setup', 'done'])).result.ok);
    const landed = await discern(r.root, ['setup', 'accept']);
    assert.ok(landed.result.ok, show(landed.result));
    assert.equal(git(r, 'rev-parse', 'main'), git(r, 'rev-parse', 'HEAD'));
  });
});

describe('setup on a Go project: the dry run, denied paths, the wrong branch, hooks and identity', () => {
  it('a dry run returns the plan and writes nothing', async () => {
    const r = fixture('go');
    const { result } = await discern(r.root, ['setup', 'begin', '--dry-run']);
    assert.ok(result.ok && result.dry_run === true && result.steps === undefined, show(result));
    assert.ok(result.plan?.steps.some((s) => s.kind === 'git'));
    assert.match(dataOf(result, 'setup begin').draft, /^test = "go test \.\/\.\.\."$/m);
    assert.equal(git(r, 'status', '--porcelain'), '');
    assert.equal(git(r, 'branch', '--list'), '* main');
    assert.equal(existsSync(join(r.root, '.git', 'discern', 'setup.json')), false);
  });

  it('a path setup must write that cannot be written is write_denied with that path, and nothing changes', async () => {
    const r = fixture('go');
    const blocker = join(r.root, '.git', 'discern');
    writeFileSync(blocker, 'not a directory\n');
    const { result } = await discern(r.root, ['setup', 'begin']);
    assert.equal(result.error, 'write_denied', show(result));
    assert.match(result.message ?? '', new RegExp(`${blocker.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\b`));
    assert.match(result.hints?.at(-1) ?? '', new RegExp(blocker.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')));
    assert.equal(git(r, 'branch', '--list'), '* main');
    assert.equal(git(r, 'status', '--porcelain'), '');
    rmSync(blocker);
  });

  it('the gate fires on the trunk mid-setup; the setup verbs name the branch to check out', async () => {
    const r = fixture('go');
    assert.ok((await discern(r.root, ['setup', 'begin'])).result.ok);
    git(r, 'switch', '-q', 'main');
    const start = await discern(r.root, ['start', 'x']);
    assert.equal(
      start.result.error,
      'setup_unfinished',
      `no discern.toml on main, and still the setup is the answer: ${show(start.result)}`,
    );
    for (const args of [
      ['setup', 'verify'],
      ['setup', 'step', '1'],
      ['setup', 'done'],
    ]) {
      const { result } = await discern(r.root, args);
      assert.equal(result.error, 'not_on_setup_branch', show(result));
      assert.match(result.hints?.at(-1) ?? '', /git switch discern\/setup/);
    }
    const again = await discern(r.root, ['setup', 'begin']);
    assert.equal(again.result.error, 'setup_unfinished', show(again.result));
    git(r, 'switch', '-q', 'discern/setup');
    writeFileSync(join(r.root, 'notes.txt'), 'stray\n');
    const dirty = await discern(r.root, ['setup', 'done']);
    assert.equal(dirty.result.error, 'dirty_worktree', show(dirty.result));
    assert.match(dirty.result.message ?? '', /`notes\.txt`/);
  });

  it('a red first gate is gate_failed with its diagnostics; the fix is proven by setup done', async () => {
    const r = fixture('go');
    assert.ok((await discern(r.root, ['setup', 'begin'])).result.ok);
    // The drafted ensure needs a Go toolchain this test is not about: the red job is the test job.
    const noGo = (t: string): string => t.replace('"go mod download"', JSON.stringify(PASS));
    ownerEdits(r, (t) => withJobs(noGo(t), 'test = "node -e \\"console.error(\'boom\'); process.exit(3)\\""'));
    const red = await discern(r.root, ['setup', 'done']);
    assert.equal(red.result.error, 'gate_failed', show(red.result));
    assert.equal(dataOf(red.result, 'setup done').failed_stage, 'test');
    assert.ok(
      red.result.diagnostics?.some((d) => /boom/.test(d.output ?? d.message)),
      show(red.result),
    );
    assert.equal(
      red.result.hints?.at(-1),
      'Read the first diagnostic, fix it, commit, then run `discern setup done` again.',
    );
    const same = await discern(r.root, ['setup', 'done']);
    assert.equal(same.result.error, 'unchanged_tree_rerun');
    assert.match(same.result.hints?.at(-1) ?? '', /discern setup done --rerun/);
    ownerEdits(r, (t) => withJobs(t, `test = ${JSON.stringify(PASS)}`));
    assert.ok((await discern(r.root, ['setup', 'done'])).result.ok);
  });

  it("a failing commit hook does not stop setup's own commit; with no identity, discern commits as itself", async () => {
    const r = fixture('go');
    const hooks = join(r.root, '.git', 'hooks');
    mkdirSync(hooks, { recursive: true });
    for (const hook of ['pre-commit', 'commit-msg', 'post-checkout']) {
      writeFileSync(join(hooks, hook), '#!/bin/sh\necho "hook refused" >&2\nexit 1\n');
      chmodSync(join(hooks, hook), 0o755);
    }
    git(r, 'config', '--unset', 'user.name');
    git(r, 'config', '--unset', 'user.email');
    git(r, 'config', 'user.useConfigOnly', 'true');
    const home = tempDir('discern-home-');
    const { result } = await discern(r.root, ['setup', 'begin'], {
      HOME: home,
      XDG_CONFIG_HOME: home,
      GIT_CONFIG_NOSYSTEM: '1',
    });
    assert.ok(result.ok, show(result));
    assert.equal(git(r, 'log', '-1', '--format=%an <%ae>', 'discern/setup'), 'discern <discern@discern.invalid>');
  });

  it('a commit git refuses (signing that fails) is apply_failed, and begin undoes branch, file and record', async () => {
    const r = fixture('go');
    git(r, 'config', 'commit.gpgsign', 'true');
    git(r, 'config', 'gpg.program', 'false');
    const { result } = await discern(r.root, ['setup', 'begin']);
    assert.equal(result.error, 'apply_failed', show(result));
    assert.deepEqual(
      result.steps?.map((s) => [s.label, s.outcome]),
      [
        ['record the setup as begun', 'ok'],
        ['create discern/setup from HEAD and check it out', 'ok'],
        ['write discern.toml', 'ok'],
        ['commit discern.toml on discern/setup', 'failed'],
      ],
    );
    assert.equal(git(r, 'symbolic-ref', '--short', 'HEAD'), 'main');
    assert.equal(git(r, 'branch', '--list'), '* main');
    assert.equal(git(r, 'status', '--porcelain'), '');
    assert.equal(existsSync(join(r.root, '.git', 'discern', 'setup.json')), false);
  });

  it('setup begin from a linked worktree is not_main_checkout, naming the main checkout', async () => {
    const r = fixture('go');
    const linked = join(tempDir('discern-linked-'), 'wt');
    git(r, 'worktree', 'add', '-q', '-b', 'side', linked);
    const { result } = await discern(linked, ['setup', 'begin']);
    assert.equal(result.error, 'not_main_checkout', show(result));
    assert.match(result.hints?.at(-1) ?? '', new RegExp(r.root.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')));
  });

  it('a dirty tree refuses begin, naming the paths; a commit on HEAD first is needed', async () => {
    const r = fixture('go');
    writeFileSync(join(r.root, 'scratch.txt'), 'x\n');
    const dirty = await discern(r.root, ['setup', 'begin']);
    assert.equal(dirty.result.error, 'dirty_worktree', show(dirty.result));
    assert.match(dirty.result.message ?? '', /`scratch\.txt`/);
    const fresh = tempDir('discern-fresh-');
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: fresh, env: cleanEnv() });
    const empty = await discern(fresh, ['setup', 'begin']);
    assert.equal(empty.result.error, 'precondition_failed', show(empty.result));
    assert.match(empty.result.message ?? '', /no commit yet/);
  });
});
