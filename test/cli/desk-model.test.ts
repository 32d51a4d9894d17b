// The desk's pure parts: its rows are status's rows in status's order (and the queue is accept's dry-run queue),
// keys move the selection and open and close details, a fresh snapshot keeps the selection on its row, details
// say what a row holds, every line fits the width, and the glyphs follow the locale.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import type {
  DiscernProgressRecord,
  DiscernQueueRow,
  DiscernStatusData,
  DiscernStatusFleetRow,
} from '../../generated/types.js';
import { decodeKeys } from '../../src/surfaces/cli/desk/keys.js';
import { layout, type Line } from '../../src/surfaces/cli/desk/layout.js';
import {
  initialState,
  items,
  onKey,
  onOperation,
  onProblem,
  onSnapshot,
  type DeskSnapshot,
  type DeskState,
} from '../../src/surfaces/cli/desk/model.js';
import { buildSnapshot, type JournalEntry } from '../../src/surfaces/cli/desk/snapshot.js';
import { colorAllowed, deskColor, paintLine } from '../../src/surfaces/cli/desk/terminal.js';
import { clean, fit, glyphsFor, width, wrap } from '../../src/surfaces/cli/desk/text.js';
import type { OperationRecord } from '../../src/engine/journal/index.js';
import { call } from '../helpers/drive.js';
import { effort, trackedRepo } from '../helpers/efforts.js';
import type { ScratchRepo } from '../helpers/scratch-repo.js';
import { fakeRecord } from '../engine/journal/fixtures-records.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

const UTF8 = glyphsFor({ LANG: 'C.UTF-8' });
const ASCII = glyphsFor({});
const NOW = Date.parse('2030-01-01T12:00:00Z');

function texts(lines: Line[]): string[] {
  return lines.map((l) => l.text);
}

function fleetRow(path: string, extra: Partial<DiscernStatusFleetRow> = {}): DiscernStatusFleetRow {
  return {
    path,
    is_main: false,
    is_current: false,
    branch: `agent/${path.split('/').pop() ?? ''}`,
    head: 'a'.repeat(40),
    clean: true,
    changed_files: 0,
    ahead: 1,
    behind: 0,
    ...extra,
  };
}

function queueRow(effort: string, position: number): DiscernQueueRow {
  return {
    effort,
    branch: `agent/${effort}`,
    path: `/w/${effort}`,
    head: 'b'.repeat(40),
    submitted_at: `2030-01-01T11:0${position}:00Z`,
    authority: 'awaiting-owner',
    position,
    readiness: 'waiting',
    reason: 'needs the owner',
  };
}

/** A running done of another checkout, as the journal would hold it. */
function record(handle: string, extra: Partial<OperationRecord> = {}): OperationRecord {
  return fakeRecord({
    handle,
    verb: 'done',
    checkout: '/w/one',
    branch: 'agent/one',
    pid: 1,
    hostname: 'h',
    started_at: '2030-01-01T11:59:00Z',
    last_activity_at: '2030-01-01T11:59:30Z',
    progress: { phase: 'check', state: 'running', reason: 'running test', next: 'wait', owner_must_act: false },
    ...extra,
  });
}

function snapshot(extra: Partial<DeskSnapshot> = {}): DeskSnapshot {
  return {
    project: 'demo',
    root: '/w/main',
    trunk: 'main',
    fleet: [
      fleetRow('/w/main', { is_main: true, is_current: true, branch: 'main' }),
      fleetRow('/w/one', { id: 'one' }),
      fleetRow('/w/two', { id: 'two', clean: false, changed_files: 3 }),
    ],
    fleetTotal: 3,
    queue: [queueRow('two', 1)],
    operations: [
      {
        handle: 'R1-AAAA-BBBB-CC',
        verb: 'done',
        checkout: '/w/one',
        branch: 'agent/one',
        started_at: '2030-01-01T11:59:00Z',
        phase: 'check',
        state: 'running',
        reason: 'running test',
        executor: 'running',
      },
    ],
    lastGates: { '/w/one': { handle: 'R1-AAAA-BBBB-CC', started_at: '2030-01-01T11:59:00Z', reason: 'running test' } },
    readAt: NOW,
    ...extra,
  };
}

