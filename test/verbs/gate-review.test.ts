// Ways to get Proof that a review found and the gate now closes: replayed evidence that would skip a scope
// gate today's change activates, a tag named like the trunk, a standard measured differently than the trunk
// measures it, files hidden from git status, a re-measure that replays; and the processes' side: a busy
// checkout that names the right run, status seeing a running done beside a finished test, queue giving the
// command its signals, and an early-closed pipe keeping a failed gate's exit status.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DiscernDoneData, DiscernStatusData } from '../../generated/types.js';
import { call } from '../helpers/drive.js';
import { DISCERN_BIN, runCli } from '../helpers/cli.js';
import { cleanEnv } from '../helpers/scratch-repo.js';
import {
  addWorktree,
  cleanupGate,
  count,
  counter,
  gateRepo,
  heldJob,
  outsideDir,
  release,
  startCli,
  waitFor,
} from '../helpers/gate-repo.js';

after(cleanupGate);

describe("done: replayed evidence covers today's plan", () => {
  it('evidence proven without a scope gate does not replay where the change activates it', async () => {
    const r = gateRepo('[jobs]\nlint = "true"\n\n[scopes.src]\npaths = ["src/**"]\ngate = "exit 1"\n', {
      'src/a.txt': 'a\n',
    });
    const base = r.git('rev-parse', 'HEAD').trim();
    r.write('src/a.txt', 'a\nb\n');
    r.commit('src change');
    const onMain = (await call('done', {}, r.root)).data as DiscernDoneData;
    assert.deepEqual(onMain.scopes_changed, [], 'on the trunk nothing changed against it');
    // The same tree on a branch cut from the old trunk: its change activates the src gate.
    r.git('switch', '-q', '-c', 'feat', base);
    r.write('src/a.txt', 'a\nb\n');
    r.commit('same tree');
    const onBranch = await call('done', {}, r.root);
    assert.equal(onBranch.error, 'gate_failed', JSON.stringify(onBranch.data));
    assert.equal((onBranch.data as DiscernDoneData).failed_stage, 'scope_gates');
    assert.equal((onBranch.data as DiscernDoneData).replayed_from, undefined);
  });
});

describe('done: the never-loosen check', () => {
  const trunkToml =
    '[jobs]\nlint = "true"\n\n[standards.cov]\ndirection = "up"\nlimit = 80\nrun = "echo DISCERN_METRIC cov 50"\n';
  it("a branch that measures the trunk's standard differently (on-demand, scale) is refused", async () => {
    for (const change of ['measure = "on-demand"', 'scale = 2']) {
      const r = gateRepo(trunkToml);
      const wt = addWorktree(r, `agent/${change.split(' ')[0]}`);
      wt.write('discern.toml', `${readFileSync(join(r.root, 'discern.toml'), 'utf8')}${change}\n`);
      wt.commit('measure differently');
      const result = await call('done', {}, wt.root);
      assert.equal(result.error, 'gate_failed', change);
      const data = result.data as DiscernDoneData;
      assert.equal(data.failed_stage, 'standards');
      assert.equal(data.standards_limits?.status, 'loosened');
      assert.match(data.standards_limits?.loosened?.[0] ?? '', /changes how its value is measured/);
    }
  });
  it('a tag named like the trunk does not stand in for it', async () => {
    const r = gateRepo(trunkToml.replace('cov 50', 'cov 90'));
    const wt = addWorktree(r, 'agent/lower');
    wt.write('discern.toml', readFileSync(join(wt.root, 'discern.toml'), 'utf8').replace('limit = 80', 'limit = 40'));
    wt.commit('lower the floor');
    wt.git('tag', 'main', 'HEAD');
    const result = await call('done', {}, wt.root);
    assert.equal(result.error, 'gate_failed');
    assert.equal((result.data as DiscernDoneData).standards_limits?.status, 'loosened');
  });
});

