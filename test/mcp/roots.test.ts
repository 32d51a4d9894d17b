// MCP roots with the SDK's own client and a real `discern mcp` started outside any checkout, as VS Code starts
// it: one checkout among the roots is the aim of calls without `path`; several answer `ambiguous` naming them
// until `path` chooses; roots/list_changed is followed; a call with `path` goes where it says (roots are not a
// sandbox); a server started inside a checkout keeps it whatever the roots say.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { connectStdio, type Connected } from '../helpers/mcp-client.js';
import { MINIMAL_CONFIG, scratchRepo, tempDir, type ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
const clients: Connected[] = [];
after(async () => {
  await Promise.all(clients.map((c) => c.client.close()));
  repos.forEach((r) => r.cleanup());
});

function project(): ScratchRepo {
  const r = scratchRepo({ 'discern.toml': MINIMAL_CONFIG });
  repos.push(r);
  return r;
}

const uri = (path: string): string => pathToFileURL(path).href;

async function connect(cwd: string, roots: () => { uri: string; name?: string }[]): Promise<Connected> {
  const c = await connectStdio(cwd, {}, { roots });
  clients.push(c);
  return c;
}

async function status(c: Connected, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const result = (await c.client.callTool({ name: 'discern_status', arguments: args })) as {
    structuredContent: Record<string, unknown>;
  };
  return result.structuredContent;
}

function rootOf(envelope: Record<string, unknown>): unknown {
  return (envelope['data'] as { root?: string } | undefined)?.root;
}

describe('MCP roots', () => {
  it('started outside a checkout, aims at the one checkout the roots hold (a folder inside it too)', async () => {
    const r = project();
    mkdirSync(join(r.root, 'src'));
    const outside = tempDir('discern-roots-');
    const c = await connect(outside, () => [
      { uri: uri(join(r.root, 'src')), name: 'src' },
      { uri: uri(outside), name: 'not a checkout' },
    ]);
    const answer = await status(c);
    assert.equal(answer['ok'], true, JSON.stringify(answer));
    assert.equal(rootOf(answer), r.root);
  });

  it('several checkouts: ambiguous naming them until path chooses; list_changed narrows it', async () => {
    const a = project();
    const b = project();
    let roots = [{ uri: uri(a.root) }, { uri: uri(b.root) }];
    const c = await connect(tempDir('discern-roots-'), () => roots);
    const refused = await status(c);
    assert.equal(refused['error'], 'ambiguous', JSON.stringify(refused));
    assert.match(String(refused['message']), new RegExp(`2 git checkouts: ${a.root}, ${b.root}\\. Pass \`path\``));
    const chosen = await status(c, { path: b.root });
    assert.equal(rootOf(chosen), b.root);
    // A path outside the roots is served too: roots choose the aim, they are not a sandbox.
    const elsewhere = project();
    assert.equal(rootOf(await status(c, { path: elsewhere.root })), elsewhere.root);

    roots = [{ uri: uri(b.root) }];
    await c.client.sendRootsListChanged();
    // The server asks again for the roots; calls wait for that answer before they run.
    let answer = await status(c);
    for (let tries = 0; answer['error'] === 'ambiguous' && tries < 50; tries++) {
      await new Promise((done) => setTimeout(done, 20));
      answer = await status(c);
    }
    assert.equal(rootOf(answer), b.root, JSON.stringify(answer));
  });

  it('started inside a checkout, keeps it whatever the roots say', async () => {
    const here = project();
    const other = project();
    const c = await connect(here.root, () => [{ uri: uri(other.root) }]);
    assert.equal(rootOf(await status(c)), here.root);
  });

  it('no checkout among the roots: no_repository as before', async () => {
    const outside = tempDir('discern-roots-');
    const c = await connect(outside, () => [{ uri: uri(outside) }]);
    assert.equal((await status(c))['error'], 'no_repository');
  });
});