function press(state: DeskState, ...keys: Parameters<typeof onKey>[1][]): DeskState {
  return keys.reduce((s, k) => onKey(s, k).state, state);
}

const screen = (state: DeskState, columns = 110, rows = 35, glyphs = UTF8): string[] =>
  texts(layout(state, { columns, rows, glyphs, now: NOW }));

describe('desk rows are status rows', () => {
  it('the fleet in status order, the queue in status order which is accept --dry-run order', async () => {
    const r = trackedRepo(repos);
    const first = await effort(r, 'zeta', 'z.txt', 'z\n');
    const second = await effort(r, 'alpha', 'a.txt', 'a\n');
    await effort(r, 'mid', 'm.txt', 'm\n', false);
    // Queued in the opposite order to the fleet's, so the two orders cannot agree by accident.
    assert.equal((await call('accept', { action: 'queue' }, second.path)).ok, true);
    assert.equal((await call('accept', { action: 'queue' }, first.path)).ok, true);
    const status = await call('status', {}, r.root);
    assert.ok(status.ok && status.verb === 'status' && status.data && 'git' in status.data);
    const data: DiscernStatusData = status.data;
    const dry = await call('accept', { dry_run: true }, first.path);
    assert.ok(dry.verb === 'accept' && dry.data && 'queue' in dry.data);
    const dryQueue = (dry.data.queue ?? []).map((q) => q.effort);

    const snap = buildSnapshot(data, [], NOW);
    assert.deepEqual(snap.fleet, data.fleet);
    assert.deepEqual(
      snap.queue.map((q) => q.effort),
      dryQueue,
    );
    assert.deepEqual(dryQueue, ['alpha', 'zeta']);
    assert.deepEqual(
      items(snap).map((i) => i.key),
      [
        ...(data.fleet ?? []).map((f) => `fleet:${f.path}`),
        ...(data.queue ?? []).map((q) => `queue:${q.effort}:${q.submitted_at}`),
      ],
    );
    const lines = screen(initialState(snap));
    const fleetAt = (data.fleet ?? []).map((f) => lines.findIndex((l) => l.includes(f.branch ?? '\0')));
    assert.ok(
      fleetAt.every((i) => i > 0),
      lines.join('\n'),
    );
    assert.deepEqual(
      [...fleetAt].sort((a, b) => a - b),
      fleetAt,
      'fleet rows in status order',
    );
    const queueStart = lines.findIndex((l) => l.startsWith('Landing queue (2)'));
    const queueAt = dryQueue.map((e) => lines.findIndex((l, i) => i > queueStart && l.includes(e)));
    assert.ok(queueAt.every((i) => i > queueStart));
    assert.deepEqual(
      [...queueAt].sort((a, b) => a - b),
      queueAt,
      'queue rows in accept order',
    );
  });

  it('running operations: unfinished and not gone, newest first; each checkout keeps its last done', () => {
    const journal: JournalEntry[] = [
      { record: record('R1-OLD0-0000-00', { started_at: '2030-01-01T10:00:00Z' }), executor: 'running' },
      { record: record('R1-NEW0-0000-00', { started_at: '2030-01-01T11:00:00Z', verb: 'test' }), executor: 'unknown' },
      { record: record('R1-GONE-0000-00', { started_at: '2030-01-01T11:30:00Z' }), executor: 'gone' },
      {
        record: record('R1-DONE-0000-00', {
          started_at: '2030-01-01T11:40:00Z',
          finished_at: '2030-01-01T11:41:00Z',
          outcome: 'completed',
        }),
        executor: 'gone',
      },
    ];
    const status = {
      project: { name: 'p', config: '/w/discern.toml' },
      root: '/w/main',
      git: { trunk: 'main' },
      fleet: [],
      projection: { mode: 'orientation' },
    } as unknown as DiscernStatusData;
    const snap = buildSnapshot(status, journal, NOW);
    assert.deepEqual(
      snap.operations.map((o) => o.handle),
      ['R1-NEW0-0000-00', 'R1-OLD0-0000-00'],
    );
    assert.equal(snap.lastGates['/w/one']?.handle, 'R1-DONE-0000-00');
    assert.equal(snap.lastGates['/w/one']?.outcome, 'completed');
  });
});

