// The logbook's reader and writer on their own: malformed lines are counted and skipped (not JSON, not an event,
// overlong, a cut-off last line), lines are found across read chunks, each written line stays within its bound,
// and several processes appending at once leave only whole lines.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appendLine } from '../../../src/engine/logbook/append.js';
import { eventFrom, MAX_LINE_BYTES, serialize } from '../../../src/engine/logbook/event.js';
import { identify, IDENTITY_VARIABLES } from '../../../src/engine/logbook/identity.js';
import { logbookPaths } from '../../../src/engine/logbook/paths.js';
import { lastEventTime, readLogbook } from '../../../src/engine/logbook/read.js';
import { sealActive } from '../../../src/engine/logbook/seal.js';
import type { DiscernResult } from '../../../generated/types.js';
import { tempDir } from '../../helpers/scratch-repo.js';
import { Craft } from './craft.js';

const neutral = Object.fromEntries(IDENTITY_VARIABLES.map((v) => [v, undefined]));

describe('reading', () => {
  it('counts and skips malformed lines, including an overlong one and a cut-off last line', async () => {
    const c = new Craft();
    c.add({ verb: 'status' });
    c.raw('not json');
    c.raw('[1, 2]');
    c.raw('{"at": "yesterday", "verb": "status", "outcome": "ok"}');
    c.raw('{"verb": "status", "outcome": "ok"}');
    c.raw(`{"at": "2025-03-01T10:00:00Z", "verb": "status", "outcome": "ok", "pad": "${'x'.repeat(40_000)}"}`);
    c.raw('');
    c.add({ verb: 'done' });
    c.raw('{"at": "2025-03-01T11:00:00Z", "verb": "sta');
    const path = join(tempDir('discern-logbook-'), 'active.jsonl');
    c.write(path, { trailingNewline: false });
    const seen: string[] = [];
    const summary = await readLogbook(path, (r) => seen.push(r.event.verb));
    assert.deepEqual(seen, ['status', 'done']);
    assert.deepEqual(
      { events: summary.events, malformed: summary.malformed, lines: summary.lines },
      { events: 2, malformed: 6, lines: 8 },
    );
    assert.equal(summary.bytes, readFileSync(path).length);
  });
  it('finds every line across read chunks, multi-byte characters included', async () => {
    const c = new Craft();
    for (let i = 0; i < 3000; i++) c.add({ verb: 'status', agent: `ågent ✓ ${i} ${'é'.repeat(i % 300)}` });
    const path = join(tempDir('discern-logbook-'), 'active.jsonl');
    c.write(path);
    let n = 0;
    const summary = await readLogbook(path, (r) => {
      assert.equal(r.event.agent, `ågent ✓ ${n} ${'é'.repeat(n % 300)}`);
      n++;
    });
    assert.ok(summary.bytes > 1 << 20, 'more than one chunk');
    assert.deepEqual([summary.events, summary.malformed], [3000, 0]);
    assert.equal(await lastEventTime(path), summary.last);
  });
  it('a missing file is an empty summary', async () => {
    const summary = await readLogbook(join(tempDir('discern-logbook-'), 'none.jsonl'), () => assert.fail('no events'));
    assert.deepEqual(summary, { bytes: 0, lines: 0, events: 0, malformed: 0, exists: false });
  });
});

