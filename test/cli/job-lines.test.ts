// [gate] stream's lines on the CLI: the prefix (labels padded to the run's widest, `│` or `|`), job text in caret
// notation, and on a terminal the lines printed above the live region so its redraws never erase them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { streamListener, type StreamedLine } from '../../src/engine/gate/stream-listener.js';
import { jobLines } from '../../src/surfaces/cli/job-lines.js';
import { liveRegion } from '../../src/surfaces/cli/live-region.js';
import { ASCII_GLYPHS } from '../../src/surfaces/cli/live-render.js';

describe('streamed job lines', () => {
  it('the listener passes only producer-line events, with the widest label of the run', () => {
    const got: StreamedLine[] = [];
    const listener = streamListener((l) => got.push(l), ['lint', 'generated:types']);
    listener({ type: 'producer-start', label: 'lint', group: 'check' });
    listener({ type: 'producer-output', label: 'lint', lines: 1, errorLikeLines: 0 });
    listener({ type: 'producer-line', label: 'lint', text: 'ok' });
    assert.deepEqual(got, [{ label: 'lint', text: 'ok', labelWidth: 15 }]);
  });

  it('the prefix lines up; --plain uses |; control characters show in caret notation', () => {
    const written: string[] = [];
    const unicode = jobLines({ ascii: false, write: (l) => written.push(l) });
    unicode({ label: 'lint', text: 'a\tb', labelWidth: 9 });
    unicode({ label: 'typecheck', text: 'x\u001b]0;title\u0007y', labelWidth: 9 });
    jobLines({ ascii: true, write: (l) => written.push(l) })({ label: 'test', text: 'z', labelWidth: 4 });
    assert.deepEqual(written, ['lint      │ a\tb', 'typecheck │ x^[]0;title^Gy', 'test | z']);
  });

  it('on a terminal the lines go above the region, in order, and straight out after it closed', async () => {
    const writes: string[] = [];
    const stream = { columns: 80, rows: 30, write: (s: string) => writes.push(s) };
    const region = liveRegion(stream, { glyphs: ASCII_GLYPHS, color: false, now: () => 0 });
    region.progress({
      message: 'running',
      completed: 0,
      total: 1,
      events: [
        { kind: 'plan', producers: ['lint'] },
        { kind: 'producer', label: 'lint', state: 'running', elapsedMs: 0 },
      ],
    });
    region.line('lint │ one');
    region.line('lint │ two');
    await new Promise((resolve) => setTimeout(resolve, 150));
    const drawn = writes.join('');
    assert.ok(drawn.startsWith('lint │ one\nlint │ two\n'), JSON.stringify(drawn));
    assert.match(drawn.slice('lint │ one\nlint │ two\n'.length), /lint\s+running/);
    region.line('lint │ three');
    region.close();
    region.line('lint │ late');
    const after = writes.join('').slice(drawn.length);
    // The close erases the region, prints what was queued, and a later line is written as it comes.
    assert.match(after, /^\r\x1b\[\d+A\x1b\[Jlint │ three\nlint │ late\n$/);
  });

  it('a flood of lines is drawn without waiting for the next redraw', () => {
    const writes: string[] = [];
    const region = liveRegion(
      { columns: 80, write: (s: string) => writes.push(s) },
      {
        glyphs: ASCII_GLYPHS,
        color: false,
        now: () => 0,
      },
    );
    for (let i = 0; i < 64; i++) region.line(`test │ ${i}`);
    assert.equal(writes.length, 1, 'drawn at once, not queued until the timer');
    assert.ok(writes[0]?.includes('test │ 63\n'));
    region.close();
  });
});
