// [worktree] port on real repositories and real child processes: each effort's worktree gets a port of its own,
// written as PORT into its first env file and reported by start and status; two starts at once never share one; a
// port something listens on is passed over; removing the worktree frees it; park releases it and setup claims
// one again; every ensure pass writes it back.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import type { DiscernStartData, DiscernStatusData } from '../../generated/types.js';
import { PORT_RANGE } from '../../src/engine/efforts/ports.js';
import { onlyJson, runCli } from '../helpers/cli.js';
import { call } from '../helpers/drive.js';
import { cleanEnv, scratchRepo, type ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

function repo(extra = ''): ScratchRepo {
  const r = scratchRepo({
    'discern.toml': `[project]\nname = "ports"\n\n[jobs]\ntest = "true"\n\n[worktree]\nport = true\n${extra}`,
    '.gitignore': '.env\n.env.local\n',
  });
  repos.push(r);
  return r;
}

async function started(r: ScratchRepo, name: string): Promise<DiscernStartData> {
  const result = await call('start', { name }, r.root);
  assert.ok(result.ok && result.verb === 'start' && result.data && 'id' in result.data, JSON.stringify(result));
  return result.data;
}

function envPort(path: string): number | undefined {
  const line = readFileSync(join(path, '.env'), 'utf8')
    .split('\n')
    .find((l) => l.startsWith('PORT='));
  return line === undefined ? undefined : Number(line.slice('PORT='.length));
}

function listenOn(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

describe('[worktree] port', () => {
  it("gives each effort its own port: recorded, written as PORT into the worktree's .env, in start and status", async () => {
    const r = repo();
    r.write('.env', 'SECRET=abcd\nPORT=9999\nexport OTHER=1\n');
    const a = await started(r, 'one');
    const b = await started(r, 'two');
    assert.ok(a.port !== undefined && b.port !== undefined, JSON.stringify([a, b]));
    assert.notEqual(a.port, b.port);
    for (const d of [a, b]) {
      assert.ok((d.port as number) >= PORT_RANGE.first && (d.port as number) <= PORT_RANGE.last);
      // Main's PORT line is replaced in place; the other lines stay as they were.
      assert.equal(readFileSync(join(d.path, '.env'), 'utf8'), `SECRET=abcd\nPORT=${d.port}\nexport OTHER=1\n`);
      const record = JSON.parse(readFileSync(d.task.record_path, 'utf8')) as { port?: number };
      assert.equal(record.port, d.port);
      assert.equal(r.git('-C', d.path, 'status', '--porcelain').trim(), '', 'the worktree stays clean');
    }
    const here = await call('status', {}, a.path);
    assert.ok(here.ok && here.verb === 'status');
    const data = here.data as DiscernStatusData;
    assert.deepEqual(data.worktree, { id: 'one', branch: 'agent/one', port: a.port, resources: [] });
    const main = (await call('status', {}, r.root)).data as DiscernStatusData;
    assert.equal(main.worktree, null);
    const rows = new Map((main.fleet ?? []).map((row) => [row.id, row.port]));
    assert.equal(rows.get('one'), a.port);
    assert.equal(rows.get('two'), b.port);
  });

  it('two starts at once, in two processes, get two ports', async () => {
    const r = repo();
    const runs = await Promise.all(
      ['left', 'right'].map((name) => runCli(['start', name, '--json'], { cwd: r.root, env: cleanEnv() })),
    );
    const ports = runs.map((run) => {
      const result = onlyJson(run) as { ok: boolean; data?: { port?: number } };
      assert.ok(result.ok, run.stdout + run.stderr);
      return result.data?.port;
    });
    assert.ok(ports.every((p) => typeof p === 'number'));
    assert.notEqual(ports[0], ports[1]);
  });

  it('passes over a port something listens on, and frees a port once the worktree is removed', async () => {
    const r = repo();
    const first = await started(r, 'first');
    const freed = first.port as number;
    const down = await call('worktreeTeardown', { target: 'first' }, r.root, {}, 'cli');
    assert.ok(down.ok, JSON.stringify(down, null, 2));
    // Nothing holds it now: the next effort may take it again.
    const again = await started(r, 'again');
    assert.equal(again.port, freed);
    // The port is held by "again"; with another taken by a listener, a third effort gets neither.
    const next = await started(r, 'probe');
    await call('worktreeTeardown', { target: 'probe' }, r.root, {}, 'cli');
    const server = await listenOn(next.port as number);
    try {
      const third = await started(r, 'third');
      assert.ok(third.port !== again.port && third.port !== next.port, JSON.stringify(third));
    } finally {
      server.close();
    }
  });

  it('park releases the port with the worktree; setup claims one again; every ensure pass writes PORT back', async () => {
    const r = repo();
    const d = await started(r, 'parked');
    const parked = await call('worktreePark', { target: 'parked' }, r.root, {}, 'cli');
    assert.ok(parked.ok, JSON.stringify(parked, null, 2));
    const kept = JSON.parse(readFileSync(join(r.root, '.git', 'discern', 'parked', 'parked.json'), 'utf8')) as {
      port?: number;
    };
    assert.equal(kept.port, undefined, 'a parked effort holds no port');
    const back = await call('worktreeSetup', { target: 'parked' }, r.root, {}, 'cli');
    assert.ok(back.ok, JSON.stringify(back, null, 2));
    const port = envPort(d.path);
    assert.ok(port !== undefined && port >= PORT_RANGE.first, readFileSync(join(d.path, '.env'), 'utf8'));
    const status = (await call('status', {}, d.path)).data as DiscernStatusData;
    assert.equal(status.worktree?.port, port);

    writeFileSync(join(d.path, '.env'), 'PORT=1\nMINE=yes\n');
    const ensured = await call('worktreeEnsure', { target: 'parked' }, r.root, {}, 'cli');
    assert.ok(ensured.ok, JSON.stringify(ensured, null, 2));
    assert.equal(readFileSync(join(d.path, '.env'), 'utf8'), `PORT=${port}\nMINE=yes\n`);
  });

  it('off (the default), no port is allocated and no PORT written', async () => {
    const r = scratchRepo({
      'discern.toml': '[project]\nname = "p"\n\n[jobs]\ntest = "true"\n',
      '.gitignore': '.env\n',
    });
    repos.push(r);
    r.write('.env', 'A=1\n');
    const d = await started(r, 'plain');
    assert.equal(d.port, undefined);
    assert.equal(readFileSync(join(d.path, '.env'), 'utf8'), 'A=1\n');
  });
});
