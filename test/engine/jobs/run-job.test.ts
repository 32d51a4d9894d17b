// The job runner against real child processes: verdicts, timeouts, cancellation, process-group cleanup, shell
// and environment. No mocks: every test spawns the shell discern would spawn.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OutputCapture } from '../../../src/engine/jobs/output-capture.js';
import { runCommand } from '../../../src/engine/jobs/run-command.js';
import { runJob, type JobSpec } from '../../../src/engine/jobs/run-job.js';
import { FALLBACK_SHELL, jobEnvironment, selectShell } from '../../../src/engine/jobs/shell.js';
import { alive, baseEnv, readPid, scratch } from './job-helpers.js';

let dir: string;
let cleanup: () => void;
let counter = 0;
const strays: number[] = [];

before(() => {
  ({ dir, cleanup } = scratch('run-job'));
});
after(() => {
  for (const pid of strays) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  cleanup();
});

function spec(commands: string[], overrides: Partial<JobSpec> = {}): JobSpec {
  counter++;
  return {
    label: `job${counter}`,
    commands,
    cwd: dir,
    env: baseEnv(),
    timeoutS: 0,
    timeoutKey: '[jobs.test] timeout',
    outputPath: join(dir, 'out', `job${counter}.log`),
    ...overrides,
  };
}

async function waitGone(pid: number, ms = 1000): Promise<boolean> {
  for (let waited = 0; waited < ms && alive(pid); waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
  return !alive(pid);
}

describe('runJob verdicts', () => {
  it('passes, writing combined output to a file whose parent directories it creates', async () => {
    const s = spec(['echo out; echo err >&2'], { outputPath: join(dir, 'deep', 'er', 'pass.log') });
    const result = await runJob(s);
    assert.equal(result.outcome, 'ok');
    assert.equal(result.failure, undefined);
    assert.equal(result.label, s.label);
    assert.equal(result.outputPath, s.outputPath);
    const text = readFileSync(s.outputPath, 'utf8');
    assert.deepEqual(text.split('\n').sort(), ['', 'err', 'out']);
    assert.equal(result.outputBytes, 8);
    assert.equal(result.outputLines, 2);
    assert.ok(result.durationMs >= 0);
  });

  it('fails with the exit code and names the command', async () => {
    const result = await runJob(spec(['echo before; exit 7']));
    assert.equal(result.outcome, 'failed');
    assert.deepEqual(result.failure, { kind: 'exit', code: 7, command: 'echo before; exit 7' });
  });

  it('reports a command killed by a signal', async () => {
    const result = await runJob(spec(['kill -USR1 $$']));
    assert.equal(result.outcome, 'failed');
    assert.deepEqual(result.failure, { kind: 'signal', signal: 'SIGUSR1', command: 'kill -USR1 $$' });
  });

  it('runs commands in order into one file and stops at the first failure', async () => {
    const s = spec(['echo one', 'echo two; exit 4', 'echo three']);
    const groups: [string, number][] = [];
    const result = await runJob({ ...s, onProcessGroup: (event, pgid) => groups.push([event, pgid]) });
    assert.equal(result.outcome, 'failed');
    assert.deepEqual(result.failure, { kind: 'exit', code: 4, command: 'echo two; exit 4' });
    assert.equal(readFileSync(s.outputPath, 'utf8'), 'one\ntwo\n');
    assert.equal(result.outputLines, 2);
    // Each command leads its own group, announced on start and on end.
    assert.deepEqual(
      groups.map(([event]) => event),
      ['start', 'end', 'start', 'end'],
    );
    assert.equal(groups[0]?.[1], groups[1]?.[1]);
    assert.notEqual(groups[0]?.[1], groups[2]?.[1]);
  });

  it('treats an empty command list as ok with no output', async () => {
    const s = spec([]);
    const result = await runJob(s);
    assert.equal(result.outcome, 'ok');
    assert.equal(result.outputBytes, 0);
    assert.equal(result.outputLines, 0);
    assert.deepEqual(result.metrics, {});
    assert.deepEqual(result.progress, { partial: false, failures: [] });
  });
});

describe('runJob timeouts and cancellation', () => {
  it('kills the whole process group on timeout and names the key', async () => {
    const pidFile = join(dir, 'timeout.pid');
    const s = spec([`sleep 30 & echo $! > ${pidFile}; sleep 30`], { timeoutS: 1 });
    const started = Date.now();
    const result = await runJob(s);
    const elapsed = Date.now() - started;
    assert.equal(result.outcome, 'failed');
    assert.deepEqual(result.failure, {
      kind: 'timeout',
      seconds: 1,
      key: '[jobs.test] timeout',
      command: s.commands[0],
    });
    assert.ok(elapsed >= 900 && elapsed < 2500, `took ${elapsed} ms`);
    const grandchild = await readPid(pidFile);
    strays.push(grandchild);
    assert.equal(alive(grandchild), false, 'the background sleep went with its group');
    const text = readFileSync(s.outputPath, 'utf8');
    assert.match(
      text,
      new RegExp(
        `discern: ${s.label} timed out after 1 s \\(\\[jobs\\.test\\] timeout\\); its process group was killed\\n$`,
      ),
    );
    assert.equal(result.outputBytes, Buffer.byteLength(text));
  });

  it('escalates to SIGKILL when the group ignores SIGTERM', async () => {
    const pidFile = join(dir, 'stubborn.pid');
    // An ignored signal stays ignored across exec, so the background sleep ignores SIGTERM too.
    const s = spec([`trap '' TERM; sleep 30 & echo $! > ${pidFile}; wait`], { timeoutS: 1 });
    const started = Date.now();
    const result = await runJob(s);
    const elapsed = Date.now() - started;
    assert.equal(result.failure?.kind, 'timeout');
    assert.ok(elapsed >= 2500 && elapsed < 5000, `took ${elapsed} ms (1 s timeout + 2 s grace)`);
    const grandchild = await readPid(pidFile);
    strays.push(grandchild);
    assert.equal(alive(grandchild), false);
  });

  it('cancels on abort, killing the tree, and skips the remaining commands', async () => {
    const pidFile = join(dir, 'abort.pid');
    const controller = new AbortController();
    const s = spec([`sleep 30 & echo $! > ${pidFile}; sleep 30`, `echo never`], {
      signal: controller.signal,
      timeoutS: 60,
    });
    const running = runJob(s);
    const grandchild = await readPid(pidFile);
    strays.push(grandchild);
    const aborted = Date.now();
    controller.abort();
    const result = await running;
    assert.ok(Date.now() - aborted < 1500, 'stops promptly');
    assert.equal(result.outcome, 'cancelled');
    assert.equal(result.failure, undefined);
    assert.equal(alive(grandchild), false);
    assert.doesNotMatch(readFileSync(s.outputPath, 'utf8'), /never/);
  });

  it('does not start anything when already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const marker = join(dir, 'not-created');
    const result = await runJob(spec([`touch ${marker}`], { signal: controller.signal }));
    assert.equal(result.outcome, 'cancelled');
    assert.throws(() => readFileSync(marker));
  });

  it('finishes promptly when the command leaves a background grandchild, and kills it', async () => {
    const pidFile = join(dir, 'leftover.pid');
    const s = spec([`sleep 1000 & echo $! > ${pidFile}; echo done`], { timeoutS: 30 });
    const started = Date.now();
    const result = await runJob(s);
    assert.ok(Date.now() - started < 1500, `took ${Date.now() - started} ms`);
    assert.equal(result.outcome, 'ok');
    const grandchild = await readPid(pidFile);
    strays.push(grandchild);
    assert.equal(alive(grandchild), false, 'the leftover member of the group was killed');
    assert.equal(readFileSync(s.outputPath, 'utf8'), 'done\n');
  });

  it('does not wait for a pipe held by a process that left the group', async () => {
    const pidFile = join(dir, 'escaped.pid');
    // setsid puts the sleep in a session of its own, out of the group's reach, still holding stdout.
    const s = spec([`setsid sleep 20 & echo $! > ${pidFile}; echo done`]);
    const started = Date.now();
    const result = await runJob(s);
    const grandchild = await readPid(pidFile);
    strays.push(grandchild);
    assert.ok(Date.now() - started < 1500, `took ${Date.now() - started} ms`);
    assert.equal(result.outcome, 'ok');
    assert.equal(readFileSync(s.outputPath, 'utf8'), 'done\n');
    // Out of its group, so not discern's to kill; the test cleans it up.
    process.kill(grandchild, 'SIGKILL');
    assert.ok(await waitGone(grandchild));
  });
});

