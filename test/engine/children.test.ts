// A signal that ends discern stops the children it started, whole process groups included.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { stopChildren, trackChild } from '../../src/engine/process/children.js';
import { processAlive as alive } from '../helpers/processes.js';

describe('stopChildren', () => {
  it('stops a tracked child and the grandchild in its process group', async () => {
    // The shell leads a new group and starts a grandchild; both must go.
    const child = spawn('/bin/sh', ['-c', 'sleep 30 & echo $!; wait'], {
      detached: true,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    trackChild(child, true);
    const grandchild = Number(
      await new Promise<string>((resolve) => child.stdout.once('data', (c: Buffer) => resolve(c.toString().trim()))),
    );
    assert.ok(alive(grandchild));
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('exit', (_code, signal) => resolve(signal)),
    );
    assert.equal(stopChildren('SIGTERM'), 1);
    assert.equal(await exited, 'SIGTERM');
    for (let i = 0; i < 50 && alive(grandchild); i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(alive(grandchild), false, 'the grandchild went with its group');
  });
  it('forgets children that have exited', async () => {
    const child = spawn(process.execPath, ['-e', '0']);
    trackChild(child);
    await new Promise((resolve) => child.once('exit', resolve));
    assert.equal(stopChildren('SIGTERM'), 0);
  });
});
