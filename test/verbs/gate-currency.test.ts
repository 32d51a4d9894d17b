// The gate's currency preconditions: the map's links must resolve to files the proven commit tracks.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import type { DiscernDoneData } from '../../generated/types.js';
import { pageBrokenLinks } from '../../src/engine/gate/map-integrity.js';
import { call } from '../helpers/drive.js';
import { cleanupGate, gateRepo } from '../helpers/gate-repo.js';
import { scratchRepo } from '../helpers/scratch-repo.js';

after(cleanupGate);

describe('map integrity', () => {
  it('a map link to a file the commit does not track fails the gate before any job runs; fixing it proves', async () => {
    const r = gateRepo('[jobs]\ntest = "true"\n', {
      'discern/map/index.md':
        '# Map\n\nSee [the API](api.md), [code](../../src/a.js#L3), [site](https://example.com) and [top](#map).\n\n```md\n[in a fence](nowhere.md)\n```\n`[in code](nowhere.md)`\n',
      'discern/map/api.md': '# API\n\n[gone](old/removed.md) and [a folder](../../src)\n',
      'src/a.js': 'a\n',
    });
    const red = await call('done', {}, r.root);
    assert.equal(red.error, 'gate_failed', JSON.stringify(red));
    const data = red.data as DiscernDoneData;
    assert.equal(data.failed_stage, 'map_integrity');
    assert.equal(data.gate_ran, false, 'a failed precondition stops the gate before its jobs');
    assert.deepEqual(
      red.diagnostics?.map((d) => [d.file, d.line, d.message]),
      [['discern/map/api.md', 3, 'link to old/removed.md resolves to nothing tracked']],
    );
    assert.ok(
      !red.steps?.some((s) => s.kind === 'job' && s.label !== "discern's state directory is writable"),
      'no project job ran',
    );
    r.write('discern/map/api.md', '# API\n\n[a folder](../../src)\n');
    r.commit('fix the map link');
    const green = await call('done', {}, r.root);
    assert.equal(green.ok, true, JSON.stringify(green));
    assert.ok(green.steps?.some((s) => s.kind === 'map-integrity-check' && s.outcome === 'ok'));
  });

  it('links that leave the repository, or resolve to nothing, are broken; anchors, schemes and fences are not links to check', () => {
    const exists = (p: string): boolean => p === 'docs/a.md' || p === 'docs';
    assert.deepEqual(
      pageBrokenLinks(
        'docs/map/x.md',
        '[a](../a.md) [b](../../../out.md) [c](mailto:x@y) [d](#top) [e](<../a%20b.md>) [f](../)',
        exists,
      ).map((b) => b.target),
      ['../../../out.md', '../a%20b.md'],
    );
  });
});

describe('refresh currency', () => {
  it('once refresh owns parts of files, a commit whose instructions lag the config fails as instructions; refreshed, it proves', async () => {
    const r = gateRepo('[jobs]\ntest = "true"\n\n[instructions]\nsources = ["notes.md"]\n', {
      'notes.md': '# House rules\n\nUse tabs.\n',
    });
    const never = await call('done', {}, r.root);
    assert.equal(never.ok, true, `a project that never ran refresh is not failed for it: ${JSON.stringify(never)}`);
    // The user's own CLAUDE.md and .mcp.json (refresh would add its part to them) do not count as adopting it.
    r.write('CLAUDE.md', '# Our notes for Claude\n');
    r.write('.mcp.json', '{ "mcpServers": { "other": { "command": "other" } } }\n');
    r.commit('our own agent files');
    const own = await call('done', {}, r.root);
    assert.equal(own.ok, true, `files without discern's part are not drift: ${JSON.stringify(own)}`);
    const refreshed = await call('refresh', {}, r.root);
    assert.equal(refreshed.ok, true, JSON.stringify(refreshed));
    r.commit('wire the agents');
    const green = await call('done', {}, r.root);
    assert.equal(green.ok, true, JSON.stringify(green));
    assert.ok(green.steps?.some((s) => s.kind === 'tracked-refresh-check' && s.outcome === 'ok'));

    r.write('notes.md', '# House rules\n\nUse spaces.\n');
    r.commit('change the rules, forget refresh');
    const red = await call('done', {}, r.root);
    assert.equal(red.error, 'gate_failed', JSON.stringify(red));
    assert.equal((red.data as DiscernDoneData).failed_stage, 'instructions');
    assert.deepEqual(
      red.diagnostics?.map((d) => [d.file, d.message, d.reproduce_cmd]),
      // CLAUDE.md only imports AGENTS.md when Codex reads it too, so the instructions lag in AGENTS.md alone.
      [['AGENTS.md', 'instructions out of date', 'discern refresh --dry-run']],
    );

    assert.equal((await call('refresh', {}, r.root)).ok, true);
    r.commit('refresh');
    const again = await call('done', {}, r.root);
    assert.equal(again.ok, true, JSON.stringify(again));
  });
});

describe('refresh currency and the ignore rules', () => {
  it('a refresh target the ignore rules cover is never in a commit, so it is not drift', async () => {
    const r = scratchRepo({
      'discern.toml':
        '[project]\nname = "Gate"\nagents = ["claude_code", "copilot"]\n\n[repository]\ntrunk = "main"\n\n[jobs]\ntest = "true"\n',
      '.gitignore': '.vscode/\n',
    });
    assert.equal((await call('refresh', {}, r.root)).ok, true);
    r.commit('wire the agents; .vscode/ stays local');
    const green = await call('done', {}, r.root);
    assert.equal(green.ok, true, JSON.stringify(green));
  });
});
