// The commit proved is the commit tested, under git filters. A local clean filter can make the working tree hold
// content the commit does not while git status calls it clean: here the commit's app.txt says fail (the job fails
// on it), the checkout's says pass, and a clean filter turns pass into fail. Filters are trusted by driver
// command, not by name: Git LFS's own commands, or a command the trunk's [gate] trusted_filters lists. Each case
// fails when its guard is removed (the filters precondition, the trunk's list, reading it from the trunk only,
// the attributes files outside the tree, Git LFS's own commands).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchRepo, tempDir, type ScratchRepo } from '../helpers/scratch-repo.js';
import { show, trustHarness } from '../helpers/trust-harness.js';

const FOREIGN = "sh -c 'sed s/pass/fail/'";
const LINE = `trusted_filters = [${JSON.stringify(FOREIGN)}]`;

const config = (gate = ''): string => `[project]
name = "filters"
${gate}
[jobs]
test = "grep -qx pass app.txt"
`;

// The server reads no system git config, as the scratch repositories' own git does not: a system-wide
// `git lfs install` (Debian's package runs one) defines filter.lfs.process, which would take over from the
// repository's own filter.lfs.clean.
const { repos, tool } = trustHarness('discern-filters-', { GIT_CONFIG_NOSYSTEM: '1' });

interface Effort {
  repo: ScratchRepo;
  path: string;
  git: (...a: string[]) => string;
}

/** An effort whose committed app.txt fails while its checkout passes under a clean filter named `name`. */
async function filteredEffort(
  name: string,
  options: { trunkGate?: string; effortGate?: string; attributes?: 'tree' | 'info' } = {},
): Promise<Effort> {
  const repo = scratchRepo({ 'discern.toml': config(options.trunkGate), 'app.txt': 'fail\n' });
  repos.push(repo);
  const started = await tool('discern_start', { name: `effort-${name}`, path: repo.root });
  assert.equal(started.ok, true, show(started));
  const path = (started.data as { path: string }).path;
  const git = (...args: string[]): string => repo.git('-C', path, ...args).trim();
  writeFileSync(join(path, 'notes.txt'), 'a change\n');
  if (options.effortGate !== undefined) writeFileSync(join(path, 'discern.toml'), config(options.effortGate));
  if (options.attributes === 'info') {
    // Outside the tree: the common dir's info/attributes, which git status never lists.
    const common = git('rev-parse', '--path-format=absolute', '--git-common-dir');
    writeFileSync(join(common, 'info', 'attributes'), `app.txt filter=${name}\n`);
  } else writeFileSync(join(path, '.gitattributes'), `app.txt filter=${name}\n`);
  git('add', '-A');
  git('commit', '-qm', 'a change');
  git('config', `filter.${name}.clean`, FOREIGN);
  writeFileSync(join(path, 'app.txt'), 'pass\n');
  git('update-index', '-q', '--refresh');
  assert.equal(git('status', '--porcelain'), '', 'git status calls the passing checkout clean');
  assert.equal(git('show', 'HEAD:app.txt'), 'fail', 'the commit holds the failing content');
  return { repo, path, git };
}