describe('done: what the Proof may cover', () => {
  it('tracked files hidden from git status are refused, not proven', async () => {
    const r = gateRepo('[jobs]\ntest = "grep -q good src/a.txt"\n', { 'src/a.txt': 'bad\n' });
    r.git('update-index', '--assume-unchanged', 'src/a.txt');
    r.write('src/a.txt', 'good\n');
    const result = await call('done', {}, r.root);
    assert.equal(result.error, 'dirty_worktree');
    assert.match(result.message ?? '', /hidden from git status/);
  });
  it('rerun measures every standard again', async () => {
    const runs = counter();
    const r = gateRepo(
      `[jobs]\nlint = "true"\n\n[standards.cov]\ndirection = "up"\nlimit = 1\nrun = "echo x >> ${runs}; echo DISCERN_METRIC cov 5"\ninputs = ["src/**"]\n`,
      { 'src/a.txt': 'a\n' },
    );
    assert.equal((await call('done', {}, r.root)).ok, true);
    r.write('README.md', 'changed\n');
    r.commit('docs only');
    const replayed = (await call('done', {}, r.root)).data as DiscernDoneData;
    assert.equal(replayed.standards?.[0]?.measurement, 'replayed');
    const rerun = (await call('done', { rerun: true }, r.root)).data as DiscernDoneData;
    assert.equal(rerun.standards?.[0]?.measurement, 'measured');
    assert.equal(count(runs), 2);
  });
});

describe('a busy checkout', () => {
  it('incomplete names the holder only, and status still shows a running done after a test finished', async () => {
    const dir = outsideDir();
    const started = join(dir, 'started');
    const go = join(dir, 'go');
    const r = gateRepo(`[jobs]\nlint = "${heldJob(started, go)}"\ntest = "true"\n`);
    const held = startCli(['done', '--json'], r.root);
    await waitFor('the gate to start', () => existsSync(started));
    const tested = await runCli(['test', '--json'], { cwd: r.root, env: cleanEnv() });
    assert.equal(JSON.parse(tested.stdout).ok, true);
    const status = (await call('status', {}, r.root)).data as DiscernStatusData;
    assert.equal(status.operation?.verb, 'done', JSON.stringify(status.operation));
    const busy = await call('done', { rerun: true }, r.root);
    assert.equal(busy.error, 'incomplete');
    const pending = (busy.data as DiscernDoneData).completion?.pending?.[0];
    assert.equal(pending?.handle, status.operation?.handle);
    release(go);
    assert.equal(JSON.parse((await held.result).stdout).ok, true);
  });
});

describe('processes', () => {
  it("queue hands the command the signal it got and exits with the command's status", async () => {
    const r = gateRepo('[jobs]\ntest = "true"\n');
    const dir = outsideDir();
    const ready = join(dir, 'ready');
    const child = spawn(
      process.execPath,
      [
        DISCERN_BIN,
        'queue',
        '--',
        'sh',
        '-c',
        `trap 'exit 3' INT; trap 'exit 4' TERM; touch ${ready}; while :; do sleep 0.05; done`,
      ],
      { cwd: r.root, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    await waitFor('the command to start', () => existsSync(ready));
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    assert.equal(code, 3);
    assert.equal(stderr, '', 'queue adds nothing of its own');
  });
  it('a failed gate keeps exit 1 when the reader closes the pipe early', async () => {
    // Fifty diagnostics of 1.5 kB each: the JSON result is larger than a pipe holds, so writing it meets EPIPE.
    const r = gateRepo(
      `[jobs]\nlint = 'for i in $(seq 1 60); do printf "src/f.c:%s:1: error: %01500d\\n" $i 0; done; exit 1'\n`,
    );
    const pipeline = `${JSON.stringify(process.execPath)} ${JSON.stringify(DISCERN_BIN)} done --json | head -c 10 > /dev/null; echo "\${PIPESTATUS[0]}"`;
    const shell = spawn('bash', ['-c', pipeline], {
      cwd: r.root,
      env: cleanEnv(),
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    shell.stdout.on('data', (c: Buffer) => (out += c.toString()));
    await new Promise((resolve) => shell.once('close', resolve));
    const code = Number(out.trim());
    assert.equal(code, 1);
  });
});
