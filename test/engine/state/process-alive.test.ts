// Probing processes by signal 0: running, gone (including zombies on Linux), unknown for nonsense pids and
// for processes recorded on another machine or pid namespace.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { createInterface } from 'node:readline';
import { holderState, localIdentity, processState } from '../../../src/engine/state/process-alive.js';

describe('processState', () => {
  it('reports this process as running and a reaped child as gone', () => {
    assert.equal(processState(process.pid), 'running');
    assert.equal(processState(process.ppid), 'running');
    assert.equal(processState(spawnSync(process.execPath, ['-e', '0']).pid), 'gone');
  });

  it('never probes process groups or nonsense: 0, negatives, fractions, NaN are unknown', () => {
    for (const pid of [0, -1, -process.pid, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 2])
      assert.equal(processState(pid), 'unknown', String(pid));
  });

  it('calls a process it may not signal running (EPERM), not gone', () => {
    // pid 1 always exists; unprivileged we get EPERM, as root the probe simply succeeds.
    assert.equal(processState(1), 'running');
  });

  it('sends no real signal: the probed process keeps running', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 5000)']);
    for (let i = 0; i < 5; i++) assert.equal(processState(child.pid as number), 'running');
    assert.equal(child.exitCode, null);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    assert.equal(processState(child.pid as number), 'gone');
  });

  it('counts an unreaped zombie as gone on Linux', { skip: process.platform !== 'linux' }, async () => {
    // The shell starts a short sleep in the background and then execs a long one, which never reaps it: the
    // short sleep ends after the exec (a shell would have reaped it before) and stays a zombie.
    const child = spawn('/bin/sh', ['-c', 'sleep 0.2 & echo $!; exec sleep 5'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
    const zombie = Number(line);
    // Wait until it really is a zombie (exited, unreaped), so the /proc check is what decides.
    for (let i = 0; i < 300 && procState(zombie) !== 'Z'; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(procState(zombie), 'Z');
    let state = processState(zombie);
    for (let i = 0; i < 50 && state !== 'gone'; i++) {
      await new Promise((r) => setTimeout(r, 20));
      state = processState(zombie);
    }
    assert.equal(state, 'gone');
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
  });
});

function procState(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return 'missing';
  }
}

describe('holderState', () => {
  it('probes only pids recorded on this machine and in this pid namespace', () => {
    const local = localIdentity();
    assert.equal(local.hostname, hostname());
    assert.equal(holderState({ pid: process.pid, hostname: hostname() }), 'running');
    assert.equal(holderState({ pid: process.pid, hostname: hostname(), pid_ns: local.pid_ns }), 'running');
    assert.equal(holderState({ pid: process.pid, hostname: 'elsewhere.invalid' }), 'unknown');
    if (local.pid_ns !== undefined)
      assert.equal(holderState({ pid: process.pid, hostname: hostname(), pid_ns: 'pid:[1]' }), 'unknown');
    assert.equal(holderState({ pid: 'x', hostname: hostname() }), 'unknown');
    assert.equal(holderState({ pid: spawnSync(process.execPath, ['-e', '0']).pid, hostname: hostname() }), 'gone');
  });
});
