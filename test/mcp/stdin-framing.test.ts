// `discern mcp` answers every line it is sent, over a real pipe to the built server: JSON-RPC 2.0's errors for a
// line that is not JSON (-32700) or not a message (-32600: no `jsonrpc`, an `id` of null, a batch), a line over
// the length limit dropped with an error and a line on stderr; and after each the server is still there,
// answering the next request.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { PassThrough, Writable } from 'node:stream';
import fc from 'fast-check';
import { framedStdin, MAX_LINE_BYTES } from '../../src/surfaces/mcp/stdin-framing.js';
import { rawServer, type RawServer } from '../helpers/raw-mcp.js';
import { scratchRepo, type ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

async function stillAnswers(server: RawServer, id: number): Promise<void> {
  server.send(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' }));
  const reply = await server.response(id);
  assert.ok('result' in reply, JSON.stringify(reply));
}

async function anonymousError(server: RawServer, count: number): Promise<Record<string, unknown>> {
  for (let i = 0; i < 200 && server.anonymous().length < count; i++) await new Promise((r) => setTimeout(r, 25));
  const reply = server.anonymous()[count - 1];
  assert.ok(reply, `an error reply with id null (have ${server.anonymous().length})`);
  return reply;
}

describe('discern mcp frames its input', () => {
  it('answers malformed JSON, a missing jsonrpc, an id of null and a batch, and goes on', async () => {
    const r = scratchRepo({ 'discern.toml': '[project]\nname = "framing"\n' });
    repos.push(r);
    const server = await rawServer(r.root);
    try {
      server.send('{"jsonrpc": "2.0", "id": 5, "method": ');
      assert.equal(((await anonymousError(server, 1))['error'] as { code: number }).code, -32700);
      server.send(JSON.stringify({ id: 6, method: 'tools/list' }));
      const missing = await server.response(6);
      assert.equal((missing['error'] as { code: number }).code, -32600);
      server.send(JSON.stringify({ jsonrpc: '2.0', id: null, method: 'tools/list' }));
      assert.equal(((await anonymousError(server, 2))['error'] as { code: number }).code, -32600);
      server.send(JSON.stringify([{ jsonrpc: '2.0', id: 7, method: 'tools/list' }]));
      assert.equal(((await anonymousError(server, 3))['error'] as { code: number }).code, -32600);
      await stillAnswers(server, 8);
      assert.equal(server.child.exitCode, null);
    } finally {
      await server.close();
    }
  });

  it('drops a line over the limit with an error and a line on stderr, answers the call in flight, and goes on', async () => {
    const r = scratchRepo({ 'discern.toml': '[project]\nname = "framing"\n' });
    repos.push(r);
    const server = await rawServer(r.root);
    try {
      // A call in flight while the long line streams in.
      server.send(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 11,
          method: 'tools/call',
          params: { name: 'discern_status', arguments: {} },
        }),
      );
      const huge = `{"jsonrpc":"2.0","id":12,"method":"tools/list","params":{"pad":"${'x'.repeat(MAX_LINE_BYTES + 1024)}"}}`;
      server.send(huge);
      const dropped = await anonymousError(server, 1);
      assert.equal((dropped['error'] as { code: number }).code, -32600);
      assert.match(server.stderr(), /longer than \d+ bytes was dropped/);
      const status = await server.response(11);
      assert.ok('result' in status, JSON.stringify(status).slice(0, 300));
      await stillAnswers(server, 13);
      assert.equal(server.child.exitCode, null);
    } finally {
      await server.close();
    }
  });
});

describe('the line framer', () => {
  it('frames the same lines and errors whatever the chunking', async () => {
    const lines = [
      '{"jsonrpc":"2.0","id":1,"method":"a"}',
      'x'.repeat(150),
      '{"jsonrpc":"2.0","method":"n"}',
      'not json',
      '{"jsonrpc":"2.0","id":2,"result":{}}',
    ];
    const input = Buffer.from(`${lines.join('\n')}\r\n`);
    const run = async (cuts: number[]): Promise<string> => {
      const stdin = new PassThrough();
      const replies: string[] = [];
      const sink = (into: string[]): Writable =>
        new Writable({
          write(chunk: Buffer, _e, done) {
            into.push(chunk.toString());
            done();
          },
        });
      const forwarded: string[] = [];
      const out = framedStdin({ stdin, stdout: sink(replies), stderr: sink([]), maxLineBytes: 100 });
      out.on('data', (c: Buffer) => forwarded.push(c.toString()));
      let at = 0;
      for (const cut of [...cuts.filter((c) => c > 0 && c < input.length)].sort((a, b) => a - b)) {
        stdin.write(input.subarray(at, cut));
        at = cut;
      }
      stdin.end(input.subarray(at));
      await new Promise((resolve) => out.once('end', resolve));
      return JSON.stringify({ forwarded: forwarded.join(''), replies: replies.join('') });
    };
    const whole = await run([]);
    const seen = JSON.parse(whole) as { forwarded: string; replies: string };
    assert.equal(
      seen.forwarded,
      '{"jsonrpc":"2.0","id":1,"method":"a"}\n{"jsonrpc":"2.0","method":"n"}\n{"jsonrpc":"2.0","id":2,"result":{}}\n',
    );
    assert.match(seen.replies, /-32600.*longer than 100 bytes[^\n]*\n.*-32700/s);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(input.length), { maxLength: 12 }), async (cuts) => {
        assert.equal(await run(cuts), whole);
      }),
      { seed: 20261202, numRuns: 100 },
    );
  });
});
