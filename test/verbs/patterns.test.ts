// The logbook written by real verb calls (CLI and MCP surfaces, in-process and as child processes) and read back
// by patterns; a flaky job found from real gate runs; the CLI-only lifecycle (seal, archives, reset); archive
// selection confined to the archive folder; and every patterns verb driven through success and failure.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DiscernPatternsData, DiscernResult } from '../../generated/types.js';
import { IDENTITY_VARIABLES } from '../../src/engine/logbook/identity.js';
import { assertDriven, call } from '../helpers/drive.js';
import { onlyJson, runCli } from '../helpers/cli.js';
import { connectStdio } from '../helpers/mcp-client.js';
import { cleanEnv, MINIMAL_CONFIG, scratchRepo, tempDir, type ScratchRepo } from '../helpers/scratch-repo.js';
import { Craft, testRun } from '../engine/logbook/craft.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));
function repo(config = MINIMAL_CONFIG, files: Record<string, string> = {}): ScratchRepo {
  const r = scratchRepo({ 'discern.toml': config, ...files });
  repos.push(r);
  return r;
}

/** An environment with none of the variables that mark an agent's shell: a person at a terminal. */
const PERSON: Record<string, string> = Object.fromEntries(IDENTITY_VARIABLES.map((v) => [v, '']));

function active(r: ScratchRepo): string {
  return join(r.root, '.git', 'discern', 'logbook', 'active.jsonl');
}

