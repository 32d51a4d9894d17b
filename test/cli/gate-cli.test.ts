// The gate verbs through the built binary: `discern done --markdown` for a red and a green run (the Proof line,
// the diagnostic with file:line, the next action last), the exit statuses of src/surfaces/cli/exit-codes.ts
// (0 ok; 1 for gate, checkout and lookup refusals; 2 for a value the command does not accept), and --json as
// exactly one line on stdout with nothing on stderr while the gate runs.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { onlyJson, runCli } from '../helpers/cli.js';
import { assertPublishedResult } from '../helpers/published-schema.js';
import { cleanEnv } from '../helpers/scratch-repo.js';
import { DISCERN_BIN } from '../helpers/cli.js';
import {
  R1_HANDLE,
  cleanupGate,
  counter,
  count,
  gateRepo,
  gitDir,
  head,
  isRoot,
  markerPath,
  rememberLocked,
} from '../helpers/gate-repo.js';
import type { DiscernResult } from '../../generated/types.js';

after(cleanupGate);

const TSC_LINE = `src/a.ts(3,7): error TS2322: Type 'x' is not assignable to type 'y'.`;

function cli(args: string[], cwd: string): ReturnType<typeof runCli> {
  return runCli(args, { cwd, env: cleanEnv() });
}

function lastLine(text: string): string {
  return text.trimEnd().split('\n').at(-1) ?? '';
}

