// The CLI's live view, without a terminal: the model (updates in, rows and facts out), the renderer (rows cut
// to the width, ASCII markers, colour only when allowed), the region writer against a stream object that
// records what it was given, and the choice between region, plain lines and nothing.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { LiveEvent } from '../../src/engine/live/live-events.js';
import { colorAllowed, liveView, utf8Locale } from '../../src/surfaces/cli/live.js';
import { applyUpdate, emptyModel, type LiveFact, type LiveModel } from '../../src/surfaces/cli/live-model.js';
import { liveRegion, shownRows } from '../../src/surfaces/cli/live-region.js';
import { liveLines } from '../../src/surfaces/cli/live-lines.js';
import {
  ASCII_GLYPHS,
  UNICODE_GLYPHS,
  displayWidth,
  formatElapsed,
  plainLine,
  renderRegion,
} from '../../src/surfaces/cli/live-render.js';
import type { LiveUpdate } from '../../src/verbs/context.js';

const ESC = '\x1b';

function update(events: LiveEvent[], extra: Partial<LiveUpdate> = {}): LiveUpdate {
  return { message: 'status', completed: 0, total: 3, events, ...extra };
}

/** Applies updates at the given times; returns the model and every fact in order. */
function play(steps: [number, LiveUpdate][]): { model: LiveModel; facts: LiveFact[] } {
  let model = emptyModel(0);
  const facts: LiveFact[] = [];
  for (const [at, u] of steps) {
    const applied = applyUpdate(model, u, at);
    model = applied.model;
    facts.push(...applied.facts);
  }
  return { model, facts };
}

const RUN: [number, LiveUpdate][] = [
  [
    0,
    update(
      [
        { kind: 'plan', producers: ['lint', 'test', 'a-very-long-producer-label-that-goes-on'] },
        { kind: 'phase', phase: 'announce', message: 'R1-AAAA-BBBB-CC — read it back' },
      ],
      { durable: true },
    ),
  ],
  [
    100,
    update([
      { kind: 'producer', label: 'lint', state: 'running', elapsedMs: 0 },
      { kind: 'producer', label: 'test', state: 'running', elapsedMs: 0 },
    ]),
  ],
  [900, update([{ kind: 'producer', label: 'lint', state: 'ok', elapsedMs: 800 }], { completed: 1 })],
  [
    1200,
    update(
      [
        {
          kind: 'producer',
          label: 'test',
          state: 'running',
          counts: { units: { kind: 'tests', completed: 3, total: 10 }, results: { passed: 2, failed: 1 } },
          elapsedMs: 1100,
        },
      ],
      { completed: 1 },
    ),
  ],
  [
    1300,
    update(
      [
        {
          kind: 'failure',
          label: 'test',
          name: 'adds numbers',
          message: 'expected 3\ngot 4',
          file: 'src/math.test.ts',
          line: 12,
        },
      ],
      { completed: 1, durable: true },
    ),
  ],
];

