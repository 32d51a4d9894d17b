// refresh on real scratch repositories: each agent's files in its documented format, a second run writing
// nothing, every byte outside discern's part kept, dry_run planning without writing, write_denied before any
// write, invalid settings files refused, instruction sources (globs, a missing named file), skills (built-in,
// authored, excluded, pruned, someone else's left alone), the ADR index, agents removed from the configuration,
// links, a failure part-way reported as partial_refresh and finished by running it again, and what refresh
// owns: an MCP entry, hook group or region edited by hand is left, reported, and kept by uninstall.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import type { DiscernRefreshData, DiscernUninstallData } from '../../generated/types.js';
import { BUILTIN_SKILLS } from '../../generated/agent-assets.js';
import { planRefresh } from '../../src/engine/refresh/index.js';
import { resolveProject } from '../../src/engine/project/resolve.js';
import { assertDriven, call } from '../helpers/drive.js';
import { onlyJson, runCli } from '../helpers/cli.js';
import { treeSnapshot } from '../helpers/tree.js';
import { cleanEnv, scratchRepo, tempDir, type ScratchRepo } from '../helpers/scratch-repo.js';
import { isRoot } from '../helpers/gate-repo.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

const ALL = '[project]\nname = "wired"\nagents = ["claude_code", "codex", "gemini", "cursor", "copilot"]\n';
/** What the Codex table holds beside the command: a failed probe (no discern on the test's PATH) measures nothing. */
const CODEX_LIMITS = { startup_timeout_sec: 10, tool_timeout_sec: 3600 };
const CLAUDE_ONLY = '[project]\nname = "wired"\nagents = ["claude_code"]\n';

function repo(files: Record<string, string> = {}, config = '[project]\nname = "wired"\n'): ScratchRepo {
  const r = scratchRepo({ 'discern.toml': config, ...files });
  repos.push(r);
  return r;
}

function read(r: ScratchRepo, path: string): string {
  return readFileSync(join(r.root, path), 'utf8');
}

/** smol-toml's tables have no prototype: compared as plain objects. */
function toml(text: string): unknown {
  return JSON.parse(JSON.stringify(parseToml(text))) as unknown;
}

function json(r: ScratchRepo, path: string): Record<string, unknown> {
  return JSON.parse(read(r, path)) as Record<string, unknown>;
}

async function refresh(r: ScratchRepo, input: Record<string, unknown> = {}, env: Record<string, string> = {}) {
  const result = await call('refresh', input, r.root, env);
  const data = result.data && 'changes' in result.data ? (result.data as DiscernRefreshData) : undefined;
  return { result, data };
}

async function refreshed(r: ScratchRepo, input: Record<string, unknown> = {}): Promise<DiscernRefreshData> {
  const { result, data } = await refresh(r, input);
  assert.ok(result.ok, JSON.stringify(result, null, 2));
  assert.ok(data);
  return data;
}

/** The ownership ledger refresh keeps under the git common dir. */
function ledger(r: ScratchRepo): Record<string, string[] | undefined> {
  const path = join(r.root, '.git/discern/refresh-ownership.json');
  return (JSON.parse(readFileSync(path, 'utf8')) as { entries: Record<string, string[]> }).entries;
}

/** A clone of the repository as it is committed: its own git dir, so no ledger until it runs refresh. */
function clone(origin: ScratchRepo): ScratchRepo {
  const root = join(tempDir('discern-refresh-clone-'), 'clone');
  const env = cleanEnv({ GIT_CONFIG_NOSYSTEM: '1' });
  execFileSync('git', ['clone', '-q', `file://${origin.root}`, root], { env, stdio: 'ignore' });
  const git = (...args: string[]): string =>
    execFileSync('git', args, { cwd: root, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return {
    root,
    git,
    write: (path, text) => {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), text);
    },
    commit: () => assert.fail('a clone here does not commit'),
    cleanup: () => undefined,
  };
}

function snapshot(r: ScratchRepo): Map<string, string> {
  return treeSnapshot(r.root);
}