describe('desk keys', () => {
  it('decodes arrows (CSI and SS3), j/k, Enter, Esc, Backspace, r, q and Ctrl-C; unknown sequences whole', () => {
    assert.deepEqual(decodeKeys('\x1b[A\x1bOBjk\r\x1b\x7frq\x03'), [
      'up',
      'down',
      'down',
      'up',
      'enter',
      'back',
      'back',
      'refresh',
      'quit',
      'quit',
    ]);
    assert.deepEqual(decodeKeys('\x1b[1;5Cx\x1b[5~\x1b[6~'), ['page-up', 'page-down']);
    assert.deepEqual(decodeKeys('\x1b'), ['back']);
  });

  it('moves within the rows, clamped at both ends, across sections', () => {
    let s = initialState(snapshot());
    assert.equal(items(s.snapshot)[s.cursor]?.key, 'fleet:/w/main');
    s = press(s, 'up');
    assert.equal(s.cursor, 0);
    s = press(s, 'down', 'down', 'down');
    assert.equal(s.selected, 'queue:two:2030-01-01T11:01:00Z');
    s = press(s, 'down', 'down', 'down');
    assert.equal(s.selected, 'operation:R1-AAAA-BBBB-CC');
    s = press(s, 'home');
    assert.equal(s.cursor, 0);
    s = press(s, 'end');
    assert.equal(s.cursor, 4);
  });

  it('Enter opens details, Esc and Backspace go back; r refreshes; q quits', () => {
    const s = press(initialState(snapshot()), 'down', 'enter');
    assert.deepEqual(s.view, { kind: 'details', key: 'fleet:/w/one' });
    assert.equal(press(s, 'back').view.kind, 'list');
    assert.deepEqual(onKey(s, 'refresh').effects, [{ kind: 'refresh' }]);
    const quit = onKey(s, 'quit');
    assert.equal(quit.state.quit, true);
    assert.deepEqual(quit.effects, [{ kind: 'quit' }]);
    // In details, moving keys do nothing.
    assert.deepEqual(press(s, 'down', 'up').view, s.view);
  });

  it('Enter on an operation asks for its progress; the answer fills the details, a late one is dropped', () => {
    const s = press(initialState(snapshot()), 'end');
    const step = onKey(s, 'enter');
    assert.deepEqual(step.effects, [{ kind: 'load-operation', handle: 'R1-AAAA-BBBB-CC', checkout: '/w/one' }]);
    const loading = screen(step.state).join('\n');
    assert.match(loading, /Operation R1-AAAA-BBBB-CC/);
    const progress: DiscernProgressRecord = {
      handle: 'R1-AAAA-BBBB-CC',
      operation: { verb: 'done', path: '/w/one', branch: 'agent/one', started_at: '2030-01-01T11:59:00Z' },
      record_path: '/x',
      executor: 'running',
      progress: {
        phase: 'check',
        state: 'running',
        reason: 'running test',
        next: 'wait for it',
        owner_must_act: false,
      },
      producers: [
        { producer: 'test', state: 'running', units: { kind: 'tests', completed: 3, total: 8 }, partial: false },
      ],
      failures: [],
      timings: [],
      waits: [],
      observed_at: '2030-01-01T12:00:00Z',
      last_activity_at: '2030-01-01T11:59:59Z',
      account: ['done is running the check stage.'],
    };
    const loaded = onOperation(step.state, 'R1-AAAA-BBBB-CC', { kind: 'loaded', record: progress });
    const text = screen(loaded).join('\n');
    assert.match(text, /Progress\s+check: running, running test/);
    assert.match(text, /Producer\s+test: running 3\/8 tests/);
    assert.match(text, /Says\s+done is running the check stage\./);
    assert.match(text, /Read back\s+discern progress R1-AAAA-BBBB-CC/);
    // A failed re-read keeps what was shown; an answer for details no longer open changes nothing.
    assert.deepEqual(onOperation(loaded, 'R1-AAAA-BBBB-CC', { kind: 'failed', message: 'x' }), loaded);
    const back = press(loaded, 'back');
    assert.deepEqual(onOperation(back, 'R1-AAAA-BBBB-CC', { kind: 'loaded', record: progress }), back);
    // A refresh while it is open reads it again.
    assert.deepEqual(onSnapshot(loaded, snapshot()).effects, [
      { kind: 'load-operation', handle: 'R1-AAAA-BBBB-CC', checkout: '/w/one' },
    ]);
  });

  it('a fresh snapshot keeps the selection on its row; a row that went keeps the position', () => {
    const s = press(initialState(snapshot()), 'down', 'down');
    assert.equal(s.selected, 'fleet:/w/two');
    const added = snapshot({
      fleet: [fleetRow('/w/main', { is_main: true }), fleetRow('/w/new'), fleetRow('/w/one'), fleetRow('/w/two')],
    });
    assert.equal(onSnapshot(s, added).state.selected, 'fleet:/w/two');
    const removed = snapshot({
      fleet: [fleetRow('/w/main', { is_main: true }), fleetRow('/w/one')],
      queue: [],
      operations: [],
    });
    const after = onSnapshot(s, removed).state;
    assert.equal(after.cursor, 1);
    assert.equal(after.selected, 'fleet:/w/one');
  });
});

