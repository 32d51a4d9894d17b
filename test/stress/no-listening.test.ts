// Nothing of discern's listens on a network (docs/decisions/0039-confinement-and-redaction.md): the MCP server
// through a session of calls (a gate among them), a CLI gate while its job runs, and the desk-less CLI verbs are
// sampled for sockets — /proc/<pid>/fd links matched against the listening entries of /proc/net/{tcp,tcp6,udp,
// udp6,unix}. The bundle is checked statically as well: no server module, no listen call.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DISCERN_BIN, REPO_ROOT } from '../helpers/cli.js';
import { connectStdio, type Connected } from '../helpers/mcp-client.js';
import { cleanEnv, scratchRepo, type ScratchRepo } from '../helpers/scratch-repo.js';

const onLinux = existsSync('/proc/net/tcp');

/** Inodes of listening sockets: TCP in state 0A (LISTEN), any bound UDP socket, unix sockets accepting connections. */
function listeningInodes(): Map<string, string> {
  const found = new Map<string, string>();
  for (const table of ['tcp', 'tcp6', 'udp', 'udp6']) {
    const path = `/proc/net/${table}`;
    if (!existsSync(path)) continue;
    for (const line of readFileSync(path, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10) continue;
      const [local, state, inode] = [cols[1] ?? '', cols[3] ?? '', cols[9] ?? ''];
      if (table.startsWith('tcp') ? state === '0A' : true) found.set(inode, `${table} ${local}`);
    }
  }
  if (existsSync('/proc/net/unix')) {
    for (const line of readFileSync('/proc/net/unix', 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // Flags 00010000: __SO_ACCEPTCON, a socket that listen() was called on.
      if (cols.length >= 7 && cols[3] === '00010000') found.set(cols[6] ?? '', `unix ${cols[7] ?? ''}`);
    }
  }
  return found;
}

function socketInodes(pid: number): string[] {
  try {
    return readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
      try {
        const link = readlinkSync(`/proc/${pid}/fd/${fd}`);
        const m = /^socket:\[(\d+)\]$/.exec(link);
        return m ? [m[1] as string] : [];
      } catch {
        return [];
      }
    });
  } catch {
    return []; // the process is gone
  }
}

/** What `pid` listens on right now (empty when nothing, or when it has exited). */
function listeningOf(pid: number): string[] {
  const listening = listeningInodes();
  return socketInodes(pid).flatMap((inode) => (listening.has(inode) ? [listening.get(inode) as string] : []));
}

const CONFIG = `[project]
name = "Quiet"

[repository]
trunk = "main"

[jobs]
test = "sleep 1"
`;

let repo: ScratchRepo;
let samples = 0;
before(() => {
  repo = scratchRepo({ 'discern.toml': CONFIG, 'discern/map/10-guide/start.md': '---\ntitle: Start\n---\n# Start\n' });
});

describe('no listening sockets', { skip: onLinux ? false : 'needs /proc' }, () => {
  let mcp: Connected;
  after(async () => {
    await mcp?.client.close();
  });

  it('the probe sees a listener when there is one (a control: a node process listening on TCP)', async () => {
    const child = spawn(
      process.execPath,
      ['-e', "require('net').createServer().listen(0, '127.0.0.1', () => console.log('up'))"],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    try {
      assert.match(listeningOf(child.pid as number).join(), /^tcp /);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('the MCP server, through reads, resources and a gate', async () => {
    mcp = await connectStdio(repo.root);
    const pid = mcp.transport.pid;
    assert.ok(pid !== null && pid !== undefined, 'the server has a pid');
    const check = (what: string): void => {
      samples++;
      assert.deepEqual(listeningOf(pid), [], `discern mcp listens after ${what}`);
    };
    check('start');
    for (const [name, args] of [
      ['discern_status', {}],
      ['discern_doctor', {}],
      ['discern_map', {}],
      ['discern_docs', { search: 'gate' }],
      ['discern_impact', {}],
      ['discern_coupling', {}],
    ] as const) {
      await mcp.client.callTool({ name, arguments: args });
      check(name);
    }
    await mcp.client.readResource({ uri: 'discern://status' });
    check('a resource read');
    // A gate: sampled while its job sleeps, and after.
    const gate = mcp.client.callTool({ name: 'discern_test', arguments: {} });
    for (let i = 0; i < 5; i++) {
      await new Promise((r) => setTimeout(r, 150));
      check('the gate, running');
    }
    await gate;
    check('the gate');
  });

  it('a CLI gate while its job runs, and the desk-less CLI verbs while they run', async () => {
    const runs: string[][] = [
      ['done', '--json'],
      ['status', '--json'],
      ['doctor', '--json'],
      ['map', '--json'],
      ['docs', 'gate', '--json'],
      ['impact', '--json'],
      ['coupling', '--json'],
      ['patterns', '--json'],
      ['improvement', '--json'],
      ['progress', '--json'],
      ['checkpoints', '--json'],
      ['test', '--json'],
    ];
    for (const args of runs) {
      const child = spawn(process.execPath, [DISCERN_BIN, ...args], {
        cwd: repo.root,
        env: cleanEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout.resume();
      child.stderr.resume();
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      let done = false;
      void exited.then(() => (done = true));
      // Sampled as often as the machine allows until it exits: short verbs get a few looks, gates many.
      while (!done) {
        samples++;
        assert.deepEqual(listeningOf(child.pid as number), [], `discern ${args.join(' ')} listens`);
        await new Promise((r) => setTimeout(r, 5));
      }
    }
  });
});

describe('the bundle', () => {
  it('loads no server module and calls no listen: dist/ has no createServer, listen(, createSocket or net/http/dgram/tls import', () => {
    const dist = join(REPO_ROOT, 'dist');
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        if (e.isDirectory()) walk(join(dir, e.name));
        else if (e.name.endsWith('.js')) files.push(join(dir, e.name));
      }
    };
    walk(dist);
    assert.ok(files.length > 0, 'dist/ is built');
    const forbidden = [
      /\bcreateServer\s*\(/,
      /\.listen\s*\(/,
      /\bcreateSocket\s*\(/,
      /(?:from\s*|import\s*\(\s*|require\s*\(\s*)["'](?:node:)?(?:net|http|https|http2|dgram|tls)["']/,
    ];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const pattern of forbidden)
        assert.ok(!pattern.test(text), `${file.slice(dist.length + 1)} matches ${pattern}`);
    }
    console.log(`bundle files checked: ${files.length}; socket samples taken: ${samples}`);
  });
});
