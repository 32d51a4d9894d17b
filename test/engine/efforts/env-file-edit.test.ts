// The env-file reader and editor behind [worktree] port and inherit_env, and the port candidates, table-tested.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { envAssignments, setEnvValues } from '../../../src/engine/efforts/env-file-edit.js';
import { planEnvWrite } from '../../../src/engine/efforts/env-write.js';
import { PORT_RANGE, portCandidates } from '../../../src/engine/efforts/ports.js';

describe('env file editing', () => {
  it('reads assignments as written, the last one of a name counting, export form included', () => {
    const read = envAssignments('# c\nA=1\nexport B = "two"\nA=3\nnot a line\n');
    assert.deepEqual(
      [...read],
      [
        ['A', '3'],
        ['B', '"two"'],
      ],
    );
  });

  it('replaces each given name once where it first stood, appends new ones, keeps every other line', () => {
    const cases: [string, [string, string][], string][] = [
      ['', [['PORT', '20000']], 'PORT=20000\n'],
      ['A=1\nPORT=1\n# note\nexport PORT=2\n', [['PORT', '20001']], 'A=1\nPORT=20001\n# note\n'],
      ['A=1', [['B', 'x']], 'A=1\nB=x\n'],
      ['A=1\r\nB=2\r\n', [['A', '9']], 'A=9\nB=2\n'],
    ];
    for (const [before, values, after] of cases) assert.equal(setEnvValues(before, new Map(values)), after, before);
  });

  it("the effort's PORT wins over an inherited one, and unset names are listed", () => {
    const plan = planEnvWrite(
      { envFiles: ['.env'], port: 20005, inherit: ['PORT', 'X', 'Y'] },
      new Map([
        ['PORT', '3000'],
        ['X', '1'],
      ]),
    );
    assert.deepEqual(
      [...plan.values],
      [
        ['PORT', '20005'],
        ['X', '1'],
      ],
    );
    assert.deepEqual(plan.unset, ['Y']);
  });

  it('port candidates are the range without the held ports, lowest first', () => {
    const held = new Set([PORT_RANGE.first, PORT_RANGE.first + 2]);
    assert.deepEqual(portCandidates(held).slice(0, 2), [PORT_RANGE.first + 1, PORT_RANGE.first + 3]);
    const all = new Set<number>();
    for (let p = PORT_RANGE.first; p <= PORT_RANGE.last; p++) all.add(p);
    assert.deepEqual(portCandidates(all), []);
  });
});
