// improvement on real scratch repositories: a well set-up project (refreshed, proven, measured) scores high and
// a bare one low; real records move real rules (Proof on HEAD, a new commit, a broken map link, a worktree
// whose folder is gone, an old unlanded effort); the category filter, unknown_category, min_score with
// below_min_score (the audit kept, Markdown ending with the next action), deterministic ranking; the CLI's exit
// codes and the MCP tool through the SDK client. Every result is validated against the published schema.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DiscernImprovementAudit, DiscernResult } from '../../generated/types.js';
import { renderMarkdown } from '../../src/render/markdown/index.js';
import { assertDriven, call } from '../helpers/drive.js';
import { onlyJson, runCli } from '../helpers/cli.js';
import { connectStdio } from '../helpers/mcp-client.js';
import { cleanEnv, scratchRepo, tempDir, type ScratchRepo } from '../helpers/scratch-repo.js';
import { writeSealed } from '../../src/engine/state/seal.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

/** Whether this configuration format knows [checkpoints] yet (it is being added beside this verb). */
const CHECKPOINTS_IN_SCHEMA =
  'checkpoints' in
  (
    JSON.parse(readFileSync(new URL('../../spec/config.schema.json', import.meta.url), 'utf8')) as {
      properties: object;
    }
  ).properties;

const WELL_CONFIG = `[meta]
schema_version = 1

[project]
name = "Well kept"
slug = "well-kept"
agents = ["claude_code"]

[repository]
trunk = "main"

[jobs]
format = ":"
lint = "git --version"
typecheck = "git --version"
test = "git --version"

[scopes.docs]
paths = ["docs/**", "*.md", "discern/**"]
neutral = true

[scopes.src]
paths = ["src/**"]

[standards.files]
direction = "up"
limit = 1
margin = 0.5
run = "printf 'DISCERN_METRIC files 3\\n'"
${CHECKPOINTS_IN_SCHEMA ? '\n[checkpoints.source]\npaths = ["src/**"]\nmode = "advise"\nquestion = "Does the change keep the public API?"\n' : ''}`;

const page = (title: string, body: string): string =>
  `---\ntitle: ${title}\ndescription: What ${title.toLowerCase()} answers.\n---\n\n# ${title}\n\n${body}\n`;

const WELL_FILES: Record<string, string> = {
  'discern.toml': WELL_CONFIG,
  'src/app.js': 'export const answer = 42;\n',
  'discern/instructions.md': `# Working here\n\n${'Build with the test job; the code lives in src/ and the map in discern/map/. Keep functions small and pure. '.repeat(3)}\n`,
  'discern/map/10-code/app.md': page('App', 'The app lives in `src/app.js`; see [the overview](overview.md).'),
  'discern/map/10-code/overview.md': page('Overview', 'One module, [app](app.md).'),
  'discern/map/20-work/release.md': page('Release', 'Tag, then publish.'),
  'discern/map/gotchas.md': page('Gotchas', '- The test job needs git on PATH.\n- Never edit generated files by hand.'),
  'discern/map/decisions/0001-one-module.md': '# 0001 — One module\n\nContext, decision, consequences.\n',
  'discern/skills/release/SKILL.md':
    '---\nname: release\ndescription: Cut a release of this project.\n---\n\n1. Tag.\n2. Publish.\n',
};

/** A project set up the way discern asks: refreshed, committed, proven and measured. */
async function wellSetUp(): Promise<ScratchRepo> {
  const repo = scratchRepo(WELL_FILES);
  repos.push(repo);
  const refreshed = await call('refresh', {}, repo.root);
  assert.ok(refreshed.ok, JSON.stringify(refreshed));
  repo.commit('refresh');
  const done = await call('done', {}, repo.root);
  assert.ok(done.ok, JSON.stringify(done));
  return repo;
}

function bare(): ScratchRepo {
  const repo = scratchRepo({ 'discern.toml': '[project]\nname = "Bare"\n\n[jobs]\ntest = "git --version"\n' });
  repos.push(repo);
  return repo;
}

