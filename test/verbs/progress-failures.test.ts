// The failures progress shows for a finished run: streamed ones first, then the result's error diagnostics that
// are not the same failure again (src/verbs/progress-failures.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { failuresWithResult, MAX_RESULT_FAILURES } from '../../src/verbs/progress-failures.js';

const diagnostic = (over: Record<string, unknown>) => ({ severity: 'error', tool: 'test', message: 'boom', ...over });

describe('failuresWithResult', () => {
  it('a streamed failure with an absolute path is the diagnostic that names it relative to the checkout', () => {
    const streamed = [{ producer: 'test', name: 'adds', message: 'boom', file: '/repo/test/a.js', line: 3 }];
    const result = { diagnostics: [diagnostic({ rule: 'adds', file: 'test/a.js', line: 3 })] };
    assert.deepEqual(failuresWithResult(streamed, result, '/repo'), streamed);
  });

  it('keeps two unnamed errors on one line apart by their messages', () => {
    const result = {
      diagnostics: [
        diagnostic({ tool: 'typecheck', file: 'src/a.ts', line: 1, message: 'TS2322: one' }),
        diagnostic({ tool: 'typecheck', file: 'src/a.ts', line: 1, message: 'TS2345: two' }),
        diagnostic({ tool: 'typecheck', file: 'src/a.ts', line: 1, message: 'TS2345: two' }),
      ],
    };
    assert.deepEqual(
      failuresWithResult([], result).map((f) => f.message),
      ['TS2322: one', 'TS2345: two'],
    );
  });

  it('counts its cap after duplicates are set aside, and skips warnings and malformed entries', () => {
    const streamed = Array.from({ length: 60 }, (_, i) => ({ producer: 'test', name: `t${i}`, message: 'boom' }));
    const result = {
      diagnostics: [
        ...streamed.map((s) => diagnostic({ rule: s.name })),
        diagnostic({ rule: 'w', severity: 'warning' }),
        { severity: 'error', tool: 7 },
        'not a diagnostic',
        ...Array.from({ length: 80 }, (_, i) => diagnostic({ rule: `new${i}`, line: 0 })),
      ],
    };
    const merged = failuresWithResult(streamed, result);
    assert.equal(merged.length, 60 + MAX_RESULT_FAILURES);
    assert.equal(merged[60]?.name, 'new0');
    assert.equal(merged[60]?.line, undefined);
  });
});