describe('runJob spawn failures', () => {
  it('fails with kind spawn when the working directory is missing', async () => {
    const missing = join(dir, 'no', 'such', 'dir');
    const result = await runJob(spec(['echo hi'], { cwd: missing }));
    assert.equal(result.outcome, 'failed');
    assert.equal(result.failure?.kind, 'spawn');
    assert.equal(result.failure?.command, 'echo hi');
    assert.match(
      result.failure.kind === 'spawn' ? result.failure.message : '',
      /working directory .*no\/such\/dir does not exist/,
    );
  });

  it('fails with kind spawn when the output file cannot be created', async () => {
    writeFileSync(join(dir, 'a-file'), '');
    const result = await runJob(spec(['echo hi'], { outputPath: join(dir, 'a-file', 'out.log') }));
    assert.equal(result.outcome, 'failed');
    assert.equal(result.failure?.kind, 'spawn');
    assert.match(result.failure.kind === 'spawn' ? result.failure.message : '', /cannot write the output file/);
  });

  it('fails with kind spawn for a command the shell cannot be given (NUL byte)', async () => {
    const result = await runJob(spec(['echo a\0b']));
    assert.equal(result.outcome, 'failed');
    assert.equal(result.failure?.kind, 'spawn');
  });

  it('names a missing shell instead of a bare ENOENT', async () => {
    const capture = await OutputCapture.open(join(dir, 'out', 'no-shell.log'), {});
    const outcome = await runCommand({
      command: 'true',
      shell: join(dir, 'no-such-shell'),
      cwd: dir,
      env: {},
      timeoutS: 0,
      capture,
    });
    await capture.finish();
    assert.deepEqual(outcome, { kind: 'spawn', message: `shell ${join(dir, 'no-such-shell')} not found` });
  });
});

