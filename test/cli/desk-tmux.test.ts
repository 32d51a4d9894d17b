// The desk in a real terminal: the built CLI runs inside tmux (its own server socket), and the test reads the
// screen with capture-pane. It checks the rows against `discern status --json`, a refresh after git changes made
// from outside, details and back, the one-desk-per-repository lock (refusal and stale takeover), and that every
// way out — q, SIGTERM, a crash — leaves the shell's normal screen with the cursor shown and the line discipline
// back (a typed line echoes and runs).
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { DISCERN_BIN, onlyJson, runCli } from '../helpers/cli.js';
import { effort, trackedRepo } from '../helpers/efforts.js';
import { cleanEnv, type ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
const HAVE_TMUX = spawnSync('tmux', ['-V']).status === 0;
const SOCKET = `discern-desk-test-${process.pid}`;
const SESSION = 'desk';

after(() => {
  if (HAVE_TMUX) spawnSync('tmux', ['-L', SOCKET, 'kill-server']);
  repos.forEach((r) => r.cleanup());
});

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', SOCKET, '-f', '/dev/null', ...args], {
    encoding: 'utf8',
    env: cleanEnv({ LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', PS1: 'shell$ ' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function capture(pane: string): string[] {
  return tmux('capture-pane', '-p', '-t', pane).replace(/\n$/, '').split('\n');
}

function paneFlag(pane: string, format: string): string {
  return tmux('display-message', '-p', '-t', pane, format).trim();
}

/** Polls the screen until `ready` holds (the desk reads git in its own time; nothing here measures it). */
async function waitFor(pane: string, what: string, ready: (lines: string[]) => boolean): Promise<string[]> {
  let lines: string[] = [];
  for (let i = 0; i < 300; i++) {
    lines = capture(pane);
    if (ready(lines)) return lines;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`the screen never showed ${what}:\n${lines.join('\n')}`);
}

const has = (text: string) => (lines: string[]) => lines.some((l) => l.includes(text));
/** The line the shell prints once the command ended (the typed command line holds `MARK=$?`, never digits). */
const exited = (mark: string) => (lines: string[]) => lines.some((l) => new RegExp(`^${mark}=\\d+$`).test(l.trim()));
const deskCommand = (args: string, mark: string): string => `node ${DISCERN_BIN} ${args}; echo "${mark}=$?"`;

describe('the desk in tmux', () => {
  it('shows status rows, refreshes on git changes, opens details, refuses a second desk, and restores the terminal', async (t) => {
    if (!HAVE_TMUX) {
      t.skip('tmux is not installed');
      return;
    }
    const r = trackedRepo(repos);
    const one = await effort(r, 'one', 'one.txt', '1\n');
    await effort(r, 'two', 'two.txt', '2\n', false);
    const status = onlyJson(await runCli(['status', '--json'], { cwd: r.root })) as {
      data: { fleet: Array<{ path: string; branch: string; id?: string }> };
    };
    const fleet = status.data.fleet;
    assert.equal(fleet.length, 3);

    tmux('new-session', '-d', '-s', SESSION, '-x', '110', '-y', '35', '-c', r.root, 'bash', '--norc', '--noprofile');
    const pane = `${SESSION}:0`;
    await waitFor(pane, 'the shell prompt', has('shell$'));
    tmux('send-keys', '-t', pane, deskCommand('', 'EXIT'), 'Enter');
    let lines = await waitFor(pane, 'the Fleet section', has('Fleet (3)'));
    assert.equal(paneFlag(pane, '#{alternate_on}'), '1', 'the desk draws on the alternate screen');
    assert.equal(paneFlag(pane, '#{cursor_flag}'), '0', 'with the cursor hidden');
    const at = fleet.map((row) => lines.findIndex((l) => l.includes(`  ${row.branch}  `)));
    assert.ok(
      at.every((i) => i > 0),
      `every status row is on the desk:\n${lines.join('\n')}`,
    );
    assert.deepEqual(
      [...at].sort((a, b) => a - b),
      at,
      'in status order',
    );
    assert.ok(lines.every((l) => l.length <= 110));

    // Changes made behind the desk's back: a commit in an effort and a new worktree.
    const head = one.change('more.txt', 'more\n').slice(0, 8);
    r.git('worktree', 'add', '-q', '-b', 'agent/extra', `${r.root}.worktrees/extra`);
    lines = await waitFor(
      pane,
      'the new commit and worktree',
      (l) => has(head)(l) && has('Fleet (4)')(l) && has('  agent/extra  ')(l),
    );

    // The fleet's order follows the latest commits: after the refresh it is status's order of now.
    const current = (onlyJson(await runCli(['status', '--json'], { cwd: r.root })) as typeof status).data.fleet;
    assert.equal(current.length, 4);
    lines = await waitFor(pane, "status's order of now", (l) => {
      const rows = current.map((row) => l.findIndex((line) => line.includes(`  ${row.branch}  `)));
      return rows.every((i, n) => i > 0 && (n === 0 || i > (rows[n - 1] ?? 0)));
    });

    tmux('send-keys', '-t', pane, 'j', 'Enter');
    const second = current[1];
    assert.ok(second !== undefined);
    lines = await waitFor(pane, 'the details of the second row', has(`Worktree ${second.id ?? ''}`));
    assert.ok(
      lines.some((l) => /^ {2}Branch +/.test(l) && l.includes(second.branch)),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => /^ {2}Proof +/.test(l)),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => /^ {2}Last gate +done R1-/.test(l)),
      lines.join('\n'),
    );
    tmux('send-keys', '-t', pane, 'Escape');
    await waitFor(pane, 'the list again', (l) => has('Fleet (4)')(l) && !has('Worktree ')(l));

    // A smaller terminal: the desk lays itself out again, every line cut to the new width, the keys at the bottom.
    tmux('resize-window', '-t', SESSION, '-x', '48', '-y', '16');
    // The frame must be whole (its rows drawn, not only the keys line of a redraw in progress).
    lines = await waitFor(
      pane,
      'the desk at 48 columns',
      (l) =>
        l.length === 16 && /^↑↓\/jk move/.test(l[15] ?? '') && has('Fleet (4)')(l) && l.some((x) => x.endsWith('…')),
    );
    assert.ok(
      lines.every((l) => [...l].length <= 48),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => l.endsWith('…')),
      `long lines are cut, not wrapped:\n${lines.join('\n')}`,
    );
    tmux('resize-window', '-t', SESSION, '-x', '110', '-y', '35');
    await waitFor(pane, 'the desk at 110 columns', (l) => l.length === 35 && /^↑↓\/jk move/.test(l[34] ?? ''));

    // A second desk on the same repository, in another window, is refused and leaves its screen alone.
    tmux('new-window', '-t', SESSION, '-c', r.root, 'bash', '--norc', '--noprofile');
    const other = `${SESSION}:1`;
    await waitFor(other, 'the second shell', has('shell$'));
    tmux('send-keys', '-t', other, deskCommand('desk', 'SECOND'), 'Enter');
    lines = await waitFor(other, 'the refusal', exited('SECOND'));
    assert.ok(has('SECOND=1')(lines), lines.join('\n'));
    assert.ok(
      lines.some((l) => l.includes('desk_already_active') && /pid \d+/.test(l)),
      lines.join('\n'),
    );
    assert.ok(has('quit it with q')(lines), lines.join('\n'));

    tmux('send-keys', '-t', pane, 'q');
    lines = await waitFor(pane, 'the shell after q', exited('EXIT'));
    assert.ok(has('EXIT=0')(lines), lines.join('\n'));
    assert.ok(!has('Fleet (')(lines), `no desk left on the screen:\n${lines.join('\n')}`);
    assert.equal(paneFlag(pane, '#{alternate_on}'), '0');
    assert.equal(paneFlag(pane, '#{cursor_flag}'), '1');
    const lock = join(r.git('rev-parse', '--path-format=absolute', '--git-common-dir').trim(), 'discern', 'desk.lock');
    assert.ok(!existsSync(lock), 'q frees the lock');
    // The terminal is out of raw mode: a typed line echoes and runs.
    tmux('send-keys', '-t', pane, 'echo "typed-$((40+2))"', 'Enter');
    await waitFor(pane, 'the echoed line', has('typed-42'));

    // A lock left by a process that is gone is taken over; SIGTERM ends the desk with 143 and restores the screen.
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    }).stdout;
    mkdirSync(join(lock, '..'), { recursive: true });
    const now = new Date().toISOString();
    writeFileSync(
      lock,
      `${JSON.stringify({ token: '0123456789abcdef', pid: Number(gone), hostname: hostname(), acquired_at: now, renewed_at: now, expires_at: new Date(Date.now() + 3_600_000).toISOString() })}\n`,
    );
    tmux('send-keys', '-t', pane, 'clear', 'Enter');
    tmux('send-keys', '-t', pane, deskCommand('desk', 'TERM'), 'Enter');
    await waitFor(pane, 'the desk over a stale lock', has('Fleet (4)'));
    const holder = JSON.parse(readFileSync(lock, 'utf8')) as { pid: number };
    assert.notEqual(holder.pid, Number(gone));
    process.kill(holder.pid, 'SIGTERM');
    lines = await waitFor(pane, 'the shell after SIGTERM', exited('TERM'));
    assert.ok(has('TERM=143')(lines), lines.join('\n'));
    assert.ok(has('desk interrupted by SIGTERM')(lines), lines.join('\n'));
    assert.equal(paneFlag(pane, '#{alternate_on}'), '0');
    assert.equal(paneFlag(pane, '#{cursor_flag}'), '1');
    assert.ok(!existsSync(lock));

    // A crash (an exception thrown from the key handler) still gives the terminal back, then exits 70.
    tmux('send-keys', '-t', pane, 'clear', 'Enter');
    tmux('send-keys', '-t', pane, `DISCERN_FAULT=desk:key ${deskCommand('desk', 'CRASH')}`, 'Enter');
    await waitFor(pane, 'the desk before the crash', has('Fleet (4)'));
    tmux('send-keys', '-t', pane, 'j');
    lines = await waitFor(pane, 'the shell after the crash', exited('CRASH'));
    assert.ok(has('CRASH=70')(lines), lines.join('\n'));
    assert.ok(has('discern: internal error; crash record at')(lines), lines.join('\n'));
    assert.equal(paneFlag(pane, '#{alternate_on}'), '0');
    assert.equal(paneFlag(pane, '#{cursor_flag}'), '1');
    tmux('send-keys', '-t', pane, 'echo "typed-$((50+5))"', 'Enter');
    await waitFor(pane, 'the echoed line after the crash', has('typed-55'));
  });
});
