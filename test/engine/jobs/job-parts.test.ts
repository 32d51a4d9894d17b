// The runner's pure parts, table-tested without processes: line splitting, protocol parsing, progress merging,
// and the output capture's backpressure.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { LineSplitter } from '../../../src/engine/jobs/line-splitter.js';
import { OutputCapture } from '../../../src/engine/jobs/output-capture.js';
import { emptyMergedProgress, MAX_MERGED_FAILURES, mergeProgress } from '../../../src/engine/jobs/progress-merge.js';
import { parseMetricLine, parseProgressLine } from '../../../src/engine/jobs/protocol-lines.js';
import { scratch } from './job-helpers.js';

function split(chunks: (string | Buffer)[], max = 16): (string | undefined)[] {
  const lines: (string | undefined)[] = [];
  const splitter = new LineSplitter(max, (line) => lines.push(line));
  for (const chunk of chunks) splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  splitter.flush();
  return lines;
}

describe('LineSplitter', () => {
  it('splits across chunk boundaries, byte by byte included', () => {
    const text = 'alpha\nbeta\r\n\ngamma';
    assert.deepEqual(split([text]), ['alpha', 'beta', '', 'gamma']);
    assert.deepEqual(split([...Buffer.from(text)].map((byte) => Buffer.from([byte]))), ['alpha', 'beta', '', 'gamma']);
    assert.deepEqual(split(['be', 'ta\r', '\nx\n']), ['beta', 'x']);
  });

  it('emits nothing for empty input and no phantom line after a final newline', () => {
    assert.deepEqual(split([]), []);
    assert.deepEqual(split(['a\n']), ['a']);
    assert.deepEqual(split(['a\r']), ['a']);
  });

  it('decodes a multi-byte character split between chunks', () => {
    const bytes = Buffer.from('héllo\n');
    assert.deepEqual(split([bytes.subarray(0, 2), bytes.subarray(2)]), ['héllo']);
  });

  it('counts an overlong line without keeping it; the limit excludes the CRLF', () => {
    const exact = 'x'.repeat(16);
    assert.deepEqual(split([`${exact}\r\n`]), [exact]);
    assert.deepEqual(split([`${exact.slice(0, 8)}`, `${exact.slice(8)}\r`, '\n']), [exact]);
    assert.deepEqual(split([`${exact}y\nok\n`]), [undefined, 'ok']);
    assert.deepEqual(split(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(10), '\nok']), [undefined, 'ok']);
    assert.deepEqual(split(['x'.repeat(100)]), [undefined]);
  });
});

describe('protocol lines', () => {
  it('parses only a valid object after the exact prefix', () => {
    assert.deepEqual(parseProgressLine('DISCERN_PROGRESS {"partial":true}'), { partial: true });
    assert.deepEqual(parseProgressLine('DISCERN_PROGRESS {}'), {});
    for (const line of [
      'DISCERN_PROGRESS',
      'DISCERN_PROGRESS ',
      'DISCERN_PROGRESS 1',
      'DISCERN_PROGRESS {"partial":"yes"}',
      'DISCERN_PROGRESS {} trailing',
      'DISCERN_METRIC a 1',
    ]) {
      assert.equal(parseProgressLine(line), undefined, line);
    }
  });

  it('parses metrics with sign and exponent, and nothing else', () => {
    assert.deepEqual(parseMetricLine('DISCERN_METRIC a.b:c-d_e 1E+3'), { metric: 'a.b:c-d_e', value: 1000 });
    assert.deepEqual(parseMetricLine('DISCERN_METRIC x -0.25'), { metric: 'x', value: -0.25 });
    assert.deepEqual(parseMetricLine('DISCERN_METRIC x 5.'), { metric: 'x', value: 5 });
    for (const line of [
      'DISCERN_METRIC x',
      'DISCERN_METRIC  x 1',
      'DISCERN_METRIC x  1',
      'DISCERN_METRIC x 1 2',
      'DISCERN_METRIC x Infinity',
      'DISCERN_METRIC x -1e400',
      'DISCERN_METRIC x e5',
      'DISCERN_METRIC x/y 1',
      'DISCERN_METRIC x 1_000',
    ]) {
      assert.equal(parseMetricLine(line), undefined, line);
    }
  });
});

describe('mergeProgress', () => {
  it('applies the merge rules without mutating its inputs', () => {
    const start = emptyMergedProgress();
    const a = mergeProgress(start, {
      units: { kind: 'tests', completed: 1, total: 4, extra: true },
      results: { passed: 1 },
      active: ['x'],
    });
    assert.deepEqual(start, { partial: false, failures: [] });
    const b = mergeProgress(a, { results: { failed: 1 }, partial: true, elapsed_ms: 10 });
    const c = mergeProgress(b, {
      results: { passed: 3 },
      active: [],
      partial: false,
      units: { kind: 'tests', completed: 4 },
    });
    assert.deepEqual(a, {
      units: { kind: 'tests', completed: 1, total: 4 },
      results: { passed: 1 },
      active: ['x'],
      partial: false,
      failures: [],
    });
    assert.deepEqual(c, {
      units: { kind: 'tests', completed: 4, total: null },
      results: { passed: 3, failed: 1 },
      active: [],
      elapsed_ms: 10,
      partial: true,
      failures: [],
    });
    // An empty results object leaves the known counts as they were.
    assert.deepEqual(mergeProgress(c, { results: {} }).results, { passed: 3, failed: 1 });
  });

  it('keeps a "__proto__" result as a plain count', () => {
    const merged = mergeProgress(emptyMergedProgress(), JSON.parse('{"results":{"__proto__":2}}'));
    assert.deepEqual(Object.entries(merged.results ?? {}), [['__proto__', 2]]);
    assert.equal(Object.getPrototypeOf(merged.results), Object.prototype);
  });

  it('bounds failures', () => {
    let merged = emptyMergedProgress();
    for (let i = 0; i < MAX_MERGED_FAILURES + 5; i++)
      merged = mergeProgress(merged, { failure: { name: `t${i}`, message: 'm', line: i + 1 } });
    assert.equal(merged.failures.length, MAX_MERGED_FAILURES);
    assert.deepEqual(merged.failures[0], { name: 't0', message: 'm', line: 1 });
  });
});

describe('OutputCapture backpressure', () => {
  it('pauses its sources while the file is behind and resumes them on drain', async () => {
    const { dir, cleanup } = scratch('capture');
    try {
      const path = join(dir, 'nested', 'out.log');
      const capture = await OutputCapture.open(path, {});
      const source = new PassThrough();
      capture.attach(source, 'stdout');
      // A 64 KiB chunk is over the file stream's 16 KiB high-water mark: the write reports the file is behind.
      source.write(Buffer.alloc(65536, 0x61));
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(capture.isSaturated, true);
      assert.equal(source.isPaused(), true);
      for (;;) {
        if (!capture.isSaturated) break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      assert.equal(source.isPaused(), false);
      source.end('\nlast');
      await once(source, 'end');
      capture.detach(source);
      capture.note('discern: a note');
      await capture.finish();
      const text = readFileSync(path, 'utf8');
      assert.equal(text, `${'a'.repeat(65536)}\nlast\ndiscern: a note\n`);
      assert.deepEqual(capture.outputCounts, { lines: 3, bytes: Buffer.byteLength(text), errorLikeLines: 0 });
    } finally {
      cleanup();
    }
  });
});