describe('runJob shell and environment', () => {
  async function shellOf(shell: string | undefined): Promise<string> {
    const s = spec(['echo "$0"'], { env: baseEnv({ SHELL: shell }) });
    await runJob(s);
    return readFileSync(s.outputPath, 'utf8').trim();
  }

  it('uses $SHELL when it is a POSIX-family shell, else /bin/sh', async () => {
    assert.equal(await shellOf('/bin/bash'), '/bin/bash');
    assert.equal(await shellOf('/bin/dash'), '/bin/dash');
    assert.equal(await shellOf('/usr/bin/fish'), '/bin/sh');
    assert.equal(await shellOf('/bin/false'), '/bin/sh');
    assert.equal(await shellOf(undefined), '/bin/sh');
  });

  it('rejects a shell name that is not an executable file', () => {
    const notExecutable = join(dir, 'bin', 'bash');
    mkdirSync(join(dir, 'bin'), { recursive: true });
    writeFileSync(notExecutable, '#!/bin/sh\n');
    chmodSync(notExecutable, 0o644);
    assert.equal(selectShell({ SHELL: notExecutable }), FALLBACK_SHELL);
    assert.equal(selectShell({ SHELL: join(dir, 'bin') }), FALLBACK_SHELL);
    assert.equal(selectShell({ SHELL: 'bash' }), FALLBACK_SHELL, 'a relative name is not trusted');
  });

  it('scrubs git repository variables and names the job', async () => {
    const s = spec(
      [
        'echo "${GIT_DIR-unset} ${GIT_WORK_TREE-unset} ${GIT_INDEX_FILE-unset} ${GIT_PREFIX-unset} ${GIT_COMMON_DIR-unset} $KEEP $DISCERN_JOB"',
      ],
      {
        env: baseEnv({
          GIT_DIR: '/elsewhere/.git',
          GIT_WORK_TREE: '/elsewhere',
          GIT_INDEX_FILE: 'x',
          GIT_PREFIX: 'p/',
          GIT_COMMON_DIR: '/c',
          KEEP: 'kept',
          DROPPED: undefined,
        }),
        label: 'generated:types',
      },
    );
    const result = await runJob(s);
    assert.equal(result.outcome, 'ok');
    assert.equal(readFileSync(s.outputPath, 'utf8'), 'unset unset unset unset unset kept generated:types\n');
    assert.deepEqual(Object.keys(jobEnvironment({ A: '1', B: undefined, GIT_DIR: 'x' }, 'l')).sort(), [
      'A',
      'DISCERN_JOB',
    ]);
  });
});

describe('runJob live callbacks', () => {
  it('reports progress facts as they arrive and throttles output counts', async () => {
    const seen: { at: number; completed: number | undefined }[] = [];
    const counts: { at: number; lines: number }[] = [];
    const lines = Array.from(
      { length: 6 },
      (_, i) => `echo 'DISCERN_PROGRESS {"units":{"kind":"step","completed":${i + 1}}}'; sleep 0.1`,
    );
    const s = spec([lines.join('; ')], {
      onProgress: (fact) => seen.push({ at: Date.now(), completed: fact.units?.completed }),
      onOutput: (c) => counts.push({ at: Date.now(), lines: c.lines }),
    });
    const result = await runJob(s);
    const ended = Date.now();
    assert.deepEqual(
      seen.map((s) => s.completed),
      [1, 2, 3, 4, 5, 6],
    );
    assert.ok(ended - (seen[0]?.at ?? ended) >= 400, 'the first fact arrived while the job was still running');
    assert.ok(counts.length >= 2, `got ${counts.length} count updates`);
    for (let i = 1; i < counts.length; i++)
      assert.ok((counts[i]?.at ?? 0) - (counts[i - 1]?.at ?? 0) >= 240, 'at most 4 updates a second');
    assert.ok(counts.every((c, i) => i === 0 || c.lines >= (counts[i - 1]?.lines ?? 0)));
    assert.deepEqual(result.progress.units, { kind: 'step', completed: 6, total: null });
  });

  it('survives observers that throw', async () => {
    const result = await runJob(
      spec([`echo 'DISCERN_PROGRESS {"partial":true}'`], {
        onProgress: () => {
          throw new Error('observer bug');
        },
        onOutput: () => {
          throw new Error('observer bug');
        },
        onProcessGroup: () => {
          throw new Error('observer bug');
        },
      }),
    );
    assert.equal(result.outcome, 'ok');
    assert.equal(result.progress.partial, true);
  });
});
