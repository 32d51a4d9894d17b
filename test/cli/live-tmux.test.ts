// The live view in a real terminal: the built CLI runs `discern done` inside a detached tmux session (its own
// server socket, 100×30), on a project whose jobs are slow shell commands reporting DISCERN_PROGRESS lines. The
// test reads the screen with capture-pane until the region shows the job rows with their state, counts and
// time, then presses Ctrl-C and checks what a person would see and what discern recorded: the region gone, the
// interruption notice, exit 130 (the shell writes it to a file) and the journal saying cancelled.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DISCERN_BIN } from '../helpers/cli.js';
import { cleanEnv } from '../helpers/scratch-repo.js';
import { cleanupGate, gateRepo, outsideDir, sleep } from '../helpers/gate-repo.js';

const tmuxVersion = spawnSync('tmux', ['-V'], { encoding: 'utf8' });
const hasTmux = tmuxVersion.status === 0;
if (!hasTmux)
  process.stderr.write(
    "live-tmux: skipped, tmux is not installed (.ci/run installs it from Debian's packages when it can)\n",
  );

const SOCKET = `discern-live-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
const SESSION = 'live';

/** tmux on our own server socket, with a plain environment (no TMUX from an enclosing session). */
function tmux(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const env = cleanEnv({ TERM: 'xterm-256color', LANG: 'C.UTF-8' });
  delete env['TMUX'];
  const r = spawnSync('tmux', ['-L', SOCKET, ...args], { env, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

/** The server's socket file, asked of tmux once it runs: kill-server leaves it behind. */
let socketPath: string | undefined;

after(() => {
  if (hasTmux) tmux('kill-server');
  if (socketPath !== undefined && socketPath.includes(SOCKET)) rmSync(socketPath, { force: true });
  cleanupGate();
});

function screen(): string {
  return tmux('capture-pane', '-p', '-t', SESSION).stdout;
}

async function screenShows(what: string, pattern: (text: string) => boolean, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = screen();
    if (pattern(text)) return text;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the screen:\n${text}`);
    await sleep(200);
  }
}

function records(root: string): { verb: string; outcome?: string; finished_at?: string }[] {
  const dir = join(root, '.git', 'discern', 'operations');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.startsWith('R1-') && n.endsWith('.json') && !n.endsWith('.result.json'))
    .map(
      (n) => JSON.parse(readFileSync(join(dir, n), 'utf8')) as { verb: string; outcome?: string; finished_at?: string },
    );
}

// A test job that reports its progress: 120 tests, one every quarter second, so it runs well past the test.
const SLOW_TEST = String.raw`i=0; while [ $i -lt 120 ]; do i=$((i+1)); echo "DISCERN_PROGRESS {\"units\":{\"kind\":\"tests\",\"completed\":$i,\"total\":120},\"results\":{\"passed\":$i}}"; sleep 0.25; done`;

describe('the live view in a terminal (tmux)', { skip: !hasTmux && 'tmux is not installed' }, () => {
  it('shows a row per job with its state, counts and time; Ctrl-C clears it, exits 130 and records cancelled', async () => {
    const dir = outsideDir();
    const r = gateRepo(`[jobs]\nlint = "sleep 1"\ntest = '''${SLOW_TEST}'''\n`);
    const rc = join(dir, 'rc');
    const script = join(dir, 'run.sh');
    // The shell traps INT so Ctrl-C reaches discern alone (a trapped signal is default again in the child) and
    // the shell lives on to write discern's exit status; then it idles until the server is killed.
    writeFileSync(
      script,
      `trap 'true' INT\ncd '${r.root}'\n'${process.execPath}' '${DISCERN_BIN}' done\necho $? > '${rc}'\nsleep 300\n`,
    );
    const started = tmux('new-session', '-d', '-s', SESSION, '-x', '100', '-y', '30', `sh '${script}'`);
    assert.equal(started.status, 0, started.stderr);
    socketPath = tmux('display-message', '-p', '-t', SESSION, '#{socket_path}').stdout.trim();

    const live = await screenShows(
      'the job rows with a running test and its time',
      (t) => /lint +ok +\d/.test(t) && /test +running +\d+(\.\d)?s +tests \d+\/120/.test(t),
    );
    assert.match(
      live,
      /discern: R1-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{2} .+ read it back with discern progress R1-/,
      'the handle stays above the region',
    );
    assert.match(live, /\d+\/2 finished .* \d+(\.\d)?s/, 'the overall count and time');
    for (const line of live.split('\n')) assert.ok([...line].length <= 100, `no row wider than the terminal: ${line}`);

    assert.equal(tmux('send-keys', '-t', SESSION, 'C-c').status, 0);
    const after = await screenShows('the interruption notice', (t) => t.includes('discern: interrupted by SIGINT'));
    await screenShows('the exit status file', () => existsSync(rc) && readFileSync(rc, 'utf8').trim() !== '');
    assert.equal(readFileSync(rc, 'utf8').trim(), '130');
    assert.doesNotMatch(after, /test +running/, `the region is cleared:\n${after}`);
    assert.ok(
      records(r.root).some((x) => x.verb === 'done' && x.outcome === 'cancelled' && x.finished_at !== undefined),
      JSON.stringify(records(r.root)),
    );
  });
});
