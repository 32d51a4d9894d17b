// The protocol's rules that the SDK alone does not keep, each checked over a real pipe to the built server with
// raw JSON-RPC, and each citing the revision that states it.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { notFoundCode, withRevisionCodes } from '../../src/surfaces/mcp/not-found-code.js';
import { rawServer, type RawServer } from '../helpers/raw-mcp.js';
import { readPidFile } from '../helpers/processes.js';
import { until } from '../helpers/until.js';
import { scratchRepo, type ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

function repo(files: Record<string, string> = {}): ScratchRepo {
  const r = scratchRepo({ 'discern.toml': '[project]\nname = "letter"\n', ...files });
  repos.push(r);
  return r;
}

let nextId = 100;
async function ask(server: RawServer, method: string, params?: unknown): Promise<Record<string, unknown>> {
  const id = nextId++;
  server.send(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }));
  return server.response(id);
}

function errorOf(reply: Record<string, unknown>): { code: number; message: string; data?: unknown } {
  assert.ok('error' in reply, JSON.stringify(reply));
  return reply['error'] as { code: number; message: string; data?: unknown };
}

describe('invalid params are -32602 (JSON-RPC 2.0 §5.1; MCP 2025-11-25 basic, pagination)', () => {
  it('resources/read without a uri, prompts/get without a name or with a non-string argument, and any cursor', async () => {
    const server = await rawServer(repo().root);
    try {
      const cases: [string, unknown, RegExp][] = [
        ['resources/read', {}, /resources\/read needs `uri`/],
        ['resources/read', { uri: 5 }, /resources\/read needs `uri`/],
        ['prompts/get', {}, /prompts\/get needs `name`/],
        ['prompts/get', { name: 'land_change', arguments: { path: 5 } }, /argument `path` is a string/],
        ['tools/list', { cursor: 'x' }, /cursor discern did not issue/],
        ['resources/list', { cursor: 7 }, /cursor is a string/],
        ['resources/templates/list', { cursor: 'x' }, /cursor discern did not issue/],
        ['prompts/list', { cursor: 'x' }, /cursor discern did not issue/],
        ['tools/list', [1], /takes an object as params/],
      ];
      for (const [method, params, message] of cases) {
        const error = errorOf(await ask(server, method, params));
        assert.equal(error.code, -32602, `${method} ${JSON.stringify(params)}: ${error.message}`);
        assert.match(error.message, message);
        assert.doesNotMatch(error.message, /invalid_type|expected/, 'one sentence, not a validator dump');
      }
      // The server goes on; a list without a cursor is whole.
      const tools = (await ask(server, 'tools/list', {}))['result'] as { tools: unknown[]; nextCursor?: string };
      assert.ok(tools.tools.length > 0);
      assert.equal(tools.nextCursor, undefined);
    } finally {
      await server.close();
    }
  });
});

describe('batches (MCP 2025-03-26 basic/transports; removed in 2025-06-18)', () => {
  it('2025-03-26: a batch gets -32600 all the same, one message per line goes on (ADR 0058)', async () => {
    const server = await rawServer(repo().root, {}, { protocolVersion: '2025-03-26' });
    try {
      const negotiated = (await server.response(0))['result'] as { protocolVersion: string };
      assert.equal(negotiated.protocolVersion, '2025-03-26');
      server.send(JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'ping' }]));
      const reply = await until('the batch refused', () => server.anonymous()[0]);
      assert.equal((reply['error'] as { code: number; message: string }).code, -32600);
      assert.match((reply['error'] as { message: string }).message, /one message per line/);
      assert.ok('result' in (await ask(server, 'ping')));
    } finally {
      await server.close();
    }
  });
});

describe('resource not found has the code of the negotiated revision', () => {
  for (const [revision, code] of [
    ['2025-06-18', -32002],
    ['2025-11-25', -32002],
  ] as const)
    it(`${revision}: ${code} (its server/resources, error handling), with the uri as data`, async () => {
      const server = await rawServer(repo().root, {}, { protocolVersion: revision });
      try {
        const error = errorOf(await ask(server, 'resources/read', { uri: 'discern://schema/nope' }));
        assert.equal(error.code, code);
        assert.deepEqual(error.data, { uri: 'discern://schema/nope' });
        // A URI that is not one stays invalid params: that is not "not found".
        assert.equal(errorOf(await ask(server, 'resources/read', { uri: 'not a uri' })).code, -32602);
      } finally {
        await server.close();
      }
    });
});

