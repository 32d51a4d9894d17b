// Hostile input over MCP, property-based (docs/decisions/0035): every tool in tools/list gets 200 generated
// calls at full size (30 in a bounded run, test/helpers/test-size.ts) — valid arguments derived from its published inputSchema and deliberately invalid ones
// (wrong types, 100 KB+ strings, 5,000-level nesting, undeclared keys, traversing and option-looking paths,
// NUL bytes, Unicode oddities, non-object arguments) — against the built server in a real scratch project,
// and more against a second server over a broken project (malformed discern.toml, invalid UTF-8 in files,
// names and map pages). Each answer must be a classified, schema-valid envelope (or the protocol's
// invalid-params error for non-object arguments); the servers stay up and print no stack trace; nothing
// outside the projects changes. The seed is printed; DISCERN_FUZZ_SEED replays a run, DISCERN_FUZZ_RUNS
// sets its size.
import { describe, it, before, after } from 'node:test';
import { execFileSync } from 'node:child_process';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MCP_TOOLS } from '../../generated/mcp-table.js';
import { connectStdio, type Connected } from '../helpers/mcp-client.js';
import {
  fingerprint,
  hostileScene,
  listing,
  seedEfforts,
  HOSTILE_CONFIG,
  INVALID_UTF8,
  SENTINEL_SECRET,
  type HostileScene,
} from '../helpers/hostile-project.js';
import { hostileCases, hostilePaths, describeArgs, type HostileCase } from '../helpers/hostile-values.js';
import { checkCase, STACK_LINE, toolUnderTest, type ToolUnderTest } from '../helpers/hostile-check.js';
import { processAlive } from '../helpers/processes.js';
import { rawServer, toolsCallLine } from '../helpers/raw-mcp.js';
import { readPublished, resultValidator } from '../helpers/published-schema.js';
import { sized } from '../helpers/test-size.js';

const SEED = Number(process.env['DISCERN_FUZZ_SEED'] ?? 350_035);
/** Cases per tool: 50 bounded, 200 full (test/helpers/test-size.ts). */
const RUNS = sized('DISCERN_FUZZ_RUNS', { bounded: 12, full: 200 });
const BROKEN_RUNS = Math.max(10, Math.round(RUNS / 10));
/** DISCERN_FUZZ_TRACE=1 prints every case with its answer. */
const TRACE = process.env['DISCERN_FUZZ_TRACE'] === '1';
/** A gate here runs `true`: anything slower than this is a hang, not work. */
const CALL_TIMEOUT_MS = 30_000;

let scene: HostileScene;
let good: Connected;
let broken: Connected;
let outsideBefore: string;
const SKIP = new Set(['project', 'project.worktrees', 'broken', 'broken.worktrees']);

before(async () => {
  scene = hostileScene();
  const env = { HOME: scene.home, TMPDIR: scene.tmp, GIT_CONFIG_NOSYSTEM: '1' };
  await seedEfforts(scene, env);
  outsideBefore = fingerprint(scene.parent, SKIP);
  good = await connectStdio(scene.project, env);
  broken = await connectStdio(scene.broken, env);
});
after(async () => {
  await good?.client.close();
  await broken?.client.close();
});

function inputSchemaOf(tool: string): Record<string, unknown> {
  const published = readPublished('discern-mcp-tools.json') as {
    tools: { name: string; inputSchema: Record<string, unknown> }[];
  };
  const found = published.tools.find((t) => t.name === tool);
  if (!found) throw new Error(`no published tool ${tool}`);
  return found.inputSchema;
}