describe('the live model', () => {
  it('one row per planned producer, with state, counts and time; facts in the order they happened', () => {
    const { model, facts } = play(RUN);
    assert.deepEqual(
      model.rows.map((r) => [r.label, r.state]),
      [
        ['lint', 'ok'],
        ['test', 'running'],
        ['a-very-long-producer-label-that-goes-on', 'pending'],
      ],
    );
    assert.equal(model.rows[0]?.durationMs, 800);
    assert.equal(model.rows[1]?.startedAt, 100, 'a running row keeps the time it started');
    assert.deepEqual(model.rows[1]?.counts?.results, { passed: 2, failed: 1 });
    assert.deepEqual([model.completed, model.total], [1, 3]);
    assert.deepEqual(
      facts.map((f) => f.kind),
      ['note', 'started', 'started', 'ended', 'failure'],
    );
  });

  it('a new plan starts new rows (accept gates twice); a wait shows until it ends; a finished phase clears the status', () => {
    const { model } = play([
      ...RUN,
      [
        1400,
        update([
          { kind: 'plan', producers: ['build'] },
          { kind: 'wait-start', reason: 'all 1 test slots are in use', capacity: 1, inUse: 1 },
        ]),
      ],
    ]);
    assert.deepEqual(
      model.rows.map((r) => r.label),
      ['build'],
    );
    assert.equal(model.wait?.inUse, 1);
    const after = applyUpdate(
      model,
      update([
        { kind: 'wait-end', waitedMs: 50 },
        { kind: 'phase', phase: 'finished', message: 'done' },
      ]),
      1500,
    ).model;
    assert.equal(after.wait, undefined);
    assert.equal(after.status, undefined);
  });

  it('an update without structure: its message is the status, or a line when durable', () => {
    const a = applyUpdate(emptyModel(0), { message: 'working', completed: 0 }, 5);
    assert.equal(a.model.status, 'working');
    assert.deepEqual(a.facts, []);
    const b = applyUpdate(a.model, { message: 'keep me', completed: 0, durable: true }, 6);
    assert.deepEqual(b.facts, [{ kind: 'note', text: 'keep me', durable: true }]);
  });

  it("a phase's sentence is the status until the jobs run, and does not come back after them", () => {
    const { model } = play([
      [
        0,
        update([
          { kind: 'plan', producers: ['test'] },
          { kind: 'phase', phase: 'preconditions', message: 'checking preconditions' },
        ]),
      ],
    ]);
    assert.equal(model.status, 'checking preconditions');
    const running = applyUpdate(
      model,
      update([{ kind: 'producer', label: 'test', state: 'running', elapsedMs: 0 }]),
      1,
    ).model;
    const ended = applyUpdate(
      running,
      update([{ kind: 'producer', label: 'test', state: 'ok', elapsedMs: 5 }], { completed: 1 }),
      6,
    ).model;
    assert.equal(ended.status, undefined);
    assert.ok(
      !renderRegion(ended, { now: 7, width: 80, glyphs: UNICODE_GLYPHS, color: false, frame: 0 }).some((l) =>
        l.includes('preconditions'),
      ),
    );
  });

  it('an ended producer is reported once, however many updates repeat it', () => {
    const skipped: LiveEvent = { kind: 'producer', label: 'lint', state: 'skipped', elapsedMs: 0 };
    const { facts } = play([
      [0, update([{ kind: 'plan', producers: ['lint'] }])],
      [1, update([skipped])],
      [2, update([skipped])],
    ]);
    assert.equal(facts.filter((f) => f.kind === 'ended').length, 1);
  });
});

