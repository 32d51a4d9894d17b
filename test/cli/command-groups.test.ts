// Paths that only begin commands (setup, config, skills, worktree, hook) are groups: alone, after help, or with
// -h, they list their commands (ok, exit 0) instead of failing as unknown commands; an unknown word after a group
// still fails. The published grammar lists each group and what `discern` with no command runs.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { DiscernHelpData } from '../../generated/types.js';
import { CLI_GRAMMAR } from '../../generated/cli-grammar.js';
import { onlyJson, runCli } from '../helpers/cli.js';

function groupOf(data: unknown): { path: string[]; commands: string[] } {
  const d = data as DiscernHelpData;
  assert.ok(d && typeof d === 'object' && 'group' in d, JSON.stringify(d));
  return { path: d.group.path, commands: d.commands.map((c) => c.path.join(' ')) };
}

describe('command groups', () => {
  it('the grammar names every group and the command discern alone runs', () => {
    assert.deepEqual(
      CLI_GRAMMAR.groups.map((g) => g.path.join(' ')),
      ['config', 'hook', 'setup', 'skills', 'worktree'],
    );
    assert.deepEqual(CLI_GRAMMAR.root.runs, ['desk']);
    assert.deepEqual(CLI_GRAMMAR.root.path, []);
    // Every command path's proper prefix is a command or a group: nothing the CLI accepts begins nowhere.
    const known = new Set([
      ...CLI_GRAMMAR.commands.map((c) => c.path.join(' ')),
      ...CLI_GRAMMAR.groups.map((g) => g.path.join(' ')),
    ]);
    for (const c of CLI_GRAMMAR.commands)
      for (let n = 1; n < c.path.length; n++) assert.ok(known.has(c.path.slice(0, n).join(' ')), c.path.join(' '));
  });

  for (const group of ['setup', 'config', 'skills', 'worktree'])
    it(`discern ${group} alone lists its commands`, async () => {
      const json = await runCli([group, '--json']);
      assert.equal(json.code, 0, json.stderr);
      const envelope = onlyJson(json);
      assert.equal(envelope.ok, true);
      assert.equal(envelope.verb, 'help');
      const listed = groupOf(envelope.data);
      assert.deepEqual(listed.path, [group]);
      const expected = CLI_GRAMMAR.commands
        .filter((c) => !c.hidden && c.path[0] === group && c.path.length > 1)
        .map((c) => c.path.join(' '));
      assert.deepEqual(listed.commands, expected);
    });

  it('help and -h describe a group the same way; human output names each command', async () => {
    const viaHelp = onlyJson(await runCli(['help', 'worktree', '--json']));
    const viaFlag = onlyJson(await runCli(['-h', 'worktree', '--json']));
    assert.deepEqual(viaFlag.data, viaHelp.data);
    const human = await runCli(['setup', '--plain']);
    assert.equal(human.code, 0);
    assert.match(human.stdout, /discern setup begin/);
    assert.match(human.stdout, /discern help <command>/);
  });

  it('an unknown word after a group is still an unknown command', async () => {
    const miss = await runCli(['setup', 'nope', '--json']);
    assert.equal(miss.code, 2);
    assert.equal(onlyJson(miss).error, 'unknown_command');
  });
});