function auditOf(result: DiscernResult): DiscernImprovementAudit {
  assert.equal(result.verb, 'improvement');
  const data = result.verb === 'improvement' ? result.data : undefined;
  assert.ok(data && 'categories' in data, JSON.stringify(result));
  return data;
}

function rule(
  audit: DiscernImprovementAudit,
  id: string,
): { status: string; evidence: { detail: string; read: string[] }; fix?: string } {
  const found = audit.categories.flatMap((c) => c.rules).find((r) => r.id === id);
  assert.ok(found, `rule ${id}`);
  return found;
}

describe('improvement on a well set-up project', () => {
  let repo: ScratchRepo;
  before(async () => {
    repo = await wellSetUp();
  });

  it('scores high: every rule passes but the checkpoints this format cannot hold yet', async () => {
    const result = await call('improvement', {}, repo.root);
    assert.ok(result.ok, JSON.stringify(result));
    const audit = auditOf(result);
    const failing = audit.categories
      .flatMap((c) => c.rules)
      .filter((r) => r.status !== 'pass')
      .map((r) => `${r.id}: ${r.evidence.detail}`);
    if (CHECKPOINTS_IN_SCHEMA) {
      assert.deepEqual(failing, []);
      assert.equal(audit.score, 100);
    } else {
      assert.deepEqual(
        failing.map((f) => f.split(':')[0]),
        ['checkpoints.configured', 'checkpoints.questions'],
      );
      assert.ok(audit.score >= 85, `score ${audit.score}`);
      assert.deepEqual(audit.weak, ['checkpoints']);
      assert.equal(audit.next_action?.id, 'checkpoints.configured');
      assert.equal(audit.next_action?.kind, 'decide');
    }
    assert.match(rule(audit, 'gate.green-head').evidence.detail, /^Proof for HEAD [0-9a-f]{12} was recorded/);
    assert.match(rule(audit, 'standards.measured').evidence.detail, /Every gate standard \(1\) has a recorded value/);
    assert.match(rule(audit, 'map.pages').evidence.detail, /6 tracked pages in 3 regions/);
    assert.match(rule(audit, 'skills.authored').evidence.detail, /1 authored skill: release/);
    assert.match(rule(audit, 'instructions.gotchas').evidence.detail, /^discern\/map\/gotchas\.md \(\d+ bytes\)/);
  });

  it('a new commit leaves the Proof behind: gate.green-head is partial and the next action is done', async () => {
    const r = await wellSetUp();
    r.write('src/app.js', 'export const answer = 43;\n');
    r.commit('change');
    const audit = auditOf(await call('improvement', { category: 'gate' }, r.root));
    const green = rule(audit, 'gate.green-head');
    assert.equal(green.status, 'partial');
    assert.match(green.evidence.detail, /No gate run on HEAD .*Proof is for an older commit/);
    assert.equal(audit.next_action?.id, 'gate.green-head');
    assert.match(audit.next_action?.action ?? '', /discern done/);
    assert.match(audit.next_action?.why ?? '', /read: .*gate-proof/);
  });

  it('min_score at or under the score succeeds and echoes the minimum', async () => {
    const result = await call('improvement', { min_score: 80 }, repo.root);
    assert.ok(result.ok);
    assert.equal(auditOf(result).min_score, 80);
  });
});