/** Per tool: values that reach real code paths (efforts that exist, pages that exist, ids the config declares). */
function pools(s: HostileScene, tool: string): Record<string, readonly unknown[]> {
  const efforts = ['fuzz-a', 'fuzz-b'];
  const path = [
    s.project,
    s.project,
    `${s.project}/src`,
    `${s.project}/api/v1.txt`,
    s.broken,
    ...efforts.map((e) => `${s.project}.worktrees/${e}`),
    s.sentinel,
    s.home,
    '/',
    '/etc',
    `${s.project}/nope`,
  ];
  const common = {
    path,
    name: [...efforts, 'x.y', 'main', 'HEAD'],
    from: ['main', 'HEAD', 'HEAD~1', 'agent/fuzz-a', '0000000'],
    met: [['api-review'], ['nope']],
    unmet: [[{ id: 'api-review', why: 'not yet' }]],
  };
  const targets = [
    ...efforts,
    'agent/fuzz-a',
    'refs/heads/agent/fuzz-b',
    ...efforts.map((e) => `${s.project}.worktrees/${e}`),
  ];
  const byTool: Record<string, Record<string, readonly unknown[]>> = {
    discern_accept: { ...common, target: targets, action: ['queue', 'emergency'] },
    discern_await: { ...common, green: targets, landed: targets, resume: ['C1-0000-0000-00'] },
    discern_map: {
      ...common,
      target: ['guide/start', 'guide', 'start', 'leak', 'guide/leak', 'bad', 'nope'],
      search: ['start', 'project page', '*', '"'],
    },
    discern_docs: {
      target: ['exit-codes', 'reference/exit-codes', 'guides', 'reference', 'nope'],
      search: ['connect an agent', 'exit', '*'],
    },
    discern_progress: { ...common, handle: ['R1-0000-0000-00', 'C1-0000-0000-00', 'R1-'] },
    discern_standards: { ...common, names: [['cov'], ['nope']], proposals: [[{ name: 'cov', reason: 'why' }]] },
    discern_coupling: {
      ...common,
      file: [['api/v1.txt'], ['discern.toml', 'README.md'], [`${s.project}/src/a.txt`], ['escape/secret.txt']],
      with: ['README.md', 'api/v1.txt'],
    },
    discern_improvement: { ...common, category: ['gate', 'map', 'skills', 'nope'] },
    discern_patterns: { ...common, logbook_file: ['missing', 'logbook', 'a.jsonl'] },
    discern_validate_config: {
      ...common,
      toml: [
        HOSTILE_CONFIG,
        '',
        '[[[',
        'a = 1\na = 2\n',
        '\ufeff[project]\nname = "x"\n',
        INVALID_UTF8.toString('latin1'),
      ],
      file: [
        'discern.toml',
        `${s.project}/discern.toml`,
        `${s.broken}/discern.toml`,
        'README.md',
        'escape/secret.txt',
        'nope.toml',
      ],
    },
  };
  return byTool[tool] ?? common;
}

/**
 * await waits up to its budget for a condition: keep valid calls to a glance so a wait is not a hang.
 */
function tameFor(tool: string): ((args: Record<string, unknown>) => Record<string, unknown>) | undefined {
  if (tool === 'discern_await')
    return (args) => ({
      ...args,
      timeout: typeof args['timeout'] === 'number' && args['timeout'] <= 1 ? args['timeout'] : 0,
    });
  return undefined;
}

/**
 * start creates a worktree each time, and every status call then walks the whole fleet: a few real efforts
 * reach the same paths as dozens, so once this many starts have created one, later accepted start calls
 * preview instead (dry_run). The calls before are the same on every replay, so the switch is too.
 */
const REAL_STARTS = 2;

/** A stable per-tool seed: adding a tool does not change the cases of the others. */
function toolSeed(seed: number, tool: string): number {
  let h = seed | 0;
  for (const ch of tool) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  return h;
}

interface Tally {
  cases: number;
  ms: number;
  kinds: Map<string, number>;
  outcomes: Map<string, number>;
}

