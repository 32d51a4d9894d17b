// Sweeping old run output directories: only directories, only old ones, never through a link, never throwing.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keepNewestOutputs, outputFileName, sweepOldOutputs } from '../../../src/engine/jobs/output-dir.js';
import { scratch } from './job-helpers.js';

const HOUR = 60 * 60 * 1000;

function age(path: string, ms: number): void {
  const when = new Date(Date.now() - ms);
  utimesSync(path, when, when);
}

describe('sweepOldOutputs', () => {
  it('removes run directories older than the limit and leaves the rest', async () => {
    const { dir, cleanup } = scratch('sweep');
    try {
      const runs = join(dir, 'runs');
      const outside = join(dir, 'outside');
      mkdirSync(outside);
      writeFileSync(join(outside, 'keep.log'), 'x');
      age(join(outside, 'keep.log'), 48 * HOUR);
      age(outside, 48 * HOUR);

      const old = join(runs, 'R-old');
      mkdirSync(join(old, 'nested'), { recursive: true });
      writeFileSync(join(old, 'lint.log'), 'x');
      age(join(old, 'lint.log'), 30 * HOUR);
      age(join(old, 'nested'), 30 * HOUR);
      age(old, 30 * HOUR);

      const fresh = join(runs, 'R-fresh');
      mkdirSync(fresh);

      // Old directory, but a job is still writing into it.
      const stillWriting = join(runs, 'R-writing');
      mkdirSync(stillWriting);
      writeFileSync(join(stillWriting, 'test.log'), 'x');
      age(stillWriting, 30 * HOUR);

      const oldFile = join(runs, 'stray.log');
      writeFileSync(oldFile, 'x');
      age(oldFile, 30 * HOUR);
      symlinkSync(outside, join(runs, 'link'));

      assert.equal(await sweepOldOutputs(runs), 1);
      assert.equal(existsSync(old), false);
      assert.equal(existsSync(fresh), true);
      assert.equal(existsSync(stillWriting), true);
      assert.equal(existsSync(oldFile), true);
      assert.equal(existsSync(join(outside, 'keep.log')), true, 'a link is never followed');

      assert.equal(await sweepOldOutputs(runs, 0), 2, 'maxAgeMs 0 removes every run directory');
      assert.equal(existsSync(join(runs, 'link')), true);
    } finally {
      cleanup();
    }
  });

  it('never throws, for a missing directory or a file in its place', async () => {
    const { dir, cleanup } = scratch('sweep-missing');
    try {
      assert.equal(await sweepOldOutputs(join(dir, 'missing')), 0);
      writeFileSync(join(dir, 'file'), '');
      assert.equal(await sweepOldOutputs(join(dir, 'file')), 0);
    } finally {
      cleanup();
    }
  });
});

describe('outputFileName', () => {
  it('keeps safe labels and makes others safe and distinct', () => {
    assert.equal(outputFileName('lint'), 'lint.log');
    const a = outputFileName('scope:docs');
    const b = outputFileName('scope_docs');
    assert.match(a, /^scope_docs-[0-9a-f]{8}\.log$/);
    assert.equal(b, 'scope_docs.log');
    assert.notEqual(outputFileName('a/b'), outputFileName('a:b'));
    assert.match(outputFileName('..'), /^_/);
  });
});

describe('keepNewestOutputs', () => {
  it('keeps the newest run directories by their timestamped names and leaves files alone', async () => {
    const { dir, cleanup } = scratch('keep-newest');
    try {
      for (const name of [
        '2026-01-01T00-00-00-000Z-a',
        '2026-01-02T00-00-00-000Z-b',
        '2026-01-03T00-00-00-000Z-c',
        '2026-01-04T00-00-00-000Z-d',
      ])
        mkdirSync(join(dir, name));
      writeFileSync(join(dir, 'note.txt'), '');
      assert.equal(await keepNewestOutputs(dir, 2), 2);
      assert.deepEqual(
        [
          '2026-01-01T00-00-00-000Z-a',
          '2026-01-02T00-00-00-000Z-b',
          '2026-01-03T00-00-00-000Z-c',
          '2026-01-04T00-00-00-000Z-d',
          'note.txt',
        ].map((n) => existsSync(join(dir, n))),
        [false, false, true, true, true],
      );
      assert.equal(await keepNewestOutputs(join(dir, 'missing'), 2), 0);
    } finally {
      cleanup();
    }
  });
  it("never counts or removes the current run's directory, whether it exists yet or not", async () => {
    const { dir, cleanup } = scratch('keep-current');
    try {
      const current = '2026-01-05T00-00-00-000Z-now';
      for (const name of ['2026-01-01T00-00-00-000Z-a', '2026-01-02T00-00-00-000Z-b', '2026-01-03T00-00-00-000Z-c'])
        mkdirSync(join(dir, name));
      // Not there yet (the sweep runs while the jobs start): the other runs keep their count.
      assert.equal(await keepNewestOutputs(dir, 2, current), 1);
      mkdirSync(join(dir, current));
      assert.equal(await keepNewestOutputs(dir, 2, current), 0, "the current run does not take an older run's place");
      assert.deepEqual(
        ['2026-01-01T00-00-00-000Z-a', '2026-01-02T00-00-00-000Z-b', '2026-01-03T00-00-00-000Z-c', current].map((n) =>
          existsSync(join(dir, n)),
        ),
        [false, true, true, true],
      );
      // Even when it sorts first (a clock set back), it stays.
      assert.equal(await keepNewestOutputs(dir, 0, '2026-01-02T00-00-00-000Z-b'), 2);
      assert.ok(existsSync(join(dir, '2026-01-02T00-00-00-000Z-b')));
    } finally {
      cleanup();
    }
  });
});
