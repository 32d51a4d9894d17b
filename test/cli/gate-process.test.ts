// The gate as processes see it: `discern queue -- <cmd>` (the command's own exit status, waiting for a test slot
// another run holds), the live region on a terminal (a pseudo-terminal through script(1)), plain progress lines
// on a piped stderr and nothing but the result under --json, SIGINT recording a cancelled run, and a later run
// reaping the jobs of a discern that was killed outright. The region in a real terminal: live-tmux.test.ts.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { DISCERN_BIN } from '../helpers/cli.js';
import { cleanEnv } from '../helpers/scratch-repo.js';
import {
  cleanupGate,
  gateRepo,
  heldJob,
  outsideDir,
  pidFrom,
  processAlive,
  release,
  sleep,
  startCli,
  waitFor,
} from '../helpers/gate-repo.js';

after(cleanupGate);

const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

function records(root: string): { verb: string; outcome?: string; finished_at?: string; pgids: number[] }[] {
  const dir = join(root, '.git', 'discern', 'operations');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.startsWith('R1-') && n.endsWith('.json') && !n.endsWith('.result.json'))
    .map(
      (n) =>
        JSON.parse(readFileSync(join(dir, n), 'utf8')) as {
          verb: string;
          outcome?: string;
          finished_at?: string;
          pgids: number[];
        },
    );
}