describe('rendering the region', () => {
  const { model } = play(RUN);
  const base = { now: 2000, glyphs: UNICODE_GLYPHS, color: false, frame: 0 };

  it('rows show marker, label, state, elapsed and counts; the last line the overall count and time', () => {
    const lines = renderRegion(model, { ...base, width: 120 });
    assert.equal(lines.length, 4);
    assert.match(lines[0] ?? '', /^✓ lint +ok +0\.8s$/);
    assert.match(lines[1] ?? '', /^⠋ test +running +1\.9s {2}tests 3\/10 · 2 passed, 1 failed$/);
    assert.match(lines[2] ?? '', /^· a-very-long-producer-label-that-goes-on +pending *$/);
    assert.equal(lines[3], '1/3 finished · 2.0s');
  });

  it('every line fits the width, whatever the width; the cut ends with an ellipsis', () => {
    for (const width of [10, 20, 33, 47, 80]) {
      for (const line of renderRegion(model, { ...base, width }))
        assert.ok(displayWidth(line) <= width - 1, `${width}: ${line}`);
    }
    const narrow = renderRegion(model, { ...base, width: 30 });
    assert.ok(
      narrow.some((l) => l.endsWith('…')),
      narrow.join('\n'),
    );
  });

  it('ASCII markers and no colour when asked; colour codes only when allowed', () => {
    const ascii = renderRegion(model, { ...base, width: 120, glyphs: ASCII_GLYPHS });
    for (const line of ascii) assert.match(line, /^[\x20-\x7e]*$/, line);
    assert.ok(ascii.every((l) => !l.includes(ESC)));
    const coloured = renderRegion(model, { ...base, width: 120, color: true });
    assert.ok(
      coloured.some((l) => l.includes(`${ESC}[32m`)),
      'ok is green',
    );
    for (const line of coloured) assert.ok(displayWidth(line.replace(/\x1b\[[0-9;]*m/g, '')) <= 119);
  });

  it('more producers than the terminal has rows: running and failed first, the rest folded into one row', () => {
    const many = play([
      [0, update([{ kind: 'plan', producers: Array.from({ length: 40 }, (_, i) => `job${i}`) }], { total: 40 })],
      [1, update([{ kind: 'producer', label: 'job30', state: 'running', elapsedMs: 0 }], { total: 40 })],
    ]).model;
    const lines = renderRegion(many, { ...base, width: 80, height: 10 });
    assert.ok(lines.length <= 9, lines.join('\n'));
    assert.ok(
      lines.some((l) => l.includes('job30')),
      'the running job is shown',
    );
    assert.ok(
      lines.some((l) => /… \d+ more: \d+ pending/.test(l)),
      lines.join('\n'),
    );
  });

  it('a wait for a test slot and a watch get their own line with their time', () => {
    const waiting = applyUpdate(
      model,
      update([{ kind: 'wait-start', reason: 'full', capacity: 2, inUse: 2 }], { completed: 1 }),
      1500,
    ).model;
    assert.ok(
      renderRegion(waiting, { ...base, width: 100 }).some(
        (l) => l === '… waiting for a test slot: 2 of 2 in use · 0.5s',
      ),
    );
    const watching = applyUpdate(
      emptyModel(0),
      {
        message: 'waiting for e1 to land',
        completed: 0,
        events: [{ kind: 'watch', what: 'e1 to land', elapsedMs: 0 }],
      },
      0,
    ).model;
    assert.deepEqual(renderRegion(watching, { ...base, width: 100 }), ['⠋ waiting for e1 to land · 2.0s']);
  });

  it('times read short: tenths under ten seconds, then seconds, minutes, hours', () => {
    assert.deepEqual([400, 12_300, 185_000, 3_725_000].map(formatElapsed), ['0.4s', '12s', '3m05s', '1h02m']);
  });
});

describe('plain lines', () => {
  it('one line per fact worth keeping: handle, start, end with outcome and time, failure with its place', () => {
    const lines = play(RUN)
      .facts.map(plainLine)
      .filter((l) => l !== undefined);
    assert.deepEqual(lines, [
      'discern: R1-AAAA-BBBB-CC — read it back',
      'discern: lint started',
      'discern: test started',
      'discern: lint ok in 0.8s · 1/3 finished',
      'discern: test: adds numbers failed — expected 3 … (src/math.test.ts:12)',
    ]);
  });
});

/** A stream object that records writes, with the size a terminal would report. */
function recorder(
  columns: number,
  rows = 30,
): { columns: number; rows: number; isTTY: boolean; writes: string[]; write(s: string): boolean } {
  return {
    columns,
    rows,
    isTTY: true,
    writes: [],
    write(s: string) {
      this.writes.push(s);
      return true;
    },
  };
}

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 150));