describe('improvement on a bare project', () => {
  it('scores low, with weak categories and a ranked next action citing its evidence', async () => {
    const r = bare();
    const result = await call('improvement', {}, r.root);
    assert.ok(result.ok);
    const audit = auditOf(result);
    assert.ok(audit.score < 50, `score ${audit.score}`);
    for (const name of ['instructions', 'standards', 'checkpoints', 'skills'])
      assert.ok(audit.weak.includes(name), `${name} weak in ${audit.weak.join(', ')}`);
    assert.ok(audit.next_action);
    assert.ok(audit.weak.includes(audit.next_action.category), 'the next action comes from a weak category');
    const weakest = Math.min(...audit.categories.map((c) => c.score));
    assert.equal(
      audit.categories.find((c) => c.name === audit.next_action?.category)?.score,
      weakest,
      'from the weakest',
    );
    assert.ok((audit.recommendations ?? []).length > 0 && (audit.recommendations ?? []).length <= 5);
    assert.equal(
      result.hints?.at(-1),
      `Next improvement (${audit.next_action.id}, ${audit.next_action.kind}): ${audit.next_action.action}`,
    );
    assert.ok(
      renderMarkdown(result).trimEnd().endsWith(audit.next_action.action),
      'the Markdown ends with the next action',
    );
    assert.equal(rule(audit, 'map.pages').status, 'fail');
    assert.equal(rule(audit, 'setup.identity').status, 'partial', 'a name and no slug');
  });

  it('ranks deterministically: the same project gives the same next action and recommendations', async () => {
    const r = bare();
    const first = auditOf(await call('improvement', {}, r.root));
    const second = auditOf(await call('improvement', {}, r.root));
    assert.deepEqual([second.next_action, second.recommendations], [first.next_action, first.recommendations]);
  });

  it('below min_score fails with below_min_score, keeps the audit, and names the next action', async () => {
    const r = bare();
    const result = await call('improvement', { min_score: 90 }, r.root);
    assert.equal(result.ok, false);
    assert.equal(result.error, 'below_min_score');
    const audit = auditOf(result);
    assert.ok(audit.score < 90);
    assert.match(result.message ?? '', new RegExp(`score is ${audit.score}, below the minimum 90`));
    const last = result.hints?.at(-1) ?? '';
    assert.ok(
      last.includes(audit.next_action?.id ?? '∅') && last.includes('discern_improvement with min_score 90'),
      last,
    );
    assert.ok(renderMarkdown(result).trimEnd().endsWith(last));
  });
});

describe('the category filter', () => {
  it('audits one category, whose score is the score', async () => {
    const r = bare();
    const audit = auditOf(await call('improvement', { category: 'map' }, r.root));
    assert.deepEqual(
      audit.categories.map((c) => c.name),
      ['map'],
    );
    assert.equal(audit.category, 'map');
    assert.equal(audit.score, audit.categories[0]?.score);
    assert.equal(audit.next_action?.category, 'map');
  });
  it('refuses an unknown category with unknown_category and the known names, closest first', async () => {
    const r = bare();
    const result = await call('improvement', { category: 'mapp' }, r.root);
    assert.equal(result.error, 'unknown_category');
    assert.match(
      result.message ?? '',
      /the categories are gate, setup, instructions, map, worktrees, standards, checkpoints, skills/,
    );
    const data = result.verb === 'improvement' ? result.data : undefined;
    assert.ok(data && 'suggestions' in data);
    assert.equal(data.suggestions?.[0], 'map');
    assert.equal(data.suggestions?.length, 8);
  });
  it("with min_score, compares that category's score", async () => {
    const r = bare();
    const result = await call('improvement', { category: 'worktrees', min_score: 100 }, r.root);
    assert.ok(result.ok, 'a bare repository has no broken worktrees or stuck landings');
  });
});

