// The CLI grammar is derived from the verbs' specs: every verb has its command, every input key but path a
// flag or positional with the input's type, and the published manifest is the same object the CLI uses.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CLI_GRAMMAR } from '../../generated/cli-grammar.js';
import { VERBS } from '../../generated/registry.js';
import { MCP_TOOLS } from '../../generated/mcp-table.js';
import { readPublished } from '../helpers/published-schema.js';

describe('CLI grammar', () => {
  it('schema/discern-cli.json publishes exactly the runtime grammar', () => {
    const { $id, $comment, 'x-discern-compatibility-policy': policy, ...rest } = readPublished('discern-cli.json');
    assert.equal($id, 'https://discern.sh/schema/v1/discern-cli.json');
    assert.equal(typeof $comment, 'string');
    assert.equal(policy, 'cli-append-only');
    assert.deepEqual(rest, JSON.parse(JSON.stringify(CLI_GRAMMAR)));
  });
  it('every verb has a command, and every input key but path reaches the CLI with its type (or is fixed by the command, or MCP-only)', () => {
    for (const verb of Object.values(VERBS)) {
      const command = CLI_GRAMMAR.commands.find((c) => c.verb === verb.verb);
      assert.ok(command, `no command for ${verb.verb}`);
      const tool = MCP_TOOLS.find((t) => t.verb === verb.id);
      if (!tool) continue;
      const properties = tool.inputSchema['properties'] as Record<string, { type: string }>;
      for (const [key, schema] of Object.entries(properties)) {
        if (key === 'path') continue;
        const cliFixed: Readonly<Record<string, unknown>> = verb.cliFixed;
        const mcpOnly: readonly string[] = verb.cliMcpOnly;
        if (key in cliFixed) {
          assert.ok(!command.flags.some((f) => f.input === key), `${verb.verb}: fixed input ${key} is not also a flag`);
          continue;
        }
        if (mcpOnly.includes(key)) continue;
        const flag: (typeof command.flags)[number] | undefined = command.flags.find((f) => f.input === key);
        const positional = command.positionals.find((p) => p.input === key);
        // A key the CLI cannot spell (a list of objects) is assembled from CLI-only flags that stand for it.
        const assembled = command.flags.some((f) => f.stands_for === key);
        assert.ok(flag ?? positional ?? assembled, `${verb.verb}: input ${key} has no CLI form`);
        if (flag) assert.equal(flag.arity, schema.type === 'boolean' ? 0 : 1, `${verb.verb} --${key} arity`);
      }
    }
  });
  it('global format flags are on every verb command and mutually exclusive; the presentation flags beside them', () => {
    for (const command of CLI_GRAMMAR.commands.filter((c) => c.verb !== undefined)) {
      const groups = command.flags.filter((f) => f.global).map((f) => [f.spellings[0], f.exclusive_group ?? null]);
      assert.deepEqual(
        groups,
        [
          ['--json', 'format'],
          ['--markdown', 'format'],
          ['--render', 'format'],
          ['--no-color', null],
          ['--plain', null],
          ['--theme', null],
        ],
        command.path.join(' '),
      );
    }
    const theme = CLI_GRAMMAR.global_flags.find((f) => f.spellings[0] === '--theme');
    assert.deepEqual(
      [theme?.arity, theme?.type_definition, theme?.choices, theme?.default],
      [1, '<theme:string>', ['auto', 'light', 'dark'], 'auto'],
    );
  });
  it("the version flag is -V, never sade's reserved -v", () => {
    assert.deepEqual(CLI_GRAMMAR.implicit_flags.root, ['-V', '--version']);
    for (const command of CLI_GRAMMAR.commands)
      for (const flag of command.flags) assert.ok(!flag.spellings.includes('-v'));
  });
});
