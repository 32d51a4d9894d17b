// skills list and skills eject on real scratch repositories: every skill with its source, exclusion and copies
// (current, stale, missing, blocked); eject copies a built-in into [skills] dir once, never over a file, and
// refresh then materialises the project's copy.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DiscernSkillsListData } from '../../generated/types.js';
import { BUILTIN_SKILLS } from '../../generated/agent-assets.js';
import { MCP_TOOLS } from '../../generated/mcp-table.js';
import { assertDriven, call } from '../helpers/drive.js';
import { runCli } from '../helpers/cli.js';
import { scratchRepo, type ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

function repo(files: Record<string, string> = {}, config = '[project]\nname = "skills"\n'): ScratchRepo {
  const r = scratchRepo({ 'discern.toml': config, ...files });
  repos.push(r);
  return r;
}

async function list(r: ScratchRepo): Promise<DiscernSkillsListData> {
  const result = await call('skillsList', {}, r.root, {}, 'cli');
  assert.ok(result.ok, JSON.stringify(result, null, 2));
  return result.data as DiscernSkillsListData;
}

describe('skills', () => {
  it('are CLI commands, not MCP tools', () => {
    const names = MCP_TOOLS.map((t) => t.name);
    assert.ok(!names.some((n) => n.startsWith('discern_skills')));
  });

  it("list: the built-ins and the project's own, excluded or not, and where each is materialised", async () => {
    const r = repo(
      {
        'team/skills/release/SKILL.md': '---\nname: release\ndescription: Cut a release.\n---\nSteps.\n',
        'team/skills/wip/notes.md': 'later\n',
      },
      '[project]\nagents = ["claude_code", "gemini"]\n\n[skills]\ndir = "team/skills"\nexclude = ["discern-diagnose-failure"]\n',
    );
    const before = await list(r);
    assert.equal(before.skills_dir, 'team/skills');
    assert.deepEqual(before.folders, [
      { folder: '.claude/skills', agents: ['claude_code'] },
      { folder: '.gemini/skills', agents: ['gemini'] },
    ]);
    assert.deepEqual(before.ignored, ['team/skills/wip']);
    assert.deepEqual(
      before.skills.map((s) => [s.name, s.source, s.excluded]),
      [
        ['discern-diagnose-failure', 'builtin', true],
        ['discern-land-change', 'builtin', false],
        ['release', 'authored', false],
      ],
    );
    assert.deepEqual(before.skills.find((s) => s.name === 'discern-diagnose-failure')?.copies, []);
    assert.deepEqual(before.skills.find((s) => s.name === 'release')?.copies, [
      { path: '.claude/skills/release/SKILL.md', agents: ['claude_code'], state: 'missing' },
      { path: '.gemini/skills/release/SKILL.md', agents: ['gemini'], state: 'missing' },
    ]);
    assert.equal(before.skills.find((s) => s.name === 'release')?.path, 'team/skills/release/SKILL.md');

    assert.ok((await call('refresh', {}, r.root)).ok);
    r.write(
      'team/skills/release/SKILL.md',
      '---\nname: release\ndescription: Cut a release, now signed.\n---\nSteps.\n',
    );
    const after = await list(r);
    assert.deepEqual(
      after.skills.find((s) => s.name === 'release')?.copies.map((c) => c.state),
      ['stale', 'stale'],
    );
    assert.deepEqual(
      after.skills.find((s) => s.name === 'discern-land-change')?.copies.map((c) => c.state),
      ['current', 'current'],
    );
    const shown = await runCli(['skills', 'list', '--markdown'], { cwd: r.root });
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(
      shown.stdout,
      /\| `release` \| authored \(`team\/skills\/release\/SKILL\.md`\) \| `\.claude\/skills\/release\/SKILL\.md` stale/,
    );
    assert.match(shown.stdout, /run `discern refresh`/);
  });

  it("eject copies a built-in skill into [skills] dir; refresh then materialises the project's copy", async () => {
    const r = repo({}, '[project]\nagents = ["claude_code"]\n');
    assert.ok((await call('refresh', {}, r.root)).ok);
    const result = await call('skillsEject', { name: 'discern-land-change' }, r.root, {}, 'cli');
    assert.ok(result.ok, JSON.stringify(result, null, 2));
    assert.deepEqual(result.data, { name: 'discern-land-change', path: 'discern/skills/discern-land-change/SKILL.md' });
    const builtin = BUILTIN_SKILLS.find((s) => s.name === 'discern-land-change');
    assert.equal(readFileSync(join(r.root, 'discern/skills/discern-land-change/SKILL.md'), 'utf8'), builtin?.content);
    assert.match(
      (result.hints ?? []).at(-1) ?? '',
      /^Edit discern\/skills\/discern-land-change\/SKILL\.md, then run `discern refresh`/,
    );

    const listed = await list(r);
    const skill = listed.skills.find((s) => s.name === 'discern-land-change');
    assert.equal(skill?.source, 'authored');
    assert.equal(skill?.replaces_builtin, true);
    assert.deepEqual(
      skill?.copies.map((c) => c.state),
      ['stale'],
      'the copy still says it came from the built-in',
    );
    assert.ok((await call('refresh', {}, r.root)).ok);
    assert.match(
      readFileSync(join(r.root, '.claude/skills/discern-land-change/SKILL.md'), 'utf8'),
      /<!-- discern:materialised from discern\/skills\/discern-land-change\/SKILL\.md;/,
    );
  });

  it('eject never overwrites a file, and names the built-ins for an unknown name', async () => {
    const r = repo({ 'discern/skills/discern-land-change/SKILL.md': 'our own edits\n' });
    const refused = await call('skillsEject', { name: 'discern-land-change' }, r.root, {}, 'cli');
    assert.equal(refused.error, 'skills_eject_failed');
    assert.match(
      refused.message ?? '',
      /discern\/skills\/discern-land-change\/SKILL\.md already exists; skills eject never overwrites a file/,
    );
    assert.match(
      refused.hints.at(-1) ?? '',
      /edit discern\/skills\/discern-land-change\/SKILL\.md, which is the project's copy already/,
    );
    assert.equal(readFileSync(join(r.root, 'discern/skills/discern-land-change/SKILL.md'), 'utf8'), 'our own edits\n');

    const unknown = await call('skillsEject', { name: 'no-such-skill' }, r.root, {}, 'cli');
    assert.equal(unknown.error, 'unknown_target');
    assert.deepEqual(
      (unknown.data as { suggestions: string[] }).suggestions,
      BUILTIN_SKILLS.map((s) => s.name),
    );
    assert.match(unknown.hints.at(-1) ?? '', /`discern skills list`/);
    assert.ok(!existsSync(join(r.root, 'discern/skills/no-such-skill')));

    const cli = await runCli(['skills', 'eject', 'Bad_Name'], { cwd: r.root });
    assert.equal(cli.code, 2, cli.stdout + cli.stderr);
  });

  it('list refuses a discern.toml that does not load, naming the key', async () => {
    const r = repo({}, '[project]\nname = "skills"\n\n[skills]\ndir = 5\n');
    const result = await call('skillsList', {}, r.root, {}, 'cli');
    assert.equal(result.error, 'invalid_config', JSON.stringify(result, null, 2));
    assert.ok(
      result.data && 'issues' in result.data && result.data.issues.some((i) => i.path === 'skills.dir'),
      JSON.stringify(result.data),
    );
  });

  it('were driven through success and failure', () => {
    assertDriven(['skillsEject', 'skillsList']);
  });
});