describe('real records move real rules', () => {
  it('a broken map link, a worktree whose folder is gone, and an old unlanded effort', async () => {
    const r = bare();
    r.write('discern/map/10-a/page.md', page('Page', 'See [missing](gone.md).'));
    r.commit('map');
    r.git('branch', 'agent/old');
    r.git('worktree', 'add', '-q', '-b', 'agent/doomed', `${r.root}.worktrees/doomed`);
    rmSync(`${r.root}.worktrees/doomed`, { recursive: true, force: true });
    r.git('checkout', '-q', 'agent/old');
    r.write('old.txt', 'old work');
    r.git('add', '-A');
    const old = '2020-01-01T00:00:00Z';
    execGit(r, ['commit', '-q', '-m', 'old work'], { GIT_COMMITTER_DATE: old, GIT_AUTHOR_DATE: old });
    r.git('checkout', '-q', 'main');
    const audit = auditOf(await call('improvement', {}, r.root));
    assert.equal(rule(audit, 'map.links').status, 'fail');
    assert.match(rule(audit, 'map.links').evidence.detail, /discern\/map\/10-a\/page\.md:\d+ → gone\.md/);
    assert.equal(rule(audit, 'worktrees.healthy').status, 'fail');
    assert.match(rule(audit, 'worktrees.healthy').fix ?? '', /discern worktree prune/);
    const stale = rule(audit, 'worktrees.stale-efforts');
    assert.equal(stale.status, 'fail');
    assert.match(stale.evidence.detail, /agent\/old \(\d+ days\)/);
    const reviews = audit.categories.find((c) => c.name === 'worktrees')?.reviews ?? [];
    assert.deepEqual(
      reviews.map((x) => x.subject),
      ['branch agent/old'],
    );
    assert.ok(audit.open_reviews >= 1);
  });
});

describe('discern.toml beyond its schema', () => {
  it('a job whose program does not resolve is partial; a pre_authorized name that is no scope fails', async () => {
    const r = scratchRepo({
      'discern.toml': '[project]\nname = "Checks"\n\n[jobs]\ntest = "no-such-program-here --run"\n',
    });
    repos.push(r);
    const warned = rule(auditOf(await call('improvement', { category: 'setup' }, r.root)), 'setup.config-check');
    assert.equal(warned.status, 'partial');
    assert.match(warned.evidence.detail, /jobs\.test .*no-such-program-here/);
    r.write(
      'discern.toml',
      '[project]\nname = "Checks"\n\n[jobs]\ntest = "git --version"\n\n[acceptance]\npre_authorized = ["docs"]\n',
    );
    r.commit('grant');
    const failed = rule(auditOf(await call('improvement', { category: 'setup' }, r.root)), 'setup.config-check');
    assert.equal(failed.status, 'fail');
    assert.match(failed.evidence.detail, /acceptance\.pre_authorized\.0 names "docs"/);
  });
});

describe('the landing queue from its records', () => {
  it('a submission waiting five days is a review item; a landing that stopped part way fails the rule', async () => {
    const r = bare();
    const common = join(r.root, '.git', 'discern');
    const waiting = {
      format: 1,
      submission_id: 's1',
      effort: 'slow',
      branch: 'agent/slow',
      path: `${r.root}.worktrees/slow`,
      head: 'c'.repeat(40),
      submitted_at: new Date(Date.now() - 5 * 86_400_000).toISOString(),
    };
    mkdirSync(join(common, 'submissions'), { recursive: true });
    // Written as discern writes it: sealed under the repository key (a hand-written one is not honoured).
    await writeSealed('submission', join(common, 'submissions', 'slow.json'), waiting, join(r.root, '.git'));
    let audit = auditOf(await call('improvement', { category: 'worktrees' }, r.root));
    assert.equal(rule(audit, 'worktrees.queue').status, 'partial');
    assert.deepEqual(
      audit.categories[0]?.reviews.map((x) => x.subject),
      ['submission slow'],
    );
    const stopped = {
      format: 1,
      effort: 'slow',
      branch: 'agent/slow',
      path: waiting.path,
      head: waiting.head,
      trunk: 'main',
      trunk_before: 'd'.repeat(40),
      step: 'composed',
      started_at: new Date(Date.now() - 3_600_000).toISOString(),
      consent: { source: 'test' },
    };
    mkdirSync(join(common, 'acceptance'), { recursive: true });
    writeFileSync(join(common, 'acceptance', 'slow.json'), JSON.stringify(stopped));
    audit = auditOf(await call('improvement', { category: 'worktrees' }, r.root));
    assert.equal(rule(audit, 'worktrees.queue').status, 'fail');
    assert.match(rule(audit, 'worktrees.queue').fix ?? '', /discern accept slow/);
  });
});