describe('the region writer', () => {
  it('draws below the durable lines, redraws in place, and erases itself on close', async () => {
    const out = recorder(60);
    let t = 0;
    const region = liveRegion(out, { glyphs: ASCII_GLYPHS, color: false, now: () => t });
    region.progress(RUN[0]![1]);
    await settle();
    const first = out.writes.join('');
    assert.match(first, /^discern: R1-AAAA-BBBB-CC — read it back\n/);
    assert.ok(!first.includes(`${ESC}[`), 'nothing to erase on the first draw');
    t = 100;
    region.progress(RUN[1]![1]);
    await settle();
    const second = out.writes.at(-1) ?? '';
    assert.ok(second.startsWith(`\r${ESC}[4A${ESC}[J`), JSON.stringify(second));
    region.close();
    assert.equal(out.writes.at(-1), `\r${ESC}[4A${ESC}[J`);
    const count = out.writes.length;
    region.progress(RUN[2]![1]);
    await settle();
    assert.equal(out.writes.length, count, 'nothing is drawn after close');
  });

  it('a failure arriving just before close still prints, above where the region was', async () => {
    const out = recorder(80);
    const region = liveRegion(out, { glyphs: ASCII_GLYPHS, color: false, now: () => 0 });
    for (const [, u] of RUN) region.progress(u);
    region.close();
    const text = out.writes.join('');
    assert.match(text, /x test: adds numbers - expected 3 ~ \(src\/math\.test\.ts:12\)\n$/);
  });

  it("every drawn line fits the stream's width", async () => {
    const out = recorder(24);
    const region = liveRegion(out, { glyphs: UNICODE_GLYPHS, color: true, now: () => 0 });
    for (const [, u] of RUN.slice(0, 4)) region.progress(u);
    await settle();
    region.close();
    const drawn = out.writes
      .join('')
      .replace(/\r|\x1b\[\d*A|\x1b\[J|\x1b\[[0-9;]*m/g, '')
      .split('\n')
      .filter((l) => !l.startsWith('discern:'));
    for (const line of drawn) assert.ok(displayWidth(line) <= 23, JSON.stringify(line));
  });
});

/** A job that prints escape sequences in its failure: an SGR, an OSC window title ended by BEL. */
const HOSTILE: [number, LiveUpdate][] = [
  [0, update([{ kind: 'plan', producers: ['lint', 'te\u001b[31mst'] }])],
  [
    10,
    update([
      { kind: 'producer', label: 'te\u001b[31mst', state: 'running', elapsedMs: 0, detail: 'x\u001b]0;pwned\u0007' },
    ]),
  ],
  [
    20,
    update(
      [
        {
          kind: 'failure',
          label: 'te\u001b[31mst',
          name: 'n\u001b[31mame',
          message: 'm\u001b]0;pwned\u0007sg',
          file: 'f\u0007.ts',
          line: 1,
        },
      ],
      { durable: true },
    ),
  ],
];

describe('text from the jobs is shown, never obeyed', () => {
  it("plain lines: no ESC or BEL, the job's text in caret notation", () => {
    const out = recorder(80);
    const lines = liveLines(out, { now: () => 0 });
    for (const [, u] of HOSTILE) lines.progress(u);
    lines.close();
    const text = out.writes.join('');
    assert.ok(!text.includes(ESC) && !text.includes('\x07'), JSON.stringify(text));
    assert.match(text, /discern: te\^\[\[31mst: n\^\[\[31mame failed — m\^\[\]0;pwned\^Gsg \(f\^G\.ts:1\)/);
  });

  it('the region without colour: no ESC beyond its own cursor moves; with colour: only its own SGR', async () => {
    for (const color of [false, true]) {
      const out = recorder(120);
      const region = liveRegion(out, { glyphs: ASCII_GLYPHS, color, now: () => 0 });
      for (const [, u] of HOSTILE) region.progress(u);
      await settle();
      region.close();
      const text = out.writes.join('');
      assert.ok(!text.includes('\x07'), JSON.stringify(text));
      const own = color ? /\r|\x1b\[\d*A|\x1b\[J|\x1b\[[0-9;]*m/g : /\r|\x1b\[\d*A|\x1b\[J/g;
      const rest = text.replace(own, '');
      assert.ok(!rest.includes(ESC), JSON.stringify(rest));
      assert.ok(!text.includes('\x1b]'), 'no OSC');
      assert.ok(
        text.includes('te^[[31mst') &&
          text.includes('n^[[31mame') &&
          text.includes('m^[]0;pwned^Gsg') &&
          text.includes('x^[]0;pwned^G'),
        JSON.stringify(text),
      );
    }
  });

  it('renderRegion measures the caret notation: lines still fit the width', () => {
    const { model } = play(HOSTILE);
    for (const line of renderRegion(model, { now: 0, width: 20, glyphs: ASCII_GLYPHS, color: false, frame: 0 })) {
      assert.ok(!line.includes(ESC), JSON.stringify(line));
      assert.ok(displayWidth(line) <= 19, JSON.stringify(line));
    }
  });
});

describe('the region after the terminal shrinks', () => {
  it('a line wider than the terminal now counts as the rows it wrapped onto', () => {
    assert.equal(shownRows([79, 10, 0], 80), 3);
    assert.equal(shownRows([79, 10, 0], 40), 2 + 1 + 1);
    assert.equal(shownRows([79, 40, 41], 20), 4 + 2 + 3);
  });

  it('the erase moves up over every row the old lines take at the current width, and a resize redraws', async () => {
    const listeners: (() => void)[] = [];
    const out = {
      ...recorder(80),
      on(event: 'resize', l: () => void) {
        if (event === 'resize') listeners.push(l);
      },
      off(event: 'resize', l: () => void) {
        listeners.splice(listeners.indexOf(l), 1);
      },
    };
    const region = liveRegion(out, { glyphs: ASCII_GLYPHS, color: false, now: () => 0 });
    region.progress(
      update([{ kind: 'plan', producers: ['a-producer-label-long-enough-to-wrap-when-the-terminal-is-narrow'] }]),
    );
    await settle();
    const drawn = (out.writes.at(-1) ?? '').split('\n').filter((l) => l.length > 0);
    assert.equal(drawn.length, 2, JSON.stringify(drawn));
    const expected = shownRows(drawn.map(displayWidth), 30);
    assert.ok(expected > 2, 'the row wraps at 30 columns');
    out.columns = 30;
    assert.equal(listeners.length, 1, 'the region listens for resize');
    const before = out.writes.length;
    listeners[0]!();
    assert.equal(out.writes.length, before + 1, 'a resize redraws at once');
    assert.ok(out.writes.at(-1)!.startsWith(`\r${ESC}[${expected}A${ESC}[J`), JSON.stringify(out.writes.at(-1)));
    for (const line of out.writes
      .at(-1)!
      .replace(/^\r\x1b\[\d+A\x1b\[J/, '')
      .split('\n'))
      assert.ok(displayWidth(line) <= 29, JSON.stringify(line));
    region.close();
    assert.equal(listeners.length, 0, 'close stops listening');
  });
});

describe('choosing the view', () => {
  it('no view under --json, --markdown or --render', () => {
    for (const format of ['json', 'markdown', 'render'] as const)
      assert.equal(liveView(format, { stream: recorder(80), env: {} }), undefined);
  });

  it('stderr that is not a terminal, or TERM=dumb, gets plain lines without a control sequence', () => {
    for (const [isTTY, env] of [
      [false, { LANG: 'C.UTF-8' }],
      [true, { TERM: 'dumb', LANG: 'C.UTF-8' }],
    ] as const) {
      const out = { ...recorder(80), isTTY };
      const view = liveView('human', { stream: out, env, now: () => 0 });
      for (const [, u] of RUN) view?.progress(u);
      view?.clear();
      const text = out.writes.join('');
      assert.ok(!text.includes(ESC), JSON.stringify(text));
      assert.match(text, /discern: lint started\n/);
    }
  });

  it('colour: off when NO_COLOR is set and not empty, or TERM=dumb; UTF-8 from the first locale variable set', () => {
    assert.equal(colorAllowed({}), true);
    assert.equal(colorAllowed({ NO_COLOR: '1' }), false);
    assert.equal(colorAllowed({ NO_COLOR: '' }), true);
    assert.equal(colorAllowed({ TERM: 'dumb' }), false);
    assert.equal(utf8Locale({ LANG: 'en_GB.UTF-8' }), true);
    assert.equal(utf8Locale({ LC_ALL: 'C', LANG: 'en_GB.UTF-8' }), false);
    assert.equal(utf8Locale({ LC_CTYPE: 'C.utf8' }), true);
    assert.equal(utf8Locale({}), false);
  });
});
