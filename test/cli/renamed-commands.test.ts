// Former command names (seed ADR 0120: finish → done, graduate → accept, ratchets → standards, scopes → impact)
// answer renamed_command naming the command each became, wherever a command name is read: the command line, its
// help, and the help verb; over MCP the former tool names are refused with -32602 naming the tool. None of them
// runs the new command.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CLI_GRAMMAR } from '../../generated/cli-grammar.js';
import { onlyJson, runCli } from '../helpers/cli.js';
import { rawServer } from '../helpers/raw-mcp.js';
import { scratchRepo, type ScratchRepo } from '../helpers/scratch-repo.js';

const RENAMES: [string, string][] = [
  ['finish', 'done'],
  ['graduate', 'accept'],
  ['ratchets', 'standards'],
  ['scopes', 'impact'],
];
const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

describe('renamed commands', () => {
  it('the published grammar lists each former name with the command it became', () => {
    assert.deepEqual(
      CLI_GRAMMAR.renamed.map((r) => [r.from.join(' '), r.to.join(' ')]),
      RENAMES,
    );
  });

  for (const [from, to] of RENAMES)
    it(`discern ${from} answers renamed_command naming discern ${to}, and runs nothing (exit 2)`, async () => {
      const human = await runCli([from]);
      assert.equal(human.code, 2);
      assert.equal(human.stdout, '');
      assert.equal(
        human.stderr,
        `discern: \`discern ${from}\` was renamed: it is \`discern ${to}\` now. Run \`discern ${to}\` instead.\n`,
      );
      const json = await runCli([from, '--json']);
      assert.equal(json.code, 2);
      const envelope = onlyJson(json);
      assert.equal(envelope['error'], 'renamed_command');
      assert.deepEqual(envelope['hints'], [`Run \`discern ${to}\` instead; \`discern help ${to}\` describes it.`]);
      assert.deepEqual((envelope['data'] as { suggestions: string[] }).suggestions, [to]);
    });

  it('help and -h answer the same for a former name', async () => {
    const viaHelp = onlyJson(await runCli(['help', 'graduate', '--json']));
    assert.equal(viaHelp['error'], 'renamed_command');
    assert.match(String(viaHelp['message']), /`discern graduate` was renamed: it is `discern accept` now/);
    const viaFlag = await runCli(['-h', 'ratchets']);
    assert.equal(viaFlag.code, 2);
    assert.match(viaFlag.stderr, /`discern ratchets` was renamed: it is `discern standards` now/);
  });

  it('over MCP a former tool name is -32602 naming the tool it became (MCP 2025-11-25 server/tools, errors)', async () => {
    const r = scratchRepo({ 'discern.toml': '[project]\nname = "renamed"\n' });
    repos.push(r);
    const server = await rawServer(r.root);
    try {
      let id = 10;
      for (const [from, to] of RENAMES) {
        server.send(
          JSON.stringify({
            jsonrpc: '2.0',
            id,
            method: 'tools/call',
            params: { name: `discern_${from}`, arguments: {} },
          }),
        );
        const error = (await server.response(id))['error'] as { code: number; message: string };
        assert.equal(error.code, -32602);
        assert.equal(error.message, `Invalid params: the tool discern_${from} was renamed; call discern_${to}.`);
        id++;
      }
    } finally {
      await server.close();
    }
  });
});