const counts = (m: Map<string, number>): string =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k}:${n}`)
    .join(' ');

async function campaign(
  server: Connected,
  label: string,
  runs: number,
  seed: number,
  t: { diagnostic(msg: string): void },
): Promise<string[]> {
  const { tools } = await server.client.listTools();
  const paths = hostilePaths(scene);
  const plan: { tool: ToolUnderTest; cases: HostileCase[] }[] = tools.map((listed) => {
    const verb = MCP_TOOLS.find((m) => m.name === listed.name)?.verb ?? '';
    const schema = listed.inputSchema as Record<string, unknown>;
    const arbitrary = hostileCases(schema, pools(scene, listed.name), paths, tameFor(listed.name));
    return {
      tool: toolUnderTest(listed.name, verb, schema),
      cases: fc.sample(arbitrary, { seed: toolSeed(seed, listed.name), numRuns: runs }),
    };
  });
  const failures: string[] = [];
  const tally = new Map<string, Tally>(
    plan.map((p) => [p.tool.name, { cases: 0, ms: 0, kinds: new Map(), outcomes: new Map() }]),
  );
  const slowest: { ms: number; what: string }[] = [];
  let realStarts = 0;
  // Round robin: each tool meets the state the others left (efforts started, gates run, refresh's files written).
  for (let i = 0; i < runs; i += 1) {
    for (const { tool, cases } of plan) {
      const generated = cases[i];
      if (generated === undefined) continue;
      const starts =
        tool.name === 'discern_start' &&
        tool.accepts(generated.args) &&
        (generated.args as Record<string, unknown>)['dry_run'] !== true;
      const c =
        starts && realStarts >= REAL_STARTS
          ? { ...generated, args: { ...(generated.args as object), dry_run: true } }
          : generated;
      const started = Date.now();
      const { problem, outcome, message } = await checkCase(server.client, tool, c, {
        timeoutMs: CALL_TIMEOUT_MS,
        secret: SENTINEL_SECRET,
      });
      if (starts && outcome === 'ok') realStarts += 1;
      const entry = tally.get(tool.name) as Tally;
      entry.cases += 1;
      const ms = Date.now() - started;
      entry.ms += ms;
      slowest.push({ ms, what: `${tool.name} case ${i} [${c.kind}] ${describeArgs(c.args).slice(0, 160)}` });
      slowest.sort((a, b) => b.ms - a.ms).splice(5);
      entry.kinds.set(c.kind, (entry.kinds.get(c.kind) ?? 0) + 1);
      entry.outcomes.set(outcome, (entry.outcomes.get(outcome) ?? 0) + 1);
      if (TRACE)
        t.diagnostic(
          `${label} ${tool.name} case ${i} [${c.kind}] ${ms} ms ${outcome}: ${message.slice(0, 160)} ← ${describeArgs(c.args).slice(0, 200)}`,
        );
      if (problem !== undefined)
        failures.push(`${label} ${tool.name} case ${i} [${c.kind}] ${describeArgs(c.args)}\n    ${problem}`);
    }
  }
  t.diagnostic(`${label}: tool | cases | ms | input families | answers`);
  for (const [name, entry] of tally)
    t.diagnostic(
      `${label}: ${name} | ${entry.cases} | ${entry.ms} | ${counts(entry.kinds)} | ${counts(entry.outcomes)}`,
    );
  for (const s of slowest) t.diagnostic(`${label}: slow ${s.ms} ms ${s.what}`);
  const worktrees = execFileSync('git', ['worktree', 'list', '--porcelain'], {
    cwd: label === 'project' ? scene.project : scene.broken,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((l) => l.startsWith('worktree ')).length;
  t.diagnostic(`${label}: ${worktrees} checkout(s) at the end`);
  assert.deepEqual(
    plan.map((p) => p.tool.name).sort(),
    MCP_TOOLS.map((m) => m.name).sort(),
    'every tool in tools/list was called',
  );
  return failures;
}

function report(failures: string[]): string {
  return `${failures.length} hostile case(s) failed (replay: DISCERN_FUZZ_SEED=${SEED} DISCERN_FUZZ_RUNS=${RUNS}):\n${failures.slice(0, 25).join('\n')}`;
}

describe(`hostile input over MCP (seed ${SEED}, ${RUNS} cases per tool)`, () => {
  it('prints the seed', (t) => {
    t.diagnostic(`DISCERN_FUZZ_SEED=${SEED} DISCERN_FUZZ_RUNS=${RUNS} (broken project: ${BROKEN_RUNS} per tool)`);
  });
  it(`every tool answers ${RUNS} generated calls in a sane project with a classified envelope`, async (t) => {
    const failures = await campaign(good, 'project', RUNS, SEED, t);
    assert.deepEqual(failures, [], report(failures));
  });
  it(`every tool answers ${BROKEN_RUNS} generated calls in a broken project with a classified envelope`, async (t) => {
    const failures = await campaign(broken, 'broken', BROKEN_RUNS, SEED ^ 0x5bd1e995, t);
    assert.deepEqual(failures, [], report(failures));
  });
  it('both servers are still up, answer a normal call, and printed no stack trace', async () => {
    for (const server of [good, broken]) {
      assert.ok(
        server.transport.pid !== null && server.transport.pid !== undefined && processAlive(server.transport.pid),
        'the server process is alive',
      );
      const answer = (await server.client.callTool({ name: 'discern_docs', arguments: { search: 'doctor' } })) as {
        structuredContent?: Record<string, unknown>;
      };
      assert.equal(answer.structuredContent?.['ok'], true);
      assert.doesNotMatch(server.stderr(), STACK_LINE, server.stderr().slice(0, 2000));
    }
  });
  it('no file outside the projects changed: the parent, the sentinel, HOME and TMPDIR are as they were', () => {
    const after = fingerprint(scene.parent, SKIP);
    assert.equal(after, outsideBefore, listing(scene.parent, SKIP).join('\n'));
  });
});

describe('regressions the generated runs found', () => {
  it("an undeclared `__proto__` key is refused by name, not dropped by the SDK's parse and run without it", async () => {
    // JSON.parse makes `__proto__` an own key, as it is on the wire.
    const args = JSON.parse('{"name":"proto-probe","__proto__":{"dry_run":true}}') as Record<string, unknown>;
    const answer = (await good.client.request({
      method: 'tools/call',
      params: { name: 'discern_start', arguments: args },
    })) as { structuredContent?: Record<string, unknown> };
    assert.equal(answer.structuredContent?.['error'], 'invalid_arguments', JSON.stringify(answer.structuredContent));
    assert.match(String(answer.structuredContent?.['message']), /`__proto__` is not an accepted key/);
  });
  // A NUL byte in a ref or name reached spawn('git', …), which throws: internal_error instead of an answer.
  const nul: [string, Record<string, unknown>][] = [
    ['discern_start', { from: 'main\u0000main', dry_run: true }],
    ['discern_update', { from: 'main\u0000', dry_run: true }],
    ['discern_done', { ci: true, standalone: true, policy_base: 'main\u0000x', dry_run: true }],
    ['discern_accept', { target: 'fuzz-b\u0000', dry_run: true }],
    ['discern_await', { green: 'agent/fuzz-b\u0000', timeout: 0 }],
    ['discern_coupling', { file: ['README.md'], with: 'api/v1.txt\u0000' }],
    ['discern_coupling', { file: ['a\u0000b'] }],
    ['discern_map', { target: 'guide\u0000/start' }],
    ['discern_progress', { handle: 'R1-0000\u0000' }],
  ];
  for (const [tool, args] of nul) {
    it(`${tool} ${describeArgs(args)} answers with a classified envelope`, async () => {
      const verb = MCP_TOOLS.find((m) => m.name === tool)?.verb ?? '';
      const verdict = await checkCase(
        good.client,
        toolUnderTest(tool, verb, inputSchemaOf(tool)),
        { kind: 'nul', args },
        { timeoutMs: CALL_TIMEOUT_MS, secret: SENTINEL_SECRET },
      );
      assert.equal(verdict.problem, undefined, `${verdict.outcome}: ${verdict.message}`);
    });
  }
});

describe('what the SDK client cannot send, written to the server line by line', () => {
  const deep = (n: number, open: string, close: string): string => `${open.repeat(n)}1${close.repeat(n)}`;
  const calls: [string, string, string][] = [
    ['5,000 nested arrays in a declared key', 'discern_status', `{"all":${deep(5000, '[', ']')}}`],
    ['5,000 nested objects in an undeclared key', 'discern_docs', `{"deep":${deep(5000, '{"a":', '}')}}`],
    ['100,000 nested arrays in path', 'discern_doctor', `{"path":${deep(100_000, '[', ']')}}`],
    ['100,000 nested objects in a list of checkpoint ids', 'discern_done', `{"met":[${deep(100_000, '{"a":', '}')}]}`],
  ];
  it('answers each with an invalid_arguments envelope, survives lines that are not JSON or not UTF-8, and stays up', async () => {
    const server = await rawServer(scene.project, { HOME: scene.home, TMPDIR: scene.tmp, GIT_CONFIG_NOSYSTEM: '1' });
    try {
      let id = 1;
      for (const [what, tool, args] of calls) {
        server.send(toolsCallLine(id, tool, args));
        const answer = await server.response(id);
        const result = answer['result'] as
          { structuredContent?: Record<string, unknown>; isError?: boolean } | undefined;
        assert.equal(
          result?.structuredContent?.['error'],
          'invalid_arguments',
          `${what}: ${JSON.stringify(answer).slice(0, 400)}`,
        );
        const verb = MCP_TOOLS.find((m) => m.name === tool)?.verb ?? '';
        const validate = resultValidator(`Discern${verb.charAt(0).toUpperCase()}${verb.slice(1)}McpToolResult`);
        assert.ok(validate(result?.structuredContent), `${what}: ${JSON.stringify(validate.errors)}`);
        assert.equal(result?.isError, true);
        id += 1;
      }
      // A tool that does not exist, or a name that is not a string: the protocol's invalid-params error. No
      // arguments at all: the tool's answer to {}.
      for (const params of [
        '{"name":"discern_nope","arguments":{}}',
        '{"name":5}',
        '{"name":["discern_docs"],"arguments":{}}',
      ]) {
        server.send(`{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":${params}}`);
        assert.equal((((await server.response(id))['error'] ?? {}) as { code?: number }).code, -32602, params);
        id += 1;
      }
      server.send(`{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"discern_docs"}}`);
      assert.equal(
        ((await server.response(id))['result'] as { structuredContent?: Record<string, unknown> }).structuredContent?.[
          'ok'
        ],
        true,
      );
      id += 1;
      // Not JSON, a truncated message, and a request whose text is not UTF-8: none may end the server.
      server.send('this is not json');
      server.send('{"jsonrpc":"2.0","id":77,"method":"tools/call","params":{"name":"discern_docs","argu');
      const head = `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"discern_docs","arguments":{"search":"`;
      server.send(Buffer.concat([Buffer.from(head), Buffer.from([0xff, 0xc0, 0xaf]), Buffer.from('"}}}')]));
      const odd = await server.response(id);
      assert.ok(odd['result'] !== undefined || odd['error'] !== undefined, JSON.stringify(odd));
      id += 1;
      server.send(toolsCallLine(id, 'discern_docs', '{"search":"doctor"}'));
      const normal = await server.response(id);
      assert.equal(
        (normal['result'] as { structuredContent?: Record<string, unknown> }).structuredContent?.['ok'],
        true,
      );
      assert.ok(processAlive(server.child.pid ?? -1));
      assert.doesNotMatch(server.stderr(), STACK_LINE, server.stderr().slice(0, 2000));
    } finally {
      await server.close();
    }
  });
});