describe('filters are trusted by driver command, not by name', () => {
  it('a filter named lfs with a foreign command is refused before any job, naming it and the line to add', async () => {
    const e = await filteredEffort('lfs');
    const done = await tool('discern_done', { path: e.path });
    assert.equal(done.ok, false, show(done));
    assert.equal(done.data?.['failed_stage'], 'untrusted_filters', show(done));
    assert.equal(done.data?.['gate_ran'], false, show(done));
    assert.ok((done.message ?? '').includes(`filter "lfs" clean \`${FOREIGN}\``), show(done));
    assert.ok((done.message ?? '').includes(LINE), show(done));
    const diagnostics = done['diagnostics'] as { message: string; reproduce_cmd?: string }[];
    assert.match(diagnostics[0]?.reproduce_cmd ?? '', /^git config --get-regexp/);
    assert.ok(diagnostics[0]?.message.includes(`filter.lfs.clean = ${FOREIGN}`), show(diagnostics));

    // doctor lists it, untrusted, with the same line.
    const doctor = await tool('discern_doctor', { path: e.path });
    const filters = doctor.data?.['filters'] as { name: string; trusted: boolean; line?: string }[] | undefined;
    const lfs = filters?.find((f) => f.name === 'lfs');
    assert.equal(lfs?.trusted, false, show(doctor));
    assert.equal(lfs?.line, LINE, show(doctor));
  });

  it('a filter named only in info/attributes (outside the tree) is refused too', async () => {
    const e = await filteredEffort('sneaky', { attributes: 'info' });
    const done = await tool('discern_done', { path: e.path });
    assert.equal(done.data?.['failed_stage'], 'untrusted_filters', show(done));
  });

  it("a foreign filter listed in the trunk's [gate] trusted_filters runs", async () => {
    const e = await filteredEffort('sed', { trunkGate: `\n[gate]\n${LINE}\n` });
    const done = await tool('discern_done', { path: e.path });
    assert.equal(done.ok, true, show(done));
    assert.equal(done.data?.['gate_ran'], true, show(done));
    const steps = done['steps'] as { kind: string; outcome: string }[];
    assert.equal(steps.find((s) => s.kind === 'filters-check')?.outcome, 'ok', show(steps));
    const doctor = await tool('discern_doctor', { path: e.path });
    const sed = (doctor.data?.['filters'] as { name: string; trusted: boolean }[]).find((f) => f.name === 'sed');
    assert.equal(sed?.trusted, true, show(doctor));
  });

  it("the same line in the effort's own discern.toml trusts nothing, and is reported as a policy change", async () => {
    const e = await filteredEffort('own', { effortGate: `\n[gate]\n${LINE}\n` });
    const done = await tool('discern_done', { path: e.path });
    assert.equal(done.ok, false, show(done));
    assert.equal(done.data?.['failed_stage'], 'untrusted_filters', show(done));
    assert.match(done.message ?? '', /a change cannot trust its own filter/);
    const changes = (done.data?.['policy_changes'] ?? []) as { key: string }[];
    assert.ok(
      changes.some((c) => c.key === 'gate.trusted_filters'),
      show(changes),
    );
  });
});

describe('Git LFS itself', () => {
  it('a repository using real Git LFS, pushed to a local remote, proves green with LFS own commands', async (t) => {
    if (spawnSync('git-lfs', ['version']).status !== 0) {
      if (process.env['CI'] === 'true') assert.fail('git-lfs is not installed in CI (.ci/run installs it)');
      t.skip('git-lfs is not installed (apt-get install git-lfs): the real Git LFS case is not tested');
      return;
    }
    const remote = tempDir('discern-lfs-remote-');
    spawnSync('git', ['init', '-q', '--bare', '-b', 'main', remote]);
    const repo = scratchRepo({ 'discern.toml': config().replace('grep -qx pass app.txt', 'grep -q payload data.bin') });
    repos.push(repo);
    repo.git('lfs', 'install', '--local');
    repo.git('lfs', 'track', '*.bin');
    repo.write('data.bin', 'payload\n');
    repo.commit('a file in Git LFS');
    repo.git('remote', 'add', 'origin', remote);
    repo.git('push', '-q', 'origin', 'main');
    assert.match(repo.git('lfs', 'ls-files'), /data\.bin/);
    assert.match(repo.git('config', '--get-regexp', '^filter\\.lfs\\.'), /git-lfs clean -- %f/);
    const started = await tool('discern_start', { name: 'lfs', path: repo.root });
    assert.equal(started.ok, true, show(started));
    const path = (started.data as { path: string }).path;
    writeFileSync(join(path, 'more.bin'), 'payload too\n');
    repo.git('-C', path, 'add', '-A');
    repo.git('-C', path, 'commit', '-qm', 'another LFS file');
    const done = await tool('discern_done', { path });
    assert.equal(done.ok, true, show(done));
    const steps = done['steps'] as { kind: string; outcome: string }[];
    assert.equal(steps.find((s) => s.kind === 'filters-check')?.outcome, 'ok', show(steps));
    repo.git('-C', path, 'push', '-q', 'origin', 'HEAD:refs/heads/lfs');
  });
});