describe('desk screen', () => {
  it('sections with their rows, the selection marked, the keys in the footer at the bottom', () => {
    const lines = screen(initialState(snapshot()), 110, 35);
    assert.equal(lines.length, 35);
    assert.match(lines[0] ?? '', /^discern desk · demo · \/w\/main/);
    assert.ok(
      lines.some((l) => /^› ● +main \(main\) +main /.test(l)),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => /^ {5}two +agent\/two +aaaaaaaa +3 changed +\+1\/-0 +proof -/.test(l)),
      lines.join('\n'),
    );
    assert.ok(lines.includes('Landing queue (1)'));
    assert.ok(lines.some((l) => /1\. +two +agent\/two +bbbbbbbb +awaiting-owner +waiting: needs the owner/.test(l)));
    assert.ok(
      lines.some((l) => /R1-AAAA-BBBB-CC +done +agent\/one +1m00s +check: running/.test(l)),
      lines.join('\n'),
    );
    assert.match(lines[34] ?? '', /^↑↓\/jk move · enter details · r refresh · q quit · as of /);
  });

  it("a worktree's details: branch, head, state, trunk, Proof and last gate", () => {
    const s = press(
      initialState(
        snapshot({
          fleet: [
            fleetRow('/w/one', {
              id: 'one',
              gate_proof: { status: 'honored', head: 'aaaaaaa', recorded: '2030-01-01T11:00:00Z' },
            }),
          ],
        }),
      ),
      'enter',
    );
    const text = screen(s).join('\n');
    for (const pattern of [
      /Worktree one/,
      /Branch +agent\/one/,
      /Head +a{40}/,
      /State +clean/,
      /Trunk +1 ahead of and 0 behind main/,
      /Proof +honored, for aaaaaaa, recorded 2030/,
      /Last gate +done R1-AAAA-BBBB-CC: running for 1m00s/,
    ]) {
      assert.match(text, pattern);
    }
  });

  it("a queued submission's details: position, authority, readiness", () => {
    const s = press(initialState(snapshot({ fleet: [] })), 'enter');
    const text = screen(s).join('\n');
    assert.match(text, /Queued two/);
    assert.match(text, /Authority +awaiting-owner/);
    assert.match(text, /Readiness +waiting: needs the owner/);
  });

  it('never wider than the screen, at any width; never taller', () => {
    const long = snapshot({
      fleet: Array.from({ length: 40 }, (_, i) =>
        fleetRow(`/w/${'x'.repeat(60)}${i}`, { branch: `agent/${'y'.repeat(70)}` }),
      ),
    });
    for (const columns of [1, 8, 20, 40, 80, 200]) {
      for (const state of [press(initialState(long), 'end'), press(initialState(long), 'enter')]) {
        const lines = layout(state, { columns, rows: 12, glyphs: UTF8, now: NOW });
        assert.ok(lines.length <= 12);
        for (const line of lines) assert.ok(width(line.text) <= columns, `${columns}: ${line.text}`);
      }
    }
    // The selection stays in view when the rows do not fit.
    const bottom = layout(press(initialState(long), 'page-down', 'page-down', 'page-down'), {
      columns: 80,
      rows: 12,
      glyphs: UTF8,
      now: NOW,
    });
    assert.ok(bottom.some((l) => l.tone === 'selected'));
  });

  it('ASCII glyphs outside a UTF-8 locale; control characters never reach the terminal', () => {
    assert.equal(glyphsFor({ LANG: 'en_US.UTF-8' }).cursor, '›');
    assert.equal(glyphsFor({ LC_ALL: 'C', LANG: 'en_US.UTF-8' }).cursor, '>');
    const lines = screen(
      initialState(snapshot({ fleet: [fleetRow('/w/evil', { branch: 'a\x1b[2Jb', is_current: true })] })),
      80,
      20,
      ASCII,
    );
    const all = lines.join('\n');
    assert.ok(!/[^\x20-\x7e\n]/.test(all), all);
    assert.match(all, /^> \* +evil +a\?\[2Jb/m);
    assert.match(lines[19] ?? '', /^up\/down\/jk move - enter details/);
  });

  it('NO_COLOR (any non-empty value) and TERM=dumb turn tones off', () => {
    assert.equal(colorAllowed({}), true);
    assert.equal(colorAllowed({ NO_COLOR: '' }), true);
    assert.equal(colorAllowed({ NO_COLOR: '1' }), false);
    assert.equal(colorAllowed({ TERM: 'dumb' }), false);
  });

  it('--no-color and --plain turn tones off whatever the environment; --plain draws ASCII in a UTF-8 locale', () => {
    const env = { LANG: 'C.UTF-8', FORCE_COLOR: '1' };
    const flags = (
      extra: Partial<{ noColor: boolean; plain: boolean }>,
    ): { noColor: boolean; plain: boolean; theme: 'auto' } => ({
      noColor: false,
      plain: false,
      theme: 'auto',
      ...extra,
    });
    assert.equal(deskColor(flags({}), env), true);
    assert.equal(deskColor(flags({}), { NO_COLOR: '1' }), false, 'the environment still counts');
    const state = initialState(snapshot());
    const coloured = layout(state, { columns: 110, rows: 35, glyphs: glyphsFor(env), now: NOW }).map((l) =>
      paintLine(l, deskColor(flags({}), env)),
    );
    assert.ok(
      coloured.some((l) => l.includes('\x1b[7m')),
      'the selection is drawn in reverse when colour is on',
    );
    for (const presentation of [flags({ noColor: true }), flags({ plain: true })]) {
      const glyphs = glyphsFor(env, presentation.plain);
      const drawn = layout(state, { columns: 110, rows: 35, glyphs, now: NOW }).map((l) =>
        paintLine(l, deskColor(presentation, env)),
      );
      const all = drawn.join('\n');
      assert.ok(!all.includes('\x1b'), JSON.stringify(all));
      if (presentation.plain) {
        assert.ok(!/[^\x20-\x7e\n]/.test(all), all);
        assert.match(drawn[34] ?? '', /^up\/down\/jk move - enter details/);
      } else {
        assert.match(drawn[34] ?? '', /^↑↓\/jk move/, '--no-color alone keeps the Unicode glyphs');
      }
    }
  });

  it('a refresh that fails says why and keeps the rows', () => {
    const s = onProblem(initialState(snapshot()), 'discern.toml: invalid TOML at line 3');
    const lines = screen(s);
    assert.ok(lines.some((l) => l.startsWith('cannot refresh: discern.toml: invalid TOML')));
    assert.ok(lines.includes('Fleet (3)'));
    assert.equal(onSnapshot(s, snapshot()).state.problem, undefined);
  });

  it('text helpers: fit cuts with an ellipsis, wide characters count twice, wrap keeps words', () => {
    assert.equal(fit('abcdef', 4, UTF8), 'abc…');
    assert.equal(fit('abcdef', 4, ASCII), 'abc~');
    assert.equal(width('日本'), 4);
    assert.equal(fit('日本語', 5, UTF8), '日本…');
    assert.deepEqual(wrap('one two three four', 9), ['one two', 'three', 'four']);
    assert.deepEqual(wrap('abcdefghij', 4), ['abcd', 'efgh', 'ij']);
    assert.equal(clean('a\x07b\u009bc'), 'a?b?c');
  });
});