describe('discern done --markdown', () => {
  it('a red run: the failed stage, the diagnostic with file:line, the next action last; exit 1', async () => {
    const r = gateRepo(`[jobs]\nlint = '''echo "${TSC_LINE}"; exit 2'''\ntest = "true"\n`);
    const run = await cli(['done', '--markdown'], r.root);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.equal(run.stderr, '');
    assert.match(run.stdout, /^# discern done/m);
    assert.match(run.stdout, /Failed stage: `check`/);
    assert.match(
      run.stdout,
      /\*\*lint\*\* error: `src\/a\.ts:3:7` Type 'x' is not assignable to type 'y'\. \(TS2322\)/,
    );
    assert.match(run.stdout, /reproduce: `echo "src\/a\.ts\(3,7\)/);
    assert.match(run.stdout, /Progress handle: `R1-/);
    assert.equal(lastLine(run.stdout), 'Read the first diagnostic, fix it, commit, then run `discern done` again.');

    // The same red tree again is refused without running: still exit 1, and the next action names progress
    // and --rerun.
    const again = await cli(['done', '--markdown'], r.root);
    assert.equal(again.code, 1);
    assert.match(lastLine(again.stdout), /discern progress R1-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{2}/);
    assert.match(lastLine(again.stdout), /--rerun/);
  });

  it('a green run: the Proof line to relay, the relay hint last; exit 0; the marker is written', async () => {
    const r = gateRepo(`[jobs]\ntest = "true"\n`);
    const run = await cli(['done', '--markdown'], r.root);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(run.stderr, '');
    assert.match(
      run.stdout,
      new RegExp(`^> discern Proof: main @ ${head(r.root).slice(0, 12)} — gate green \\(test\\)`, 'm'),
    );
    assert.match(run.stdout, /\*\*Green\*\* — the gate ran\./);
    assert.equal(lastLine(run.stdout), 'Relay the Proof line verbatim; green is not landed.');
    assert.ok(existsSync(markerPath(r.root)));

    const reused = await cli(['done', '--markdown'], r.root);
    assert.equal(reused.code, 0);
    assert.match(reused.stdout, /current Proof reused; nothing ran/);
  });
});

describe('exit statuses and --json', () => {
  it('--json prints exactly one JSON line and nothing on stderr while the gate runs; green exits 0', async () => {
    const c = counter();
    const r = gateRepo(
      `[jobs]\nlint = "echo lint output; echo lint >> ${c}"\ntest = "echo test output >&2; sleep 0.3; echo test >> ${c}"\n`,
    );
    const run = await cli(['done', '--json'], r.root);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(run.stderr, '', 'no live output under --json');
    assert.equal(run.stdout.endsWith('\n'), true);
    const result = onlyJson(run);
    assertPublishedResult(result as unknown as DiscernResult);
    assert.equal(result['ok'], true);
    assert.match(String((result['data'] as { handle?: string }).handle), R1_HANDLE);
    assert.equal(count(c), 2);
  });

  it('gate_failed exits 1 with one JSON line', async () => {
    const r = gateRepo(`[jobs]\ntest = "echo failing >&2; exit 1"\n`);
    const run = await cli(['done', '--json'], r.root);
    assert.equal(run.code, 1);
    assert.equal(run.stderr, '');
    const result = onlyJson(run);
    assert.equal(result['error'], 'gate_failed');
  });

  it('refusals: dirty_worktree and detached_head exit 1; an invalid policy_base value exits 2', async () => {
    const r = gateRepo(`[jobs]\ntest = "true"\n`);
    const valueRun = await cli(['done', '--json', '--policy-base', 'main'], r.root);
    assert.equal(onlyJson(valueRun)['error'], 'invalid_value');
    assert.equal(valueRun.code, 2, 'invalid_value belongs to the arguments family');

    r.write('README.md', 'dirty\n');
    const dirty = await cli(['done', '--json'], r.root);
    assert.equal(onlyJson(dirty)['error'], 'dirty_worktree');
    assert.equal(dirty.code, 1);

    r.git('checkout', '-q', '--', 'README.md');
    r.git('checkout', '-q', '--detach');
    const detached = await cli(['done', '--json'], r.root);
    assert.equal(onlyJson(detached)['error'], 'detached_head');
    assert.equal(detached.code, 1);
  });

  it('test and progress through the CLI: one JSON line each; a broken handle exits 2, an unknown one 1', async () => {
    const r = gateRepo(`[jobs]\ntest = "true"\n`);
    const tested = await cli(['test', '--json'], r.root);
    assert.equal(tested.code, 0, tested.stdout + tested.stderr);
    assert.equal(tested.stderr, '');
    const handle = String((onlyJson(tested)['data'] as { handle?: string }).handle);
    assert.match(handle, R1_HANDLE);

    const back = await cli(['progress', handle, '--json'], r.root);
    assert.equal(back.code, 0, back.stdout);
    const data = onlyJson(back)['data'] as { outcome?: string; handle?: string; executor?: string };
    assert.deepEqual(
      { outcome: data.outcome, handle: data.handle, executor: data.executor },
      { outcome: 'completed', handle, executor: 'gone' },
    );

    const human = await cli(['progress'], r.root);
    assert.equal(human.code, 0);
    assert.ok(human.stdout.includes(handle), human.stdout);

    const malformed = await cli(['progress', 'R1-NOPE', '--json'], r.root);
    assert.equal(onlyJson(malformed)['error'], 'invalid_value');
    assert.equal(malformed.code, 2);

    const other = gateRepo(`[jobs]\ntest = "true"\n`);
    const unknown = await cli(['progress', handle, '--json'], other.root);
    const refusal = onlyJson(unknown);
    assert.equal(refusal['error'], 'unknown_target');
    assert.equal(unknown.code, 1);
  });
});

describe('an unwritable state directory', () => {
  // Root ignores directory permissions, so as root the binary runs as the unprivileged user `nobody`.
  const runuser = ['/usr/sbin/runuser', '/sbin/runuser', '/usr/bin/runuser'].find((p) => existsSync(p));
  const nobody = isRoot() ? spawnSync('id', ['-u', 'nobody'], { encoding: 'utf8' }) : undefined;
  const skip =
    isRoot() && (runuser === undefined || nobody?.status !== 0)
      ? 'running as root without runuser or a nobody user'
      : false;

  it('done --json is write_denied with exit 1, and nothing runs', { skip }, () => {
    const c = counter();
    const r = gateRepo(`[jobs]\ntest = "echo ran >> ${c}"\n`);
    const state = join(gitDir(r.root), 'discern');
    mkdirSync(state, { recursive: true });
    let run;
    if (isRoot() && runuser !== undefined) {
      const uid = Number(nobody?.stdout.trim());
      chownRecursive(r.root, uid);
      chmodSync(join(c, '..'), 0o777);
      chmodSync(state, 0o555);
      rememberLocked(state);
      run = spawnSync(runuser, ['-u', 'nobody', '--', process.execPath, DISCERN_BIN, 'done', '--json'], {
        cwd: r.root,
        env: cleanEnv({ HOME: r.root }),
        encoding: 'utf8',
      });
    } else {
      chmodSync(state, 0o555);
      rememberLocked(state);
      run = spawnSync(process.execPath, [DISCERN_BIN, 'done', '--json'], {
        cwd: r.root,
        env: cleanEnv(),
        encoding: 'utf8',
      });
    }
    chmodSync(state, 0o755);
    const result = onlyJson({ code: run.status, signal: null, stdout: run.stdout, stderr: run.stderr });
    assert.equal(result['error'], 'write_denied', run.stdout);
    assert.equal(run.status, 1);
    assert.equal(count(c), 0);
  });
});

function chownRecursive(dir: string, uid: number): void {
  spawnSync('chown', ['-R', String(uid), dir]);
  chownSync(dir, uid, -1);
}