function execGit(r: ScratchRepo, args: string[], env: Record<string, string>): void {
  execFileSync('git', args, { cwd: r.root, env: cleanEnv({ GIT_CONFIG_NOSYSTEM: '1', ...env }), stdio: 'ignore' });
}

describe('the CLI', () => {
  it('--json prints one envelope; --min-score above the score exits 1 with the audit; an unknown --category exits 1', async () => {
    const r = bare();
    const ok = await runCli(['improvement', '--json'], { cwd: r.root });
    assert.equal(ok.code, 0, ok.stderr);
    const envelope = onlyJson(ok) as { ok: boolean; data: DiscernImprovementAudit };
    assert.equal(envelope.ok, true);
    const low = await runCli(['improvement', '--min-score', '99', '--json'], { cwd: r.root });
    assert.equal(low.code, 1);
    const refused = onlyJson(low) as { error: string; data: DiscernImprovementAudit; hints: string[] };
    assert.equal(refused.error, 'below_min_score');
    assert.equal(refused.data.score, envelope.data.score);
    assert.match(refused.hints.at(-1) ?? '', /`discern improvement --min-score 99`/);
    const markdown = await runCli(['improvement', '--min-score', '99', '--markdown'], { cwd: r.root });
    assert.equal(markdown.code, 1);
    assert.ok(markdown.stdout.trimEnd().endsWith(refused.hints.at(-1) ?? '∅'));
    const unknown = await runCli(['improvement', '--category', 'nope', '--json'], { cwd: r.root });
    assert.equal(unknown.code, 1);
    assert.equal((onlyJson(unknown) as { error: string }).error, 'unknown_category');
    const wrong = await runCli(['improvement', '--min-score', '101', '--json'], { cwd: r.root });
    assert.equal(wrong.code, 2, 'a score over 100 is an argument error');
  });
});

describe('the MCP tool through the SDK client', () => {
  it('discern_improvement answers with Markdown and the envelope; isError follows ok', async () => {
    const r = bare();
    const mcp = await connectStdio(tempDir());
    try {
      const tools = await mcp.client.listTools();
      const tool = tools.tools.find((t) => t.name === 'discern_improvement');
      assert.ok(tool);
      assert.deepEqual(tool.annotations, {
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      });
      assert.deepEqual(Object.keys((tool.inputSchema as { properties: object }).properties).sort(), [
        'category',
        'min_score',
        'path',
      ]);
      const ok = (await mcp.client.callTool({
        name: 'discern_improvement',
        arguments: { path: r.root, category: 'gate' },
      })) as { isError?: boolean; structuredContent?: Record<string, unknown>; content: { text?: string }[] };
      assert.equal(ok.isError, false);
      assert.equal(ok.structuredContent?.['ok'], true);
      assert.match(ok.content[0]?.text ?? '', /^# discern improvement: \d+\/100/);
      const low = (await mcp.client.callTool({
        name: 'discern_improvement',
        arguments: { path: r.root, min_score: 100 },
      })) as { isError?: boolean; structuredContent?: Record<string, unknown>; content: { text?: string }[] };
      assert.equal(low.isError, true);
      assert.equal(low.structuredContent?.['error'], 'below_min_score');
      const hints = low.structuredContent?.['hints'] as string[];
      assert.ok((low.content[0]?.text ?? '').trimEnd().endsWith(hints.at(-1) ?? '∅'));
      const bad = (await mcp.client.callTool({
        name: 'discern_improvement',
        arguments: { path: r.root, verbose: true },
      })) as { structuredContent?: Record<string, unknown> };
      assert.equal(bad.structuredContent?.['error'], 'invalid_arguments');
    } finally {
      await mcp.client.close();
    }
  });
});

describe('faithfulness', () => {
  it('improvement was driven through success and failure', () => {
    assertDriven(['improvement']);
  });
});