describe('writing', () => {
  const result = (steps: number, first: string): DiscernResult =>
    ({
      ok: false,
      verb: 'test',
      error: 'gate_failed',
      message: 'x',
      hints: ['y'],
      steps: Array.from({ length: steps }, (_, i) => ({
        kind: 'job',
        label: `job-${i}`,
        disposition: 'run',
        outcome: 'failed',
        duration_s: i,
      })),
      diagnostics: Array.from({ length: steps }, (_, i) => ({
        tool: `job-${i}`,
        severity: 'error',
        message: `${first} ${i}\nsecond line`,
        reproduce_cmd: 'x',
      })),
      data: { failed_stage: 'test' },
    }) as unknown as DiscernResult;
  it('keeps a line within its bound by shortening first lines, then leaving jobs out', () => {
    const event = eventFrom({
      result: result(200, 'E'.repeat(500)),
      surface: 'cli',
      identity: { actor: 'human' },
      startedAt: 0,
      finishedAt: 1000,
    });
    const line = serialize(event);
    assert.ok(Buffer.byteLength(line) <= MAX_LINE_BYTES);
    const parsed = JSON.parse(line) as { jobs: unknown[]; jobs_omitted: number; failed_stage: string };
    assert.equal(parsed.jobs.length + parsed.jobs_omitted, 200);
    assert.equal(parsed.failed_stage, 'test');
  });
  it('records the first diagnostic line of a failed job, and never the input', () => {
    const event = eventFrom({
      result: result(1, 'Error: boom'),
      surface: 'mcp',
      identity: { actor: 'agent', agent: 'x' },
      startedAt: 0,
      finishedAt: 250,
    });
    assert.deepEqual(event.jobs, [{ label: 'job-0', kind: 'job', outcome: 'failed', s: 0, first: 'Error: boom 0' }]);
    assert.equal(event.ms, 250);
    assert.equal(event.message, undefined, 'messages are kept for accept only');
  });
  it("records the output's last line instead of the fallback headline every plain failure shares, and nothing without output", () => {
    const plain = (output: string | undefined): DiscernResult =>
      ({
        ok: false,
        verb: 'test',
        error: 'gate_failed',
        message: 'x',
        hints: ['y'],
        steps: [{ kind: 'job', label: 'test', disposition: 'run', outcome: 'failed', duration_s: 1 }],
        diagnostics: [
          {
            tool: 'test',
            severity: 'error',
            message:
              output === undefined
                ? 'test failed without printing any output'
                : 'test failed; its output is below (the command exited with status 1).',
            reproduce_cmd: 'x',
            ...(output !== undefined ? { output } : {}),
          },
        ],
      }) as unknown as DiscernResult;
    const facts = { surface: 'cli', identity: { actor: 'human' as const }, startedAt: 0, finishedAt: 1 };
    assert.equal(
      eventFrom({ ...facts, result: plain('starting\nboom: flaky thing\n\n') }).jobs?.[0]?.first,
      'boom: flaky thing',
    );
    assert.equal(eventFrom({ ...facts, result: plain(undefined) }).jobs?.[0]?.first, undefined);
  });
  it('appends whole lines from several processes at once', async () => {
    const dir = tempDir('discern-logbook-');
    const script = fileURLToPath(new URL('./appender.ts', import.meta.url));
    const writers = 6;
    const each = 150;
    await Promise.all(
      Array.from(
        { length: writers },
        (_, w) =>
          new Promise<void>((resolve, reject) => {
            const child = spawn(process.execPath, ['--import', 'tsx', script, dir, String(w), String(each)], {
              stdio: ['ignore', 'ignore', 'inherit'],
            });
            child.once('error', reject);
            child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`writer ${w} exited ${code}`))));
          }),
      ),
    );
    const counts = new Map<string, number>();
    const summary = await readLogbook(logbookPaths(dir).active, (r) =>
      counts.set(r.event.agent ?? '', (counts.get(r.event.agent ?? '') ?? 0) + 1),
    );
    assert.equal(summary.malformed, 0);
    assert.equal(summary.events, writers * each);
    assert.deepEqual([...counts.values()], Array(writers).fill(each));
  });
  it('swallows a failure to append', async () => {
    const dir = tempDir('discern-logbook-');
    writeFileSync(join(dir, 'discern'), 'a file where the folder would be');
    assert.equal(await appendLine(logbookPaths(dir), '{}\n'), false);
  });
  it('seals an active logbook that reached its size limit before appending', async () => {
    const paths = logbookPaths(tempDir('discern-logbook-'));
    const now = new Date('2025-03-01T12:00:00.000Z');
    for (let i = 0; i < 3; i++) assert.equal(await appendLine(paths, `{"n":${i}}\n`, now, 16), true);
    assert.equal(readFileSync(paths.active, 'utf8'), '{"n":2}\n');
    assert.deepEqual(readdirSync(paths.archives), ['20250301T120000000Z.jsonl']);
    assert.equal(
      readFileSync(join(paths.archives, '20250301T120000000Z.jsonl'), 'utf8'),
      '{"n":0}\n{"n":1}\n',
      'the 16 bytes that reached the limit',
    );
  });
  it('seals the active file under a timestamp; a second seal in the same millisecond gets its own name', async () => {
    const dir = tempDir('discern-logbook-');
    const paths = logbookPaths(dir);
    const now = new Date('2025-03-01T12:00:00.000Z');
    await appendLine(paths, '{"a":1}\n');
    const first = sealActive(paths, now);
    await appendLine(paths, '{"a":2}\n');
    const second = sealActive(paths, now);
    assert.equal(first?.name, '20250301T120000000Z.jsonl');
    assert.equal(second?.name, '20250301T120000000Z-1.jsonl');
    assert.equal(readFileSync(first?.path ?? '', 'utf8'), '{"a":1}\n');
    assert.equal(sealActive(paths, now), undefined, 'nothing left to seal');
  });
});