describe('resource not found on 2026-07-28 (its server/resources: -32602, SEP-2164)', () => {
  it('keeps -32602 from that revision on, and turns only a not-found into -32002 before it', () => {
    const notFound = {
      jsonrpc: '2.0' as const,
      id: 1,
      error: { code: -32602, message: 'nope', data: { uri: 'discern://x' } },
    };
    assert.equal(notFoundCode('2026-07-28'), -32602);
    assert.equal(notFoundCode(undefined), -32002);
    assert.equal(withRevisionCodes(notFound, '2026-07-28'), notFound);
    assert.deepEqual(withRevisionCodes(notFound, '2025-11-25'), {
      ...notFound,
      error: { ...notFound.error, code: -32002 },
    });
    const invalid = { ...notFound, error: { ...notFound.error, data: { uri: 'x', reason: 'invalid_uri' } } };
    assert.equal(withRevisionCodes(invalid, '2025-11-25'), invalid, 'an invalid URI stays invalid params');
  });
});

describe('list_changed is advertised only where discern sends it (MCP 2025-11-25 server/tools, server/resources)', () => {
  it('tools and prompts never change; the resource list does, and says so after the call that finds it changed', async () => {
    const r = repo({ 'discern/map/10-start.md': '# Start here\n\nThe project in one page.\n' });
    const server = await rawServer(r.root);
    try {
      // The initialize answer rawServer waited for.
      const capabilities = ((await server.response(0))['result'] as { capabilities: Record<string, unknown> })
        .capabilities;
      assert.deepEqual(capabilities['tools'], { listChanged: false });
      assert.deepEqual(capabilities['resources'], { listChanged: true });
      assert.deepEqual(capabilities['prompts'], { listChanged: false });

      const changed = (): number =>
        server.notifications().filter((n) => n['method'] === 'notifications/resources/list_changed').length;
      const call = (name: string): Promise<Record<string, unknown>> =>
        ask(server, 'tools/call', { name, arguments: {} });
      await call('discern_status');
      await call('discern_progress');
      r.write('discern/map/20-build.md', '# Build\n\nHow the project builds.\n');
      await call('discern_status');
      await until('list_changed after the map gained a page', () => (changed() === 1 ? true : undefined));
      const listed = (await ask(server, 'resources/list'))['result'] as { resources: { uri: string }[] };
      const uris = listed.resources.map((x) => x.uri).filter((u) => u.startsWith('discern://map/'));
      assert.deepEqual(uris, ['discern://map/start', 'discern://map/build']);
      // Calls that find the list as it was send nothing; the next change is told once.
      await call('discern_progress');
      await call('discern_status');
      r.write('discern/map/20-build.md', '---\ntitle: Building\n---\n# Build\n\nHow the project builds.\n');
      await call('discern_status');
      await until('list_changed after a page was retitled', () => (changed() >= 2 ? true : undefined));
      assert.equal(changed(), 2);
    } finally {
      await server.close();
    }
  });
});

describe('no progress for a request that is no longer active (MCP 2025-11-25 basic/utilities/progress, cancellation)', () => {
  it('after notifications/cancelled, nothing more for its token', async () => {
    const r = repo();
    r.write('discern.toml', '[project]\nname = "letter"\n\n[jobs]\ntest = "sleep 60 & echo $! > sleeper.pid; wait"\n');
    r.write('.gitignore', '*.pid\n');
    r.commit('a slow job');
    const server = await rawServer(r.root);
    try {
      const id = nextId++;
      server.send(
        JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'discern_test', arguments: {}, _meta: { progressToken: 'slow' } },
        }),
      );
      const progress = (): number =>
        server
          .notifications()
          .filter(
            (n) =>
              n['method'] === 'notifications/progress' &&
              (n['params'] as { progressToken?: unknown }).progressToken === 'slow',
          ).length;
      await until('the job to start', () => readPidFile(join(r.root, 'sleeper.pid')));
      await until('progress for the running job', () => (progress() > 0 ? true : undefined));
      // Let any notification already under way arrive, then cancel.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const before = progress();
      server.send(
        JSON.stringify({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: id, reason: 'test' },
        }),
      );
      await until('the run to record its cancellation', () => (cancelledRecorded(r.root) ? true : undefined));
      // A later request's answer comes after anything the cancelled call could still have sent.
      await ask(server, 'tools/list', {});
      assert.equal(progress(), before, JSON.stringify(server.notifications().slice(-3)));
    } finally {
      await server.close();
    }
  });
});

function cancelledRecorded(root: string): boolean {
  const dir = join(root, '.git', 'discern', 'operations');
  if (!existsSync(dir)) return false;
  return readdirSync(dir)
    .filter((n) => n.endsWith('.json') && !n.endsWith('.result.json') && !n.startsWith('.'))
    .some((n) => (JSON.parse(readFileSync(join(dir, n), 'utf8')) as { outcome?: string }).outcome === 'cancelled');
}
