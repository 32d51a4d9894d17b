// uninstall on real scratch repositories: after refresh wired every agent into files that already held the
// user's own text, entries and hooks, uninstall gives every file back byte for byte and removes the ones
// discern created; --dry-run changes nothing; a part it cannot strip is reported and the rest still goes.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DiscernUninstallData } from '../../generated/types.js';
import { MCP_TOOLS } from '../../generated/mcp-table.js';
import { assertDriven, call } from '../helpers/drive.js';
import { runCli } from '../helpers/cli.js';
import { treeSnapshot } from '../helpers/tree.js';
import { scratchRepo, type ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

const ALL = '[project]\nname = "wired"\nagents = ["claude_code", "codex", "gemini", "cursor", "copilot"]\n';
const USER_FILES: Record<string, string> = {
  'CLAUDE.md': '# House rules\n\nNo force pushes.',
  'AGENTS.md': '# Agents\r\n\r\nBe brief.\r\n',
  '.mcp.json': '{\n\t"mcpServers": {\n\t\t"db": {\n\t\t\t"command": "db-mcp"\n\t\t}\n\t}\n}\n',
  '.gemini/settings.json': '{ "theme": "GitHub", "mcpServers": {} }',
  '.claude/settings.json':
    '{\n  "permissions": {"allow": ["Bash(npm test)"]},\n  "hooks": {\n    "SessionStart": [\n      {"matcher": "startup", "hooks": [{"type": "command", "command": "cat NOTES.md"}]}\n    ]\n  }\n}\n',
  '.codex/config.toml': 'model = "o4"\n\n[mcp_servers.db]\ncommand = "db-mcp"\n',
  '.claude/skills/mine/SKILL.md': '---\nname: mine\ndescription: Our own skill.\n---\n',
  'discern/map/decisions/README.md': '# Decisions\n',
  'discern/map/decisions/0001-first.md': '# First\n',
};

function repo(files: Record<string, string> = USER_FILES, config = ALL): ScratchRepo {
  const r = scratchRepo({ 'discern.toml': config, ...files });
  repos.push(r);
  return r;
}

function snapshot(r: ScratchRepo): Map<string, string> {
  return treeSnapshot(r.root);
}

describe('uninstall', () => {
  it('is a CLI command, not an MCP tool', () => {
    assert.ok(!MCP_TOOLS.some((t) => t.name === 'discern_uninstall'));
  });

  it("gives back every byte of the user's files and removes what discern created", async () => {
    const r = repo();
    const before = snapshot(r);
    const refreshed = await call('refresh', {}, r.root);
    assert.ok(refreshed.ok, JSON.stringify(refreshed, null, 2));
    assert.notDeepEqual(snapshot(r), before);

    const preview = await call('uninstall', { dry_run: true }, r.root, {}, 'cli');
    assert.ok(preview.ok && preview.dry_run === true && preview.steps === undefined);
    const planned = preview.data as DiscernUninstallData;
    assert.ok(planned.stripped.length > 0 && planned.removed.length > 0);
    const wired = snapshot(r);

    const result = await call('uninstall', {}, r.root, {}, 'cli');
    assert.ok(result.ok, JSON.stringify(result, null, 2));
    const data = result.data as DiscernUninstallData;
    assert.deepEqual(data, planned, 'the dry run planned exactly what was done');
    assert.notDeepEqual(wired, before);
    assert.deepEqual(snapshot(r), before);
    assert.deepEqual(data.left, []);
    assert.equal(result.advisories, undefined);
    for (const gone of ['GEMINI.md', '.cursor', '.vscode', '.agents', '.claude/skills/discern-land-change'])
      assert.ok(!existsSync(join(r.root, gone)), gone);
    assert.ok(existsSync(join(r.root, '.claude/skills/mine/SKILL.md')));
    assert.equal(r.git('status', '--porcelain'), '');

    const again = await call('uninstall', {}, r.root, {}, 'cli');
    assert.ok(again.ok);
    assert.deepEqual(again.steps, []);
    assert.match((again.hints ?? []).at(-1) ?? '', /Nothing discern wrote is left/);
  });

  it('leaves a part it cannot strip, with the uninstall-strip-incomplete advisory, and strips the rest', async () => {
    const r = repo({ 'CLAUDE.md': '# Rules\n' }, '[project]\nagents = ["claude_code", "cursor"]\n');
    assert.ok((await call('refresh', {}, r.root)).ok);
    writeFileSync(join(r.root, '.cursor/mcp.json'), '{ "mcpServers": { "discern": {} } // broken\n');
    const result = await call('uninstall', {}, r.root, {}, 'cli');
    assert.ok(result.ok, JSON.stringify(result, null, 2));
    const data = result.data as DiscernUninstallData;
    assert.deepEqual(
      data.left.map((l) => l.path),
      ['.cursor/mcp.json'],
    );
    assert.match(data.left[0]?.reason ?? '', /not valid JSON/);
    assert.equal(result.advisories?.[0]?.kind, 'uninstall-strip-incomplete');
    assert.match(result.advisories?.[0]?.evidence[0] ?? '', /^\.cursor\/mcp\.json: /);
    assert.equal(readFileSync(join(r.root, 'CLAUDE.md'), 'utf8'), '# Rules\n');
    assert.ok(!existsSync(join(r.root, '.mcp.json')));
    assert.match((result.hints ?? []).at(-1) ?? '', /by hand/);
  });

  it('the CLI: --dry-run changes nothing, then uninstall strips', async () => {
    const r = repo({ 'CLAUDE.md': '# Rules\n' }, '[project]\nagents = ["claude_code"]\n');
    assert.equal((await runCli(['refresh'], { cwd: r.root })).code, 0);
    const wired = snapshot(r);
    const dry = await runCli(['uninstall', '--dry-run'], { cwd: r.root });
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /Dry run: \d+ files would change/);
    assert.deepEqual(snapshot(r), wired);
    const done = await runCli(['uninstall'], { cwd: r.root });
    assert.equal(done.code, 0, done.stderr);
    assert.equal(readFileSync(join(r.root, 'CLAUDE.md'), 'utf8'), '# Rules\n');
  });

  it('was driven through success and failure', async () => {
    const r = repo({}, '[project]\nagents = ["claude_code"]\n');
    assert.ok((await call('refresh', {}, r.root)).ok);
    const failed = await call('uninstall', {}, r.root, { DISCERN_FAULT: 'refresh:write:.mcp.json' }, 'cli');
    assert.equal(failed.error, 'apply_failed');
    assert.match(failed.message ?? '', /uninstall stopped at \.mcp\.json/);
    assert.ok((await call('uninstall', {}, r.root, {}, 'cli')).ok);
    assertDriven(['uninstall']);
  });
});