describe('identity', () => {
  const cases: [
    string,
    'cli' | 'mcp',
    Record<string, string | undefined>,
    string | undefined,
    ReturnType<typeof identify>,
  ][] = [
    ['a bare terminal is a person', 'cli', {}, undefined, { actor: 'human' }],
    ['Claude Code', 'cli', { CLAUDECODE: '1' }, undefined, { actor: 'agent', agent: 'claude_code' }],
    ['Codex, by thread id', 'cli', { CODEX_THREAD_ID: '0198' }, undefined, { actor: 'agent', agent: 'codex' }],
    ['Codex, sandboxed', 'cli', { CODEX_SANDBOX: 'seatbelt' }, undefined, { actor: 'agent', agent: 'codex' }],
    [
      "CODEX_HOME is a person's setting, not a mark",
      'cli',
      { CODEX_HOME: '/home/me/.codex' },
      undefined,
      { actor: 'human' },
    ],
    ['Gemini CLI', 'cli', { GEMINI_CLI: '1' }, undefined, { actor: 'agent', agent: 'gemini' }],
    ["Cursor's agent", 'cli', { CURSOR_AGENT: '1' }, undefined, { actor: 'agent', agent: 'cursor' }],
    [
      "Cursor's in-editor agent shell",
      'cli',
      { CURSOR_EXTENSION_HOST_ROLE: 'agent-exec' },
      undefined,
      { actor: 'agent', agent: 'cursor' },
    ],
    ["a person's terminal in Cursor", 'cli', { CURSOR_TRACE_ID: 'abc' }, undefined, { actor: 'human' }],
    ['AGENT names the agent', 'cli', { AGENT: 'goose' }, undefined, { actor: 'agent', agent: 'goose' }],
    ['AGENT=1 says only "an agent"', 'cli', { AGENT: '1' }, undefined, { actor: 'agent' }],
    ['CLAUDECODE=0 is not set', 'cli', { CLAUDECODE: '0' }, undefined, { actor: 'human' }],
    ['CI is neither', 'cli', { CI: 'true' }, undefined, { actor: 'unknown' }],
    [
      'DISCERN_ACTOR=human wins over a mark',
      'cli',
      { CLAUDECODE: '1', DISCERN_ACTOR: 'human' },
      undefined,
      { actor: 'human' },
    ],
    ['DISCERN_ACTOR=agent in CI', 'cli', { CI: 'true', DISCERN_ACTOR: 'agent' }, undefined, { actor: 'agent' }],
    ['MCP is an agent, named by its client', 'mcp', {}, 'claude-code', { actor: 'agent', agent: 'claude-code' }],
    ['MCP without a client name', 'mcp', {}, undefined, { actor: 'agent' }],
  ];
  for (const [name, surface, env, client, expected] of cases) {
    it(name, () => assert.deepEqual(identify(surface, { ...neutral, ...env }, client), expected));
  }
});