function lines(r: ScratchRepo): Record<string, unknown>[] {
  if (!existsSync(active(r))) return [];
  return readFileSync(active(r), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

function patternsData(result: DiscernResult): DiscernPatternsData {
  assert.ok(
    result.ok && result.verb === 'patterns' && result.data && 'findings' in result.data,
    JSON.stringify(result),
  );
  return result.data;
}

describe('the logbook, written by real calls', () => {
  it('one line per call, with the surface, the caller and the outcome; never the input', async () => {
    const r = repo();
    await call('status', {}, r.root, PERSON, 'cli');
    await call('impact', { has: 'nope' }, r.root, { ...PERSON, CLAUDECODE: '1' }, 'cli');
    await call('map', { search: 'secret query words' }, r.root, PERSON, 'mcp');
    const got = lines(r);
    assert.deepEqual(
      got.map((l) => [l['verb'], l['surface'], l['actor'], l['agent'], l['outcome']]),
      [
        ['status', 'cli', 'human', undefined, 'ok'],
        ['impact', 'cli', 'agent', 'claude_code', 'invalid_value'],
        ['map', 'mcp', 'agent', undefined, got[2]?.['outcome']],
      ],
    );
    assert.ok(!readFileSync(active(r), 'utf8').includes('secret query'), 'a search query is never recorded');
    for (const l of got) assert.ok(typeof l['ms'] === 'number' && typeof l['at'] === 'string' && l['v'] === 1);
  });
  it('a gate run records its jobs with outcome and duration, the tree it ran on, and the failed stage', async () => {
    // fail_fast off: a failing smoke would otherwise cancel test, and which one finishes first is a race.
    const r = repo(`${MINIMAL_CONFIG}smoke = "echo 'Error: smoke broke' && exit 3"\n\n[gate]\nfail_fast = false\n`);
    await call('test', {}, r.root, { ...PERSON, DISCERN_ACTOR: 'agent' }, 'cli');
    const [line] = lines(r);
    assert.equal(line?.['outcome'], 'gate_failed');
    assert.equal(line?.['actor'], 'agent');
    assert.equal(line?.['failed_stage'], 'test');
    assert.equal(line?.['tree'], r.git('rev-parse', 'HEAD^{tree}').trim());
    assert.equal(line?.['head'], r.git('rev-parse', 'HEAD').trim());
    const jobs = line?.['jobs'] as { label: string; outcome: string; s: number; first?: string }[];
    assert.deepEqual(jobs.map((j) => [j.label, j.outcome, typeof j.s]).sort(), [
      ['smoke', 'failed', 'number'],
      ['test', 'ok', 'number'],
    ]);
    assert.match(jobs.find((j) => j.label === 'smoke')?.first ?? '', /smoke/);
  });
  it('no tree on a dirty checkout: the tested content is not a committed tree', async () => {
    const r = repo();
    r.write('untracked.txt', 'x\n');
    await call('test', {}, r.root, PERSON, 'cli');
    const [line] = lines(r);
    assert.ok(Array.isArray(line?.['jobs']));
    assert.equal(line?.['tree'], undefined);
  });
  it('[project] logbook = false writes nothing, and patterns says recording is off', async () => {
    const r = repo(MINIMAL_CONFIG.replace('name = "Scratch"', 'name = "Scratch"\nlogbook = false'));
    await call('status', {}, r.root, PERSON, 'cli');
    await call('test', {}, r.root, PERSON, 'cli');
    const result = await call('patterns', {}, r.root, PERSON, 'mcp');
    assert.equal(existsSync(join(r.root, '.git', 'discern', 'logbook')), false);
    const data = patternsData(result);
    assert.equal(data.logbook.recording, false);
    assert.ok(result.hints?.some((h) => h.includes('logbook = false')));
  });
  it('nothing outside a project: no repository, or no discern.toml', async () => {
    const bare = scratchRepo({});
    repos.push(bare);
    await call('status', {}, bare.root, PERSON, 'cli');
    await call('docs', { search: 'exit codes' }, bare.root, PERSON, 'cli');
    assert.equal(existsSync(join(bare.root, '.git', 'discern', 'logbook')), false);
  });
  it('a linked worktree appends to the one logbook of its repository', async () => {
    const r = repo();
    const linked = join(tempDir('discern-linked-'), 'wt');
    r.git('worktree', 'add', '-q', '-b', 'side', linked);
    await call('status', {}, linked, PERSON, 'cli');
    await call('status', {}, r.root, PERSON, 'cli');
    assert.equal(lines(r).length, 2);
  });
});

describe('patterns on real gate runs', () => {
  it('a job that fails on a tree and passes on its rerun is flaky; its message recurs; an investigation links them', async () => {
    const counters = tempDir('discern-flaky-');
    // Fails the first time it sees a tree, passes the next: the tree is the same, only the run differs.
    const script = `#!/bin/sh\nf="${counters}/$(git rev-parse HEAD^{tree})"\nif [ -f "$f" ]; then echo passed; exit 0; fi\ntouch "$f"\necho "Error: socket hang up on port $$"\nexit 1\n`;
    const r = repo(MINIMAL_CONFIG.replace('test = "git --version"', 'test = "sh ./flaky.sh"'), { 'flaky.sh': script });
    for (let i = 0; i < 3; i++) {
      if (i > 0) {
        r.write('change.txt', `change ${i}\n`);
        r.commit(`change ${i}`);
      }
      const first = await call('test', {}, r.root, PERSON, 'cli');
      assert.equal(first.error, 'gate_failed');
      const rerun = await call('test', {}, r.root, PERSON, 'mcp');
      assert.equal(rerun.ok, true, JSON.stringify(rerun));
    }
    const data = patternsData(await call('patterns', { stats: true }, r.root, PERSON, 'mcp'));
    const flaky = data.findings.find((f) => f.id === 'flaky-jobs:test');
    assert.ok(flaky, JSON.stringify(data.findings, null, 2));
    assert.deepEqual([flaky.numbers[0]?.value, flaky.numbers[0]?.of], [3, 3]);
    assert.ok(data.findings.some((f) => f.detector === 'recurring-failures' && f.subject === 'test'));
    assert.equal(data.investigations[0]?.relationship, 'flaky-signature');
    assert.deepEqual(data.population, {
      analyzed: 6,
      agent: 3,
      human: 3,
      unknown: 0,
      identities: data.population.identities,
    });
    assert.deepEqual(
      data.stats?.by_verb.map((v) => [v.verb, v.events, v.ok]),
      [['test', 6, 3]],
    );
  });
});

describe('reading archives and malformed logbooks', () => {
  function crafted(r: ScratchRepo, at: string): void {
    const c = new Craft();
    for (const tree of ['t1', 't2']) {
      c.add(testRun(tree, [['unit', 'failed', 2, 'Error: x']]));
      c.add(testRun(tree, [['unit', 'ok', 2]]));
    }
    c.raw('{oops');
    c.write(at);
  }
  it('logbook_file reads a sealed archive, with or without .jsonl', async () => {
    const r = repo();
    crafted(r, join(r.root, '.git', 'discern', 'logbook-archives', '20250301T120000000Z.jsonl'));
    for (const name of ['20250301T120000000Z', '20250301T120000000Z.jsonl']) {
      const data = patternsData(await call('patterns', { logbook_file: name }, r.root, PERSON));
      assert.equal(data.logbook.source, 'archive');
      assert.equal(data.logbook.name, '20250301T120000000Z.jsonl');
      assert.deepEqual([data.logbook.events, data.logbook.malformed], [4, 1]);
      assert.ok(data.findings.some((f) => f.id === 'flaky-jobs:unit'));
    }
  });
  it('refuses names that leave the archive folder, links, and names that are not there', async () => {
    const r = repo();
    const archives = join(r.root, '.git', 'discern', 'logbook-archives');
    mkdirSync(archives, { recursive: true });
    const outside = join(tempDir('discern-outside-'), 'elsewhere.jsonl');
    crafted(r, outside);
    symlinkSync(outside, join(archives, 'linked.jsonl'));
    for (const name of ['../logbook/active', '../../config', '/etc/passwd', '.hidden', 'a/b', 'a\\b', '..']) {
      assert.equal((await call('patterns', { logbook_file: name }, r.root, PERSON)).error, 'invalid_arguments', name);
    }
    const linked = await call('patterns', { logbook_file: 'linked' }, r.root, PERSON);
    assert.equal(linked.error, 'unknown_target');
    assert.equal((await call('patterns', { logbook_file: 'missing' }, r.root, PERSON, 'cli')).error, 'unknown_target');
  });
  it('an empty or missing active logbook is a successful empty answer', async () => {
    const r = repo();
    const result = await call('patterns', {}, r.root, PERSON);
    const data = patternsData(result);
    assert.deepEqual(
      [data.logbook.exists, data.logbook.events, data.findings.length, data.investigations.length],
      [false, 0, 0, 0],
    );
    assert.ok(result.hints?.some((h) => h.includes('no events yet')));
  });
});

describe('the lifecycle: seal, archives, reset', () => {
  it('seal moves the active logbook into an archive that patterns can read; archives lists it', async () => {
    const r = repo();
    await call('status', {}, r.root, PERSON, 'cli');
    await call('status', {}, r.root, PERSON, 'cli');
    const sealed = await call('patternsSeal', {}, r.root, PERSON, 'cli');
    assert.ok(
      sealed.ok && sealed.verb === 'patterns seal' && sealed.data && 'sealed' in sealed.data && sealed.data.archive,
      JSON.stringify(sealed),
    );
    assert.equal(sealed.data.archive.events, 2);
    assert.match(sealed.data.archive.name, /^\d{8}T\d{9}Z\.jsonl$/);
    assert.deepEqual(
      lines(r).map((l) => l['verb']),
      ['patterns seal'],
      'the next append starts a new logbook: the seal itself',
    );
    const listed = await call('patternsArchives', {}, r.root, PERSON, 'cli');
    assert.ok(listed.ok && listed.data && 'archives' in listed.data);
    assert.deepEqual(
      listed.data.archives.map((a) => [a.name, a.events]),
      [[sealed.data.archive.name, 2]],
    );
    assert.equal(listed.data.active.events, 1);
    const back = patternsData(
      await call('patterns', { logbook_file: sealed.data.archive.name }, r.root, PERSON, 'cli'),
    );
    assert.equal(back.population.analyzed, 2);
  });
  it('seal with nothing to seal is a successful no-op; a folder it cannot write is write_denied', async () => {
    const r = repo();
    const nothing = await call('patternsSeal', {}, r.root, PERSON, 'cli');
    assert.ok(
      nothing.ok &&
        nothing.data &&
        'sealed' in nothing.data &&
        nothing.data.sealed === false &&
        nothing.steps === undefined,
    );
    await call('status', {}, r.root, PERSON, 'cli');
    writeFileSync(join(r.root, '.git', 'discern', 'logbook-archives'), 'a file where the folder goes');
    const denied = await call('patternsSeal', {}, r.root, PERSON, 'cli');
    assert.equal(denied.error, 'write_denied');
    assert.ok(existsSync(active(r)), 'the active logbook is untouched');
  });
  it('reset needs confirmed: without it, the plan and confirmation_required; with it, the active logbook is gone and archives stay', async () => {
    const r = repo();
    await call('status', {}, r.root, PERSON, 'cli');
    await call('patternsSeal', {}, r.root, PERSON, 'cli');
    await call('status', {}, r.root, PERSON, 'cli');
    const asked = await call('patternsReset', {}, r.root, PERSON, 'cli');
    assert.equal(asked.error, 'confirmation_required');
    assert.ok(asked.plan && asked.plan.steps.length === 1 && asked.steps === undefined);
    assert.ok(existsSync(active(r)));
    const done = await call('patternsReset', { confirmed: true }, r.root, PERSON, 'cli');
    assert.ok(
      done.ok &&
        done.verb === 'patterns reset' &&
        done.data &&
        'removed' in done.data &&
        done.data.removed &&
        done.data.events === 3,
      JSON.stringify(done),
    );
    assert.deepEqual(
      lines(r).map((l) => l['verb']),
      ['patterns reset'],
    );
    assert.equal(readdirSync(join(r.root, '.git', 'discern', 'logbook-archives')).length, 1);
    assert.equal((await call('patternsArchives', { bogus: true }, r.root, PERSON, 'cli')).error, 'invalid_arguments');
  });
});

describe('the built CLI and the MCP server', () => {
  it('CLI calls record their caller from the environment; --version and --help record nothing', async () => {
    const r = repo();
    assert.equal((await runCli(['--version'], { cwd: r.root, env: cleanEnv(PERSON) })).code, 0);
    assert.equal((await runCli(['--help'], { cwd: r.root, env: cleanEnv(PERSON) })).code, 0);
    assert.equal(existsSync(join(r.root, '.git', 'discern', 'logbook')), false);
    await runCli(['status', '--json'], { cwd: r.root, env: cleanEnv(PERSON) });
    await runCli(['status', '--json'], { cwd: r.root, env: cleanEnv({ ...PERSON, GEMINI_CLI: '1' }) });
    const run = await runCli(['patterns', '--stats', '--json'], { cwd: r.root, env: cleanEnv(PERSON) });
    const result = onlyJson(run) as unknown as DiscernResult;
    assert.equal(run.code, 0);
    const data = patternsData(result);
    assert.deepEqual([data.population.human, data.population.agent], [1, 1]);
    assert.deepEqual(data.population.identities.find((i) => i.actor === 'agent')?.name, 'gemini');
    const seal = await runCli(['patterns', 'seal', '--json'], { cwd: r.root, env: cleanEnv(PERSON) });
    assert.equal((onlyJson(seal) as { verb: string }).verb, 'patterns seal');
    const reset = await runCli(['patterns', 'reset'], { cwd: r.root, env: cleanEnv(PERSON) });
    assert.equal(reset.code, 1);
  });
  it('concurrent CLI calls each leave one whole line', async () => {
    const r = repo();
    await Promise.all(
      Array.from({ length: 6 }, () => runCli(['status', '--json'], { cwd: r.root, env: cleanEnv(PERSON) })),
    );
    const got = lines(r);
    assert.equal(got.length, 6);
  });
  it('discern_patterns over the SDK client; the call is recorded as the client agent', async () => {
    const r = repo();
    const mcp = await connectStdio(r.root, PERSON);
    try {
      await mcp.client.callTool({ name: 'discern_status', arguments: {} });
      const result = (await mcp.client.callTool({ name: 'discern_patterns', arguments: { stats: true } })) as {
        structuredContent?: DiscernResult;
        isError?: boolean;
      };
      assert.equal(result.isError, false);
      const data = patternsData(result.structuredContent as DiscernResult);
      assert.equal(data.population.agent, 1);
      const traversal = (await mcp.client.callTool({
        name: 'discern_patterns',
        arguments: { logbook_file: '../logbook/active' },
      })) as { structuredContent?: DiscernResult; isError?: boolean };
      assert.equal(traversal.isError, true);
      assert.equal(traversal.structuredContent?.error, 'invalid_arguments');
    } finally {
      await mcp.client.close();
    }
    const got = lines(r);
    assert.deepEqual(got.map((l) => [l['verb'], l['surface'], l['actor'], l['agent']]).slice(0, 2), [
      ['status', 'mcp', 'agent', 'discern-tests'],
      ['patterns', 'mcp', 'agent', 'discern-tests'],
    ]);
  });
});

describe('faithfulness', () => {
  it('drove patterns and its lifecycle through success and failure', () =>
    assertDriven(['patterns', 'patternsSeal', 'patternsArchives', 'patternsReset']));
});