describe('discern queue', () => {
  it('runs the command directly and exits with its own status; a missing command is 127', async () => {
    const r = gateRepo('[jobs]\ntest = "true"\n');
    const ran = await runCli(['queue', '--', 'sh', '-c', 'echo out; echo err >&2; exit 7'], {
      cwd: r.root,
      env: cleanEnv(),
    });
    assert.equal(ran.code, 7);
    assert.equal(ran.stdout, 'out\n');
    assert.equal(ran.stderr, 'err\n');
    const missing = await runCli(['queue', '--', 'no-such-command-anywhere'], { cwd: r.root, env: cleanEnv() });
    assert.equal(missing.code, 127);
    assert.match(missing.stderr, /command not found/);
    const none = await runCli(['queue'], { cwd: r.root, env: cleanEnv() });
    assert.equal(none.code, 2);
  });

  it('waits for a test slot a running `discern test` holds, then runs', async () => {
    const dir = outsideDir();
    const started = join(dir, 'started');
    const go = join(dir, 'go');
    const r = gateRepo(`[gate]\nconcurrent_test_runs = 1\n\n[jobs]\ntest = "${heldJob(started, go)}"\n`);
    const holder = startCli(['test', '--json'], r.root);
    await waitFor('the test job to start', () => existsSync(started));
    const queued = startCli(['queue', '--', 'sh', '-c', 'echo ran'], r.root);
    await sleep(600);
    assert.equal(queued.child.exitCode, null, 'queue is still waiting while the slot is held');
    release(go);
    const [held, q] = await Promise.all([holder.result, queued.result]);
    assert.equal(held.code, 0, held.stdout);
    assert.equal(q.code, 0);
    assert.equal(q.stdout, 'ran\n');
    assert.match(q.stderr, /waiting for a test slot \(1 of 1 in use/);
  });
});

describe('live progress on a terminal', { skip: !hasScript && 'script(1) is not installed' }, () => {
  it('a terminal sees the handle and the running jobs on stderr; --json sees only the result', async () => {
    const r = gateRepo('[jobs]\nlint = "sleep 0.3"\ntest = "sleep 0.3"\n');
    const tty = spawnSync('script', ['-qec', `${process.execPath} ${DISCERN_BIN} test`, '/dev/null'], {
      cwd: r.root,
      env: cleanEnv({ COLUMNS: '200', NO_COLOR: '1', TERM: 'xterm-256color' }),
      encoding: 'utf8',
    });
    assert.equal(tty.status, 0, tty.stdout);
    assert.match(
      tty.stdout,
      /discern: R1-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{2} — read it back with discern progress R1-/,
    );
    assert.match(tty.stdout, /test +running +\d/, 'a row per producer, with its state and time');
    assert.match(tty.stdout, /\x1b\[\d+A\x1b\[J/, 'the region is redrawn in place');
    const json = await runCli(['test', '--json'], { cwd: r.root, env: cleanEnv() });
    assert.equal(json.stderr, '');
    assert.equal(json.stdout.trim().split('\n').length, 1);
  });
});

describe('live progress when stderr is not a terminal', () => {
  it('a human run prints plain lines on stderr, one per fact, and only the result on stdout', async () => {
    const progress = (n: number): string =>
      `echo 'DISCERN_PROGRESS {\\"units\\":{\\"kind\\":\\"tests\\",\\"completed\\":${n},\\"total\\":2},\\"results\\":{\\"passed\\":${n}}}'`;
    const r = gateRepo(`[jobs]\ntest = "${progress(1)}; sleep 0.2; ${progress(2)}"\n`);
    const run = await runCli(['test'], { cwd: r.root, env: cleanEnv() });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.ok(!run.stderr.includes('\x1b'), `no control sequence on a pipe: ${JSON.stringify(run.stderr)}`);
    const lines = run.stderr.trimEnd().split('\n');
    assert.match(
      lines[0] ?? '',
      /^discern: R1-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{2} — read it back with discern progress R1-/,
    );
    assert.ok(lines.includes('discern: test started'), run.stderr);
    assert.ok(
      lines.some((l) => /^discern: test ok in \d+(\.\d)?s \(tests 2\/2, 2 passed\) · 1\/1 finished$/.test(l)),
      run.stderr,
    );
    assert.equal(lines.length, 3, run.stderr);
    assert.ok(!run.stdout.includes('discern: '), 'no progress on stdout');
    assert.match(run.stdout, /^discern test/);
  });
});

describe('interruption', () => {
  it('SIGINT cancels the run: its jobs are stopped, the journal says cancelled, the exit is 130', async () => {
    const dir = outsideDir();
    const r = gateRepo(`[jobs]\ntest = "sleep 30 & echo $! > ${join(dir, 'pid')}; wait"\n`);
    const run = startCli(['test', '--json'], r.root);
    const sleeper = await pidFrom(join(dir, 'pid'));
    run.child.kill('SIGINT');
    const done = await run.result;
    assert.equal(done.code, 130);
    await waitFor('the job to be stopped', () => !processAlive(sleeper));
    assert.ok(
      records(r.root).some((x) => x.verb === 'test' && x.outcome === 'cancelled' && x.finished_at !== undefined),
      JSON.stringify(records(r.root)),
    );
  });

  it('a discern killed outright, its watchdog too, leaves its jobs; the next run in the checkout reaps them', async () => {
    const dir = outsideDir();
    const r = gateRepo(
      `[jobs]\ntest = "if [ -f ${join(dir, 'once')} ]; then exit 0; fi; touch ${join(dir, 'once')}; sleep 30 & echo $! > ${join(dir, 'pid')}; wait"\n`,
    );
    const run = startCli(['test', '--json'], r.root);
    const sleeper = await pidFrom(join(dir, 'pid'));
    // The job's process group reaches the journal just after the job starts; the kill comes once it is there
    // (a kill inside that window leaves nothing to reap by: the limit the done page documents).
    await waitFor("the job's process group in the journal", () =>
      records(r.root).some((x) => x.verb === 'test' && x.pgids.length > 0),
    );
    // discern's watchdog would stop the job on its death (src/engine/process/watchdog.ts, tested in
    // test/stress/kill-recovery.test.ts): it goes first, so what is left is only the journal's record to reap by.
    for (const watchdog of watchdogsOf(run.child.pid ?? 0)) process.kill(watchdog, 'SIGKILL');
    run.child.kill('SIGKILL');
    await run.result;
    assert.ok(processAlive(sleeper), 'with discern and its watchdog killed, nothing stopped the job');
    const next = await runCli(['test', '--json'], { cwd: r.root, env: cleanEnv() });
    assert.equal(next.code, 0, next.stdout);
    await waitFor('the orphan to be reaped', () => !processAlive(sleeper));
  });
});

/** discern's watchdog processes (children of `pid` running the watchdog script), read from /proc. */
function watchdogsOf(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (parent === pid && cmdline.includes('groups = new Set()')) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}