describe('refresh', () => {
  it("writes each agent's files in its documented format, and a second run writes nothing", async () => {
    const r = repo({}, ALL);
    const data = await refreshed(r);
    assert.deepEqual(data.agents, ['claude_code', 'codex', 'gemini', 'cursor', 'copilot']);
    assert.deepEqual(data.agents_written, ['CLAUDE.md', 'AGENTS.md', 'GEMINI.md']);
    assert.deepEqual(data.mcp_wired, [
      '.mcp.json',
      '.codex/config.toml',
      '.gemini/settings.json',
      '.cursor/mcp.json',
      '.vscode/mcp.json',
    ]);
    assert.deepEqual(data.hooks_wired, ['.claude/settings.json']);
    for (const file of ['AGENTS.md', 'GEMINI.md']) {
      const text = read(r, file);
      assert.match(text, /^<!-- discern:begin instructions[^\n]*-->\n## Working in this repository with discern\n/);
      assert.match(text, /discern_status[\s\S]*discern_start[\s\S]*discern_done[\s\S]*discern_accept/);
      assert.ok(text.endsWith('<!-- discern:end -->\n'));
    }
    // VS Code reads CLAUDE.md and AGENTS.md both: with an AGENTS.md reader configured, CLAUDE.md imports it.
    const claude = read(r, 'CLAUDE.md');
    assert.match(claude, /\n@AGENTS\.md\n<!-- discern:end -->\n$/);
    assert.doesNotMatch(claude, /discern_done/);
    // Copilot reads AGENTS.md: refresh writes no .github/copilot-instructions.md beside it.
    assert.ok(!existsSync(join(r.root, '.github/copilot-instructions.md')));
    const server = { command: 'discern', args: ['mcp'] };
    assert.deepEqual(json(r, '.mcp.json'), { mcpServers: { discern: { type: 'stdio', ...server } } });
    assert.deepEqual(json(r, '.cursor/mcp.json'), { mcpServers: { discern: server } });
    assert.deepEqual(json(r, '.gemini/settings.json'), { mcpServers: { discern: server } });
    assert.deepEqual(json(r, '.vscode/mcp.json'), { servers: { discern: { type: 'stdio', ...server } } });
    // Codex cuts a tool call off at 60 s unless told otherwise; its start-up limit is at least its default.
    assert.deepEqual(toml(read(r, '.codex/config.toml')), {
      mcp_servers: { discern: { ...server, startup_timeout_sec: 10, tool_timeout_sec: 3600 } },
    });
    assert.match(
      read(r, '.codex/config.toml'),
      /^# discern:begin mcp[^\n]*\n\[mcp_servers\.discern\]\n[\s\S]*\n# discern:end\n$/,
    );
    assert.deepEqual(json(r, '.claude/settings.json'), {
      hooks: {
        SessionStart: [
          { matcher: 'startup|clear|compact', hooks: [{ type: 'command', command: 'discern hook session-start' }] },
        ],
      },
    });
    // Each configured agent's approval or trust step is named, and the command that does not start here is said.
    const hints = (await call('refresh', { dry_run: true }, r.root)).hints ?? [];
    for (const step of [
      /Claude Code asks/,
      /Codex reads .codex\/config.toml only in a project it trusts/,
      /Gemini CLI ignores/,
      /Cursor asks/,
      /VS Code asks/,
    ])
      assert.ok(
        hints.some((h) => step.test(h)),
        `${String(step)} in ${JSON.stringify(hints)}`,
      );
    // Five agents, two skill folders: Claude Code and Codex read only their own; the others read one of those.
    const names = BUILTIN_SKILLS.map((s) => s.name).sort();
    for (const folder of ['.claude/skills', '.agents/skills'])
      assert.deepEqual(readdirSync(join(r.root, folder)).sort(), names);
    assert.ok(
      !existsSync(join(r.root, '.cursor/skills')) &&
        !existsSync(join(r.root, '.github/skills')) &&
        !existsSync(join(r.root, '.gemini/skills')),
    );
    assert.deepEqual(data.skills.linked.sort(), [
      'copilot: .agents/skills',
      'copilot: .claude/skills',
      'cursor: .agents/skills',
      'cursor: .claude/skills',
      'gemini: .agents/skills',
    ]);
    const skill = read(r, '.claude/skills/discern-land-change/SKILL.md');
    assert.match(
      skill,
      /^---\nname: discern-land-change\ndescription: [^\n]+\n---\n<!-- discern:materialised from discern's built-in skill discern-land-change/,
    );

    const before = snapshot(r);
    const again = await call('refresh', {}, r.root);
    assert.ok(again.ok);
    assert.deepEqual(again.steps, []);
    assert.deepEqual((again.data as DiscernRefreshData).changes, []);
    assert.equal(
      (again.data as DiscernRefreshData).current.length,
      before.size - 2,
      'every file but README.md and discern.toml is current',
    );
    assert.deepEqual(snapshot(r), before);
    assert.match((again.hints ?? []).at(-1) ?? '', /current: nothing was written/);
  });

  it("keeps every byte of the user's CLAUDE.md and .mcp.json outside discern's part, and refreshes that part in place", async () => {
    const claude = '# Our rules\r\n\r\nUse tabs.\r\n';
    const mcp =
      '{\n    "mcpServers": {\n        "other": {"command": "other-server", "args": ["--port", "1"]}\n    },\n    "unknownKey": [1, 2, 3]\n}';
    // Claude Code alone, so CLAUDE.md holds the instructions themselves rather than an import of AGENTS.md.
    const r = repo(
      {
        'CLAUDE.md': claude,
        '.mcp.json': mcp,
        'discern/instructions.md': 'Run `make check` before committing.\n',
      },
      CLAUDE_ONLY,
    );
    await refreshed(r);
    const text = read(r, 'CLAUDE.md');
    assert.ok(text.startsWith(`${claude}\r\n<!-- discern:begin`), JSON.stringify(text));
    assert.ok(!text.replace(/\r\n/g, '').includes('\n'), "the region takes the file's CRLF line breaks");
    assert.match(
      text,
      /<!-- from discern\/instructions\.md -->\r\n\r\nRun `make check` before committing\.\r\n<!-- discern:end -->\r\n$/,
    );
    const wired = read(r, '.mcp.json');
    assert.ok(
      wired.startsWith(
        '{\n    "mcpServers": {\n        "other": {"command": "other-server", "args": ["--port", "1"]},\n        "discern": {\n            "type": "stdio",',
      ),
      wired,
    );
    assert.ok(wired.endsWith('\n        }\n    },\n    "unknownKey": [1, 2, 3]\n}'), wired);

    // The user edits around the region, and the project's instructions change: only the region moves.
    writeFileSync(join(r.root, 'CLAUDE.md'), `Preface.\n\n${read(r, 'CLAUDE.md')}After.\n`);
    r.write('discern/instructions.md', 'Run `make lint` too.\n');
    const data = await refreshed(r);
    assert.deepEqual(
      data.changes.map((c) => [c.path, c.action]),
      [['CLAUDE.md', 'update']],
    );
    const after = read(r, 'CLAUDE.md');
    assert.ok(after.startsWith(`Preface.\n\n${claude}\r\n<!-- discern:begin`));
    assert.ok(after.endsWith('Run `make lint` too.\r\n<!-- discern:end -->\r\nAfter.\n'), after);
    assert.equal(read(r, '.mcp.json'), wired);
  });

  it('dry_run returns the complete plan and writes nothing', async () => {
    const r = repo({}, ALL);
    const before = snapshot(r);
    const { result, data } = await refresh(r, { dry_run: true });
    assert.ok(result.ok && result.dry_run === true && result.steps === undefined, JSON.stringify(result));
    assert.ok(data && result.plan);
    assert.equal(result.plan.steps.length, data.changes.length);
    assert.equal(data.changes.length, 3 + 5 + 1 + 2 * BUILTIN_SKILLS.length);
    assert.ok(data.changes.every((c) => c.action === 'create'));
    assert.deepEqual(data.agents_written, ['CLAUDE.md', 'AGENTS.md', 'GEMINI.md']);
    assert.deepEqual(snapshot(r), before);
    // The plan is what refresh then writes.
    const written = await refreshed(r);
    assert.deepEqual(written.changes, data.changes);
    const preview = await refreshed(r, { dry_run: true });
    assert.deepEqual(preview.changes, []);
  });

  it('planRefresh is the function others call: an empty list of targets once current', async () => {
    const r = repo();
    const resolution = await resolveProject({ path: r.root, pathFrom: 'argument', env: cleanEnv() });
    assert.ok(resolution.ok);
    const plan = await planRefresh(resolution.project, { env: cleanEnv() });
    assert.ok(plan.targets.length > 0 && plan.targets.every((t) => t.content !== undefined && t.before === null));
    await refreshed(r);
    assert.deepEqual((await planRefresh(resolution.project, { env: cleanEnv() })).targets, []);
  });

  it('refuses write_denied naming the path before writing anything: a folder in the way (even as root)', async () => {
    const r = repo({ '.claude': 'a file where the folder should be\n' });
    const before = snapshot(r);
    const { result } = await refresh(r);
    assert.equal(result.error, 'write_denied', JSON.stringify(result));
    assert.match(
      result.message ?? '',
      /\.claude is a file, so \.claude\/settings\.json cannot be created; nothing was written/,
    );
    assert.deepEqual(snapshot(r), before);
  });

  it(
    'refuses write_denied for an unwritable file, nothing written',
    { skip: isRoot() ? 'root writes whatever the mode says' : false },
    async () => {
      const r = repo({ 'AGENTS.md': '# Agents\n' });
      chmodSync(join(r.root, 'AGENTS.md'), 0o444);
      const before = snapshot(r);
      const { result } = await refresh(r);
      assert.equal(result.error, 'write_denied');
      assert.match(result.message ?? '', /^AGENTS\.md is not writable; nothing was written\.$/);
      assert.match((result.hints ?? []).at(-1) ?? '', /Make AGENTS\.md writable/);
      assert.deepEqual(snapshot(r), before);
      chmodSync(join(r.root, 'AGENTS.md'), 0o644);
    },
  );

  it(
    'refuses write_denied for an unwritable folder, nothing written',
    { skip: isRoot() ? 'root writes whatever the mode says' : false },
    async () => {
      const r = repo();
      mkdirSync(join(r.root, '.codex'));
      chmodSync(join(r.root, '.codex'), 0o555);
      const { result } = await refresh(r);
      assert.equal(result.error, 'write_denied');
      assert.match(result.message ?? '', /\.codex is not writable, so \.codex\/config\.toml cannot be created/);
      assert.ok(!existsSync(join(r.root, 'CLAUDE.md')));
      chmodSync(join(r.root, '.codex'), 0o755);
    },
  );

  it('refuses a settings file that is not valid JSON, naming it, and writes nothing', async () => {
    const r = repo({ '.mcp.json': '{ "mcpServers": { "a": 1, } }\n' });
    const before = snapshot(r);
    const { result, data } = await refresh(r);
    assert.equal(result.error, 'invalid_settings_file');
    assert.match(result.message ?? '', /^\.mcp\.json: not valid JSON at line 1, column \d+/);
    assert.match((result.hints ?? []).at(-1) ?? '', /^Fix \.mcp\.json at line 1, column \d+ as the message says/);
    assert.deepEqual(
      data?.errors.map((e) => [e.path, e.error]),
      [['.mcp.json', 'invalid_settings_file']],
    );
    assert.deepEqual(snapshot(r), before);
    // A dry run reports the same, with the plan of what it could not finish.
    const preview = await refresh(r, { dry_run: true });
    assert.equal(preview.result.error, 'invalid_settings_file');
    assert.equal(preview.result.dry_run, true);
  });

  it('reads JSON with comments where the agent does (VS Code, Gemini), keeping the comments', async () => {
    const vscode =
      '{\n  // the team\'s servers\n  "servers": {\n    "db": { "type": "stdio", "command": "db-mcp" }, // local\n  },\n  "inputs": [],\n}\n';
    const r = repo({ '.vscode/mcp.json': vscode }, '[project]\nagents = ["copilot"]\n');
    await refreshed(r);
    const text = read(r, '.vscode/mcp.json');
    assert.ok(
      text.startsWith(
        '{\n  // the team\'s servers\n  "servers": {\n    "db": { "type": "stdio", "command": "db-mcp" },\n    "discern": {',
      ),
      text,
    );
    assert.ok(text.endsWith('}, // local\n  },\n  "inputs": [],\n}\n'), text);
    const undone = await call('uninstall', {}, r.root, {}, 'cli');
    assert.ok(undone.ok, JSON.stringify(undone));
    assert.equal(read(r, '.vscode/mcp.json'), vscode);
  });

  it("keeps a user's own `discern` entry (another path, args, env) and says so; uninstall leaves it and the file", async () => {
    const own =
      '{"mcpServers": {"discern": {"command": "/opt/discern/bin/discern", "args": ["mcp"], "env": {"X": "1"}}}}\n';
    const r = repo({ '.mcp.json': own }, '[project]\nagents = ["claude_code"]\n');
    const data = await refreshed(r);
    assert.equal(read(r, '.mcp.json'), own);
    assert.ok(
      data.skipped?.some((s) => s.path === '.mcp.json' && /entry of its own/.test(s.reason)),
      JSON.stringify(data.skipped),
    );
    const removed = await call('uninstall', {}, r.root);
    assert.ok(removed.ok, JSON.stringify(removed, null, 2));
    assert.equal(read(r, '.mcp.json'), own);
  });

  it('an entry discern wrote before (the bare `discern mcp`) is still its own, and is brought up to date', async () => {
    const r = repo(
      { '.mcp.json': '{"mcpServers": {"discern": {"command": "discern", "args": ["mcp"]}}}\n' },
      '[project]\nagents = ["claude_code"]\n',
    );
    await refreshed(r);
    assert.deepEqual(json(r, '.mcp.json'), {
      mcpServers: { discern: { type: 'stdio', command: 'discern', args: ['mcp'] } },
    });
  });

  it('owns only the discern entry: an entry it wrote is put back, other servers and hooks stay', async () => {
    const settings =
      '{\n  "hooks": {\n    "SessionStart": [\n      {"hooks": [{"type": "command", "command": "echo hello"}]}\n    ]\n  },\n  "model": "x"\n}\n';
    const r = repo(
      {
        '.claude/settings.json': settings,
        '.mcp.json': '{"mcpServers": {"discern": {"command": "discern", "args": ["mcp"]}, "b": {"command": "b"}}}\n',
      },
      '[project]\nagents = ["claude_code"]\n',
    );
    await refreshed(r);
    assert.equal(
      read(r, '.mcp.json'),
      '{"mcpServers": {"discern": { "type": "stdio", "command": "discern", "args": ["mcp"] }, "b": {"command": "b"}}}\n',
    );
    const hooks = json(r, '.claude/settings.json') as { hooks: { SessionStart: unknown[] }; model: string };
    assert.equal(hooks.hooks.SessionStart.length, 2);
    assert.deepEqual(hooks.hooks.SessionStart[0], { hooks: [{ type: 'command', command: 'echo hello' }] });
    assert.equal(hooks.model, 'x');
  });

  it('leaves an instruction region edited by hand and says how to hand it back; handed back, it is refreshed in place', async () => {
    const r = repo({ 'CLAUDE.md': '# Ours\n' }, '[project]\nagents = ["claude_code"]\n');
    await refreshed(r);
    assert.ok(ledger(r)['CLAUDE.md#region:instructions'], JSON.stringify(ledger(r)));
    const edited = read(r, 'CLAUDE.md').replace('<!-- discern:end -->', 'Always squash.\n<!-- discern:end -->');
    writeFileSync(join(r.root, 'CLAUDE.md'), edited);
    r.write('discern/instructions.md', 'Run `make check` before committing.\n');

    const data = await refreshed(r);
    assert.equal(read(r, 'CLAUDE.md'), edited);
    assert.ok(!data.changes.some((c) => c.path === 'CLAUDE.md'), JSON.stringify(data.changes));
    const skipped = data.skipped.find((s) => s.path === 'CLAUDE.md');
    assert.match(
      skipped?.reason ?? '',
      /^CLAUDE\.md has a discern region \(line 3\) that is not what refresh wrote there, so it is taken as edited by hand and left as it is;/,
    );
    assert.match(
      skipped?.reason ?? '',
      /delete the lines between its discern:begin and discern:end and run `discern refresh`/,
    );

    // Handed back: the lines between the markers deleted, the region is discern's again and refreshed where it is.
    writeFileSync(join(r.root, 'CLAUDE.md'), edited.replace(/(-->\n)[^]*(<!-- discern:end -->)/, '$1$2'));
    const taken = await refreshed(r);
    assert.deepEqual(taken.agents_written, ['CLAUDE.md']);
    assert.deepEqual(taken.skipped, []);
    const text = read(r, 'CLAUDE.md');
    assert.ok(
      /^# Ours\n\n<!-- discern:begin instructions sha256:[0-9a-f]{16}: written by discern refresh /.test(text),
      text,
    );
    assert.ok(text.endsWith('Run `make check` before committing.\n<!-- discern:end -->\n'), text);
    assert.ok(!text.includes('Always squash.'));
  });

  it('a region whose line breaks a checkout turned into CRLF is still the one discern wrote', async () => {
    const r = repo({}, '[project]\nagents = ["claude_code"]\n');
    await refreshed(r);
    writeFileSync(join(r.root, 'CLAUDE.md'), read(r, 'CLAUDE.md').replace(/\n/g, '\r\n'));
    r.write('discern/instructions.md', 'Run `make check` before committing.\n');
    const data = await refreshed(r);
    assert.deepEqual(data.skipped, []);
    assert.deepEqual(data.agents_written, ['CLAUDE.md']);
    assert.ok(read(r, 'CLAUDE.md').endsWith('Run `make check` before committing.\r\n<!-- discern:end -->\r\n'));
  });

  it("a region a teammate's refresh wrote and committed is discern's on a clone whose ledger never saw it", async () => {
    const a = repo({}, '[project]\nagents = ["claude_code"]\n');
    await refreshed(a);
    a.commit('wired');
    const b = clone(a);
    assert.deepEqual((await refreshed(b)).changes, [], 'the clone has what refresh writes');
    const mine = ledger(b)['CLAUDE.md#region:instructions'];
    assert.equal(mine?.length, 1, "the clone's ledger has a record for the region");

    // A teammate adds an instruction source and commits what refresh wrote; the clone pulls it, then changes the
    // source before it runs refresh: the region it pulled is in no record of its own, nor what it would write.
    a.write('discern/instructions.md', 'Rule one.\n');
    await refreshed(a);
    a.commit('rule one');
    b.git('pull', '-q', '--ff-only');
    assert.ok(read(b, 'CLAUDE.md').endsWith('Rule one.\n<!-- discern:end -->\n'));
    assert.deepEqual(ledger(b)['CLAUDE.md#region:instructions'], mine);
    b.write('discern/instructions.md', 'Rule two.\n');

    const data = await refreshed(b);
    assert.deepEqual(data.skipped, []);
    assert.deepEqual(data.agents_written, ['CLAUDE.md']);
    const text = read(b, 'CLAUDE.md');
    assert.ok(text.endsWith('Rule two.\n<!-- discern:end -->\n'), text);
    assert.ok(!text.includes('Rule one.'), text);
  });

  it('tells a hand edit of a committed region on a fresh clone with no ledger, and leaves it through uninstall', async () => {
    const a = repo({}, '[project]\nagents = ["claude_code"]\n');
    await refreshed(a);
    assert.match(read(a, 'CLAUDE.md'), /^<!-- discern:begin instructions sha256:[0-9a-f]{16}: written by discern/);
    a.commit('wired');
    const c = clone(a);
    const edited = read(c, 'CLAUDE.md').replace('<!-- discern:end -->', 'Always squash.\n<!-- discern:end -->');
    writeFileSync(join(c.root, 'CLAUDE.md'), edited);
    assert.ok(!existsSync(join(c.root, '.git/discern/refresh-ownership.json')));

    const data = await refreshed(c);
    assert.equal(read(c, 'CLAUDE.md'), edited);
    assert.ok(!data.changes.some((ch) => ch.path === 'CLAUDE.md'), JSON.stringify(data.changes));
    assert.match(
      data.skipped.find((s) => s.path === 'CLAUDE.md')?.reason ?? '',
      /^CLAUDE\.md has a discern region \(line 1\) that is not what refresh wrote there, so it is taken as edited by hand/,
    );
    const removed = await call('uninstall', {}, c.root, {}, 'cli');
    assert.ok(removed.ok, JSON.stringify(removed, null, 2));
    assert.equal(read(c, 'CLAUDE.md'), edited);
    assert.deepEqual(
      (removed.data as DiscernUninstallData).left.map((l) => l.path),
      ['CLAUDE.md'],
    );
  });

  it('refreshes regions no ledger records (an earlier discern wrote them) as its own, and records them', async () => {
    const old = (begin: string, body: string, end: string): string => `${begin}\n${body}\n${end}\n`;
    const r = repo(
      {
        'CLAUDE.md': `# Ours\n\n${old('<!-- discern:begin instructions: written by discern -->', 'Old rules.', '<!-- discern:end -->')}`,
        'AGENTS.md': old(
          '<!-- discern:begin instructions: written by discern -->',
          'Old rules.',
          '<!-- discern:end -->',
        ),
        '.codex/config.toml': `model = "o4"\n\n${old('# discern:begin mcp', '[mcp_servers.discern]\ncommand = "discern"', '# discern:end')}`,
        'discern/map/decisions/README.md': `# Decisions\n\n${old('<!-- discern:begin adr-index -->', '- 0001 — [Old](0001-old.md)', '<!-- discern:end -->')}`,
        'discern/map/decisions/0001-first.md': '# First\n',
      },
      '[project]\nagents = ["claude_code", "codex"]\n',
    );
    assert.ok(!existsSync(join(r.root, '.git/discern/refresh-ownership.json')));
    const data = await refreshed(r);
    assert.deepEqual(data.skipped, []);
    assert.deepEqual(
      data.changes.map((c) => [c.path, c.action]).filter(([path]) => !String(path).includes('skills/')),
      [
        ['CLAUDE.md', 'update'],
        ['AGENTS.md', 'update'],
        ['.mcp.json', 'create'],
        ['.codex/config.toml', 'update'],
        ['.claude/settings.json', 'create'],
        ['discern/map/decisions/README.md', 'update'],
      ],
    );
    assert.ok(!read(r, 'CLAUDE.md').includes('Old rules.'));
    // Written now with the digest of their bodies in their begin lines.
    assert.match(read(r, 'CLAUDE.md'), /\n<!-- discern:begin instructions sha256:[0-9a-f]{16}: written by discern /);
    assert.match(read(r, '.codex/config.toml'), /\n# discern:begin mcp sha256:[0-9a-f]{16}: written by discern /);
    assert.match(read(r, 'discern/map/decisions/README.md'), /\n- 0001 — \[First\]\(0001-first\.md\)\n/);
    assert.deepEqual(toml(read(r, '.codex/config.toml')), {
      model: 'o4',
      mcp_servers: { discern: { command: 'discern', args: ['mcp'], ...CODEX_LIMITS } },
    });
    // Recorded now, so a later hand edit is told apart from what refresh wrote.
    for (const key of [
      'CLAUDE.md#region:instructions',
      'AGENTS.md#region:instructions',
      '.codex/config.toml#region:mcp',
      'discern/map/decisions/README.md#region:adr-index',
      '.claude/settings.json#hooks.SessionStart[discern]',
    ])
      assert.equal(ledger(r)[key]?.length, 1, key);
  });

  it("a region without a digest that matches none of the records the ledger has for it is the user's", async () => {
    const r = repo({}, '[project]\nagents = ["claude_code"]\n');
    await refreshed(r);
    // As an earlier discern wrote it (no digest in the begin line), then edited by hand.
    const edited = read(r, 'CLAUDE.md')
      .replace(/ sha256:[0-9a-f]{16}:/, ':')
      .replace('<!-- discern:end -->', 'Always squash.\n<!-- discern:end -->');
    writeFileSync(join(r.root, 'CLAUDE.md'), edited);
    const data = await refreshed(r);
    assert.equal(read(r, 'CLAUDE.md'), edited);
    assert.match(data.skipped.find((s) => s.path === 'CLAUDE.md')?.reason ?? '', /taken as edited by hand/);
  });

  it('keeps a Claude Code hook group the user changed, through refresh and uninstall, and says so', async () => {
    const r = repo({}, '[project]\nagents = ["claude_code"]\n');
    await refreshed(r);
    const settings = read(r, '.claude/settings.json').replace('"startup|clear|compact"', '"startup"');
    assert.match(settings, /"matcher": "startup",/);
    writeFileSync(join(r.root, '.claude/settings.json'), settings);

    const data = await refreshed(r);
    assert.equal(read(r, '.claude/settings.json'), settings);
    assert.deepEqual(data.hooks_wired, []);
    assert.match(
      data.skipped.find((s) => s.path === '.claude/settings.json')?.reason ?? '',
      /has a `hooks\.SessionStart` group of its own that runs `discern status` .*not one discern wrote: it is left as it is; to hand it back to discern, delete that group and run `discern refresh`/,
    );

    const removed = await call('uninstall', {}, r.root, {}, 'cli');
    assert.ok(removed.ok, JSON.stringify(removed, null, 2));
    assert.equal(read(r, '.claude/settings.json'), settings);
    assert.deepEqual(
      (removed.data as DiscernUninstallData).left.map((l) => l.path),
      ['.claude/settings.json'],
    );
    assert.ok(!existsSync(join(r.root, 'CLAUDE.md')));
  });

  it('uninstall keeps a file whose discern region was edited by hand, and takes out the rest', async () => {
    const r = repo({}, '[project]\nagents = ["claude_code", "codex"]\n');
    await refreshed(r);
    const claude = read(r, 'CLAUDE.md').replace('<!-- discern:end -->', 'Our own rule.\n<!-- discern:end -->');
    writeFileSync(join(r.root, 'CLAUDE.md'), claude);
    const codex = read(r, '.codex/config.toml').replace('# discern:end', 'env = { "X" = "1" }\n# discern:end');
    writeFileSync(join(r.root, '.codex/config.toml'), codex);

    const removed = await call('uninstall', {}, r.root, {}, 'cli');
    assert.ok(removed.ok, JSON.stringify(removed, null, 2));
    const data = removed.data as DiscernUninstallData;
    assert.equal(read(r, 'CLAUDE.md'), claude);
    assert.equal(read(r, '.codex/config.toml'), codex);
    assert.deepEqual(data.left.map((l) => l.path).sort(), ['.codex/config.toml', 'CLAUDE.md']);
    assert.match(data.left.find((l) => l.path === 'CLAUDE.md')?.reason ?? '', /edited by hand/);
    assert.equal(removed.advisories?.[0]?.kind, 'uninstall-strip-incomplete');
    for (const gone of ['AGENTS.md', '.mcp.json', '.claude/settings.json'])
      assert.ok(!existsSync(join(r.root, gone)), gone);
  });

  it('compiles [instructions] sources in order, globs sorted; a missing default is skipped, a missing named file refused', async () => {
    const r = repo(
      { 'docs/agents/b.md': 'B rules.\n', 'docs/agents/a.md': 'A rules.\n', 'TEAM.md': 'Team rules.\n' },
      '[project]\nagents = ["claude_code"]\n\n[instructions]\nsources = ["TEAM.md", "docs/agents/*.md"]\n',
    );
    const data = await refreshed(r);
    assert.deepEqual(data.sources, ['TEAM.md', 'docs/agents/a.md', 'docs/agents/b.md']);
    const text = read(r, 'CLAUDE.md');
    assert.ok(
      text.indexOf('Team rules.') < text.indexOf('A rules.') && text.indexOf('A rules.') < text.indexOf('B rules.'),
    );
    assert.ok(
      text.indexOf('## Working in this repository with discern') < text.indexOf('Team rules.'),
      'the built-ins come first',
    );

    const missing = repo({}, '[instructions]\nsources = ["discern/instructions.md"]\n');
    const { result } = await refresh(missing);
    assert.equal(result.error, 'invalid_config');
    assert.match(
      result.message ?? '',
      /\[instructions\] sources names discern\/instructions\.md, which does not exist/,
    );
    assert.match((result.hints ?? []).at(-1) ?? '', /^Fix discern\.toml at \[instructions\] sources/);
    assert.ok(!existsSync(join(missing.root, 'CLAUDE.md')));

    const fresh = repo();
    assert.deepEqual((await refreshed(fresh)).sources, [], 'the default source is skipped when it does not exist');
  });

  it("indexes the map's decision records in a region of decisions/README.md", async () => {
    const r = repo({
      'discern/map/decisions/README.md': '# Decisions\n\nWhy we chose what we chose.\n',
      'discern/map/decisions/0002-second.md': '---\ntitle: Queue landings\n---\n\nText.\n',
      'discern/map/decisions/0001-first.md': '# 0001 — Spec first\n\nText.\n',
      'discern/map/decisions/0010-tenth.md': 'No heading.\n',
      'discern/map/decisions/notes.md': 'Not a record.\n',
    });
    const data = await refreshed(r);
    assert.deepEqual(data.adr_index_written, ['discern/map/decisions/README.md']);
    assert.equal(
      read(r, 'discern/map/decisions/README.md'),
      '# Decisions\n\nWhy we chose what we chose.\n\n<!-- discern:begin adr-index sha256:493a0088743eae7c: written by discern refresh from the decision records in this folder -->\n- 0001 — [Spec first](0001-first.md)\n- 0002 — [Queue landings](0002-second.md)\n- 0010 — [Tenth](0010-tenth.md)\n<!-- discern:end -->\n',
    );
    r.write('discern/map/decisions/0003-third.md', '# Third\n');
    await refreshed(r);
    assert.match(
      read(r, 'discern/map/decisions/README.md'),
      /\(0002-second\.md\)\n- 0003 — \[Third\]\(0003-third\.md\)\n- 0010/,
    );
    // No decisions folder, no index.
    assert.deepEqual((await refreshed(repo())).adr_index_written, []);
  });

  it('materialises authored skills, replaces an ejected built-in, excludes and prunes; never touches a skill it did not write', async () => {
    const r = repo(
      {
        'discern/skills/release/SKILL.md':
          '---\nname: release\ndescription: Cut a release of this project.\n---\n\n# Release\n\nSteps.\n',
        'discern/skills/discern-land-change/SKILL.md':
          '---\nname: discern-land-change\ndescription: Our own way to land.\n---\n\nOurs.\n',
        'discern/skills/notes/README.md': 'not a skill\n',
        '.claude/skills/mine/SKILL.md': "---\nname: mine\ndescription: Someone's own.\n---\n",
      },
      '[project]\nagents = ["claude_code"]\n\n[skills]\nexclude = ["discern-diagnose-failure"]\n',
    );
    const data = await refreshed(r);
    assert.deepEqual(data.skills.copied, [
      '.claude/skills/discern-land-change/SKILL.md',
      '.claude/skills/release/SKILL.md',
    ]);
    assert.match(
      read(r, '.claude/skills/release/SKILL.md'),
      /^---\nname: release\ndescription: Cut a release of this project\.\n---\n<!-- discern:materialised from discern\/skills\/release\/SKILL\.md; [^\n]*-->\n\n# Release\n/,
    );
    assert.match(read(r, '.claude/skills/discern-land-change/SKILL.md'), /Ours\.\n$/);
    assert.ok(!existsSync(join(r.root, '.claude/skills/discern-diagnose-failure')));
    assert.equal(read(r, '.claude/skills/mine/SKILL.md'), "---\nname: mine\ndescription: Someone's own.\n---\n");

    // The authored skill goes: its copy is pruned, folder and all; someone's own skill stays.
    r.write('discern.toml', '[project]\nagents = ["claude_code"]\n');
    const { rmSync } = await import('node:fs');
    rmSync(join(r.root, 'discern/skills/release'), { recursive: true });
    const next = await refreshed(r);
    assert.deepEqual(next.skills.pruned, ['.claude/skills/release/SKILL.md']);
    assert.deepEqual(next.skills.copied, ['.claude/skills/discern-diagnose-failure/SKILL.md']);
    assert.ok(!existsSync(join(r.root, '.claude/skills/release')));
    assert.ok(existsSync(join(r.root, '.claude/skills/mine/SKILL.md')));

    // A skill someone wrote where refresh would put one is left alone, and said so.
    r.write(
      '.claude/skills/discern-diagnose-failure/SKILL.md',
      '---\nname: discern-diagnose-failure\ndescription: hand-made\n---\n',
    );
    const blocked = await refreshed(r);
    assert.deepEqual(
      blocked.skipped.map((s) => s.path),
      ['.claude/skills/discern-diagnose-failure/SKILL.md'],
    );
    assert.match(read(r, '.claude/skills/discern-diagnose-failure/SKILL.md'), /hand-made/);
  });

  it('materialises an Agent Skills SKILL.md with its optional fields, the metadata map among them', async () => {
    const text = [
      '---',
      'name: pdf-forms',
      'description: >-',
      '  Fills PDF forms',
      '  from a JSON file.',
      'license: Apache-2.0',
      'compatibility: Needs python3',
      'allowed-tools: Bash(python3:*) Read',
      'metadata:',
      '  author: example-org',
      '  version: "1.0"',
      '---',
      'Run `python3 fill.py`.',
      '',
    ].join('\n');
    const r = repo({ 'discern/skills/pdf-forms/SKILL.md': text });
    const data = await refreshed(r);
    assert.ok(data.changes.some((c) => c.path === '.claude/skills/pdf-forms/SKILL.md'));
    assert.match(read(r, '.claude/skills/pdf-forms/SKILL.md'), /metadata:\n {2}author: example-org\n/);
  });

  it('refuses an authored skill whose front matter is wrong, naming the file', async () => {
    const r = repo({ 'discern/skills/oops/SKILL.md': '---\nname: other\ndescription: x\n---\n' });
    const { result } = await refresh(r);
    assert.equal(result.error, 'invalid_settings_file');
    assert.match(
      result.message ?? '',
      /discern\/skills\/oops\/SKILL\.md: its name "other" differs from its folder "oops"/,
    );
    assert.match((result.hints ?? []).at(-1) ?? '', /^Fix discern\/skills\/oops\/SKILL\.md at the front matter/);
  });

  it("takes out what it wrote for an agent no longer configured, leaving the user's text", async () => {
    const r = repo({ 'GEMINI.md': '# Gemini notes\n', '.gemini/settings.json': '{\n  "theme": "dark"\n}\n' }, ALL);
    await refreshed(r);
    r.write('discern.toml', '[project]\nagents = ["claude_code"]\n');
    const data = await refreshed(r);
    assert.deepEqual(data.removed.sort(), [
      '.codex/config.toml',
      '.cursor/mcp.json',
      '.gemini/settings.json',
      '.vscode/mcp.json',
      'AGENTS.md',
      'GEMINI.md',
    ]);
    assert.deepEqual(data.skills.pruned.sort(), BUILTIN_SKILLS.map((s) => `.agents/skills/${s.name}/SKILL.md`).sort());
    assert.equal(read(r, 'GEMINI.md'), '# Gemini notes\n');
    assert.equal(read(r, '.gemini/settings.json'), '{\n  "theme": "dark"\n}\n');
    for (const gone of ['AGENTS.md', '.codex', '.cursor', '.vscode', '.agents'])
      assert.ok(!existsSync(join(r.root, gone)), gone);
  });

  it('writes through a link inside the project once (CLAUDE.md → AGENTS.md), and refuses one that leads out', async () => {
    const r = repo({ 'AGENTS.md': '# Shared\n' });
    symlinkSync('AGENTS.md', join(r.root, 'CLAUDE.md'));
    const data = await refreshed(r);
    assert.deepEqual(
      data.changes.filter((c) => c.kind === 'instructions'),
      [
        {
          path: 'AGENTS.md',
          also: ['CLAUDE.md'],
          kind: 'instructions',
          action: 'update',
          agents: ['claude_code', 'codex'],
        },
      ],
    );
    assert.equal(read(r, 'AGENTS.md').match(/discern:begin/g)?.length, 1);

    const outside = tempDir('discern-outside-');
    const s = repo();
    symlinkSync(outside, join(s.root, '.cursor'));
    s.write('discern.toml', '[project]\nagents = ["cursor"]\n');
    const { result } = await refresh(s);
    assert.equal(result.error, 'write_denied');
    assert.match(result.message ?? '', /^\.cursor\/mcp\.json would be created outside the project/);
    assert.deepEqual(readdirSync(outside), []);
  });

  it('leaves a Codex server table written by hand, and refuses a config.toml that is not TOML', async () => {
    const own = '[mcp_servers.discern]\ncommand = "node"\nargs = ["/opt/discern/dist/discern.js", "mcp"]\n';
    const r = repo({ '.codex/config.toml': own }, '[project]\nagents = ["codex"]\n');
    const data = await refreshed(r);
    assert.deepEqual(
      data.skipped.map((s) => s.path),
      ['.codex/config.toml'],
    );
    assert.equal(read(r, '.codex/config.toml'), own);

    const bad = repo({ '.codex/config.toml': 'model = \n' }, '[project]\nagents = ["codex"]\n');
    const { result } = await refresh(bad);
    assert.equal(result.error, 'invalid_settings_file');
    assert.match(result.message ?? '', /^\.codex\/config\.toml: not valid TOML/);

    const other = '[profile.fast]\nmodel = "o4"\n';
    const c = repo({ '.codex/config.toml': other }, '[project]\nagents = ["codex"]\n');
    await refreshed(c);
    assert.deepEqual(toml(read(c, '.codex/config.toml')), {
      profile: { fast: { model: 'o4' } },
      mcp_servers: { discern: { command: 'discern', args: ['mcp'], ...CODEX_LIMITS } },
    });
    assert.ok(read(c, '.codex/config.toml').startsWith(`${other}\n# discern:begin`));
  });

  it('a failure part-way is partial_refresh with what completed and a safe retry that finishes the rest', async () => {
    const r = repo();
    const { result, data } = await refresh(r, {}, { DISCERN_FAULT: 'refresh:write:.mcp.json' });
    assert.equal(result.error, 'partial_refresh', JSON.stringify(result));
    assert.deepEqual(data?.completed, ['CLAUDE.md', 'AGENTS.md']);
    assert.deepEqual(data?.recovery, { command: 'discern refresh', safe_to_retry: true });
    assert.deepEqual(result.steps?.map((s) => s.outcome).slice(0, 4), ['ok', 'ok', 'failed', 'skipped']);
    assert.match((result.hints ?? []).at(-1) ?? '', /run `discern refresh` again: it is safe to retry/);
    assert.ok(!existsSync(join(r.root, '.mcp.json')));
    const finished = await refreshed(r);
    assert.deepEqual(finished.current, ['CLAUDE.md', 'AGENTS.md']);
    assert.ok(finished.mcp_wired.includes('.mcp.json'));
  });

  it('the CLI: `discern refresh --dry-run` plans, `discern refresh` writes, exit 0; a refusal exits non-zero', async () => {
    const r = repo();
    const planned = await runCli(['refresh', '--dry-run', '--json'], { cwd: r.root });
    assert.equal(planned.code, 0, planned.stderr);
    assert.equal(onlyJson(planned)['dry_run'], true);
    assert.ok(!existsSync(join(r.root, 'CLAUDE.md')));
    const written = await runCli(['refresh'], { cwd: r.root });
    assert.equal(written.code, 0, written.stderr);
    // The human view: the authored **Refreshed** drawn without its Markdown markers.
    assert.match(written.stdout, /^Refreshed: \d+ files written/m);
    writeFileSync(join(r.root, '.mcp.json'), 'not json');
    const refused = await runCli(['refresh', '--json'], { cwd: r.root });
    assert.notEqual(refused.code, 0);
    assert.equal(onlyJson(refused)['error'], 'invalid_settings_file');
  });

  it('was driven through success and failure', () => {
    assertDriven(['refresh']);
  });
});

describe('refresh: the command the files start discern with', () => {
  const DEV = '{ "name": "app", "devDependencies": { "discern-cli": "^0.1.0" } }\n';
  const codexArgs = (r: ScratchRepo): unknown =>
    (toml(read(r, '.codex/config.toml')) as { mcp_servers?: { discern?: { command: string; args: string[] } } })
      .mcp_servers?.discern;

  it("runs the project's own discern-cli with npx when package.json lists it, and the PATH's once it does not", async () => {
    const r = repo({ 'package.json': DEV });
    const first = await refresh(r);
    assert.ok(first.result.ok, JSON.stringify(first.result, null, 2));
    const entry = (json(r, '.mcp.json')['mcpServers'] as Record<string, unknown>)['discern'];
    assert.deepEqual(entry, { type: 'stdio', command: 'npx', args: ['--no-install', 'discern', 'mcp'] });
    assert.deepEqual(codexArgs(r), { command: 'npx', args: ['--no-install', 'discern', 'mcp'], ...CODEX_LIMITS });
    assert.match(read(r, '.claude/settings.json'), /"npx --no-install discern hook session-start"/);
    assert.ok(
      (first.result.hints ?? []).some((h) => h.includes('codex mcp add discern -- npx --no-install discern mcp')),
    );

    // Dropped from the project (and on a clone with no ledger of what refresh wrote): back to the PATH's discern.
    writeFileSync(join(r.root, 'package.json'), '{ "name": "app" }\n');
    execFileSync('rm', ['-f', join(r.root, '.git', 'discern', 'refresh-ownership.json')]);
    const second = await refresh(r);
    assert.ok(second.result.ok, JSON.stringify(second.result, null, 2));
    assert.deepEqual((json(r, '.mcp.json')['mcpServers'] as Record<string, unknown>)['discern'], {
      type: 'stdio',
      command: 'discern',
      args: ['mcp'],
    });
    assert.deepEqual(codexArgs(r), { command: 'discern', args: ['mcp'], ...CODEX_LIMITS });
    assert.match(read(r, '.claude/settings.json'), /"discern hook session-start"/);
    assert.doesNotMatch(read(r, '.claude/settings.json'), /npx/);
  });

  it('runs what [project] command says, and takes it back out when the key goes', async () => {
    const r = repo({}, '[project]\nname = "wired"\ncommand = "pnpm exec discern"\n');
    const first = await refresh(r);
    assert.ok(first.result.ok, JSON.stringify(first.result, null, 2));
    assert.deepEqual((json(r, '.mcp.json')['mcpServers'] as Record<string, unknown>)['discern'], {
      type: 'stdio',
      command: 'pnpm',
      args: ['exec', 'discern', 'mcp'],
    });
    assert.deepEqual(codexArgs(r), { command: 'pnpm', args: ['exec', 'discern', 'mcp'], ...CODEX_LIMITS });
    assert.match(read(r, '.claude/settings.json'), /"pnpm exec discern hook session-start"/);
    // The project's own command is never started by refresh (doctor looks its program up): no probe, no hint.
    assert.ok(!(first.result.hints ?? []).some((h) => /does not start/.test(h)), JSON.stringify(first.result.hints));
    writeFileSync(join(r.root, 'discern.toml'), '[project]\nname = "wired"\n');
    const second = await refresh(r);
    assert.ok(second.result.ok, JSON.stringify(second.result, null, 2));
    assert.equal(
      ((json(r, '.mcp.json')['mcpServers'] as Record<string, unknown>)['discern'] as { command: string }).command,
      'discern',
    );
    assert.match(read(r, '.claude/settings.json'), /"discern hook session-start"/);
    assert.deepEqual(second.data?.skipped, []);
  });

  it('refuses a [project] command that needs shell quoting', async () => {
    const r = repo({}, '[project]\ncommand = "npx \'discern\'"\n');
    const { result } = await refresh(r);
    assert.equal(result.ok, false);
    assert.match(result.message ?? '', /project\.command/);
  });

  it("sets Codex's start-up limit from the wired command's measured start-up, and never lowers one a file holds", async () => {
    // A server that answers initialize after 2.6 s: four times that is 10.4 s, so 15 s in 5 s steps.
    const slow = [
      'setTimeout(() => {',
      '  process.stdin.once("data", () => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: 1, result: {} }) + "\\n"));',
      '}, 2600);',
      'process.stdin.on("end", () => process.exit(0));',
    ].join('\n');
    const r = repo({ 'slow-server.cjs': slow }, '[project]\nname = "wired"\nagents = ["codex"]\n');
    // The `discern` on the PATH, as a global install puts it there, is that server.
    const dir = tempDir('discern-path-');
    writeFileSync(join(dir, 'discern'), `#!/bin/sh\nexec "${process.execPath}" "${join(r.root, 'slow-server.cjs')}"\n`);
    chmodSync(join(dir, 'discern'), 0o755);
    const path = { PATH: `${dir}:${process.env['PATH'] ?? ''}` };
    const { result } = await refresh(r, {}, path);
    assert.ok(result.ok, JSON.stringify(result, null, 2));
    assert.equal((codexArgs(r) as { startup_timeout_sec?: number }).startup_timeout_sec, 15);
    // A faster machine measures less: the committed 15 s stays, so the file does not churn between teammates.
    writeFileSync(join(r.root, 'slow-server.cjs'), slow.replace('2600', '10'));
    const again = await refresh(r, {}, path);
    assert.ok(again.result.ok);
    assert.equal((codexArgs(r) as { startup_timeout_sec?: number }).startup_timeout_sec, 15);
    assert.deepEqual(
      (again.data?.changes ?? []).map((c) => c.path),
      [],
    );
  });

  it('brings the hook an earlier discern wrote (`discern status --markdown`) up to the JSON one', async () => {
    const earlier = {
      hooks: {
        SessionStart: [
          { matcher: 'startup|clear|compact', hooks: [{ type: 'command', command: 'discern status --markdown' }] },
          { matcher: 'startup', hooks: [{ type: 'command', command: 'echo mine' }] },
        ],
      },
    };
    const r = repo({ '.claude/settings.json': JSON.stringify(earlier, null, 2) });
    await refreshed(r);
    assert.deepEqual(json(r, '.claude/settings.json'), {
      hooks: {
        SessionStart: [
          { matcher: 'startup|clear|compact', hooks: [{ type: 'command', command: 'discern hook session-start' }] },
          { matcher: 'startup', hooks: [{ type: 'command', command: 'echo mine' }] },
        ],
      },
    });
  });

  it("under yarn's Plug'n'Play, the PATH's discern, with a hint saying why", async () => {
    const r = repo({ 'package.json': DEV, '.pnp.cjs': '// yarn pnp\n' });
    const { result } = await refresh(r);
    assert.ok(result.ok, JSON.stringify(result, null, 2));
    assert.equal(
      ((json(r, '.mcp.json')['mcpServers'] as Record<string, unknown>)['discern'] as { command: string }).command,
      'discern',
    );
    assert.ok(
      (result.hints ?? []).some((h) => /Plug'n'Play keeps no node_modules\/\.bin/.test(h)),
      JSON.stringify(result.hints),
    );
  });
});
