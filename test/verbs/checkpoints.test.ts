// Checkpoints on real scratch repositories: each trigger (scope, paths, kinds, adds/removes_matching,
// new_directory, binary, min_changed_files/lines, deletion_dominant, min_commits, similar_new_file, when, exclude_paths,
// include_generated, the unless_changed veto), the merge-base config governing (a checkpoint added on the branch
// does not govern it), the discern_checkpoints report, and done: refusing awaiting_declaration before any job,
// green with met or unmet, advise only reported, ci reviewing without declarations, a question reopening when
// its files change, and a changed declaration making the Proof stale.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DiscernCheckpointsData, DiscernDoneData } from '../../generated/types.js';
import { onlyJson, runCli } from '../helpers/cli.js';
import { assertDriven, call } from '../helpers/drive.js';
import { serveQuestions } from '../../src/engine/checkpoints/index.js';
import {
  addWorktree,
  cleanupGate,
  count,
  counter,
  envelope,
  gateRepo,
  gitDir,
  head,
  markerPath,
  type Checkout,
  type Envelope,
} from '../helpers/gate-repo.js';

after(cleanupGate);

function show(result: unknown): string {
  return JSON.stringify(result, null, 2);
}

function report(result: Envelope): DiscernCheckpointsData {
  assert.ok(result.ok && result.data && typeof result.data === 'object' && 'checkpoints' in result.data, show(result));
  return result.data as DiscernCheckpointsData;
}

function doneData(result: Envelope): DiscernDoneData {
  assert.ok(result.data && typeof result.data === 'object' && 'gate_ran' in result.data, show(result));
  return result.data as DiscernDoneData;
}

/** Which checkpoints fire on the worktree's HEAD, by id. */
async function firing(root: string): Promise<string[]> {
  const data = report(envelope(await call('checkpoints', {}, root)));
  return data.checkpoints.filter((c) => c.preview.holds).map((c) => c.id);
}

/** A project whose trunk defines `checkpoints`, and a worktree on a new branch from it. */

let features = 0;
function project(
  checkpoints: string,
  files: Record<string, string> = {},
  jobs = '[jobs]\ntest = "true"\n',
): { trunk: ReturnType<typeof gateRepo>; wt: Checkout } {
  const trunk = gateRepo(
    `${jobs}\n[scopes.api]\npaths = ["src/api/**"]\n\n[scopes.docs]\npaths = ["docs/**"]\nneutral = true\n\n[generated.client]\npaths = ["gen/**"]\nrun = "true"\n\n${checkpoints}`,
    {
      'src/api/users.ts': 'export const users = 1;\nexport const legacy = 2;\n',
      'src/api/orders.ts': 'export const orders = 1;\n',
      'src/core/math.ts': 'export const one = 1;\n',
      'docs/api.md': '# API\n',
      'gen/client.ts': 'export {};\n',
      ...files,
    },
  );
  // Numbered, not random: each test's branch is its own, and a recorded result reads the same every run.
  features += 1;
  return { trunk, wt: addWorktree(trunk, `feature-${features}`) };
}

describe('triggers', () => {
  it('scope and paths selectors fire on the files they match, and not otherwise', async () => {
    const { wt } = project(
      `[checkpoints.api-review]\nscope = "api"\nquestion = "Is the API change backwards compatible?"\n\n[checkpoints.core]\npaths = ["src/core/**"]\nquestion = "Was the math reviewed?"\n`,
    );
    assert.deepEqual(await firing(wt.root), []);
    wt.write('src/api/users.ts', 'export const users = 2;\n');
    wt.commit('api change');
    assert.deepEqual(await firing(wt.root), ['api-review']);
    wt.write('src/core/math.ts', 'export const one = 2;\n');
    wt.commit('core change');
    assert.deepEqual(await firing(wt.root), ['api-review', 'core']);
  });

  it('kinds keeps only files changed that way; a rename is a deletion and an addition', async () => {
    const { wt } = project(
      `[checkpoints.removed]\nscope = "api"\nkinds = ["deleted"]\nquestion = "Who still calls it?"\n\n[checkpoints.added]\nscope = "api"\nkinds = ["added"]\nquestion = "Is it documented?"\n`,
    );
    wt.write('src/api/users.ts', 'changed\n');
    wt.commit('modify');
    assert.deepEqual(await firing(wt.root), []);
    wt.git('mv', 'src/api/orders.ts', 'src/api/purchases.ts');
    wt.commit('rename');
    const data = report(envelope(await call('checkpoints', {}, wt.root)));
    assert.deepEqual(
      data.checkpoints.filter((c) => c.preview.holds).map((c) => [c.id, c.preview.matched]),
      [
        ['removed', ['src/api/orders.ts']],
        ['added', ['src/api/purchases.ts']],
      ],
    );
  });

  it('adds_matching and removes_matching look at the text of added and removed lines', async () => {
    const { wt } = project(
      `[checkpoints.todo]\nscope = "api"\nadds_matching = ["TODO", "FIXME"]\nquestion = "Is the TODO tracked?"\n\n[checkpoints.legacy]\nscope = "api"\nremoves_matching = ["legacy"]\nquestion = "Are legacy callers gone?"\n`,
    );
    wt.write('src/api/orders.ts', 'export const orders = 1;\nexport const more = 2;\n');
    wt.commit('no marker');
    assert.deepEqual(await firing(wt.root), []);
    wt.write('src/api/orders.ts', 'export const orders = 1;\n// FIXME: paginate\n');
    wt.write('src/api/users.ts', 'export const users = 1;\n');
    wt.commit('marker and removal');
    const data = report(envelope(await call('checkpoints', {}, wt.root)));
    const holds = Object.fromEntries(data.checkpoints.map((c) => [c.id, c.preview]));
    assert.deepEqual(holds['todo']?.matched, ['src/api/orders.ts'], show(data));
    assert.deepEqual(holds['legacy']?.matched, ['src/api/users.ts'], show(data));
    assert.match(holds['todo']?.why ?? '', /adding a line that contains one of "TODO", "FIXME"/);
  });

  it('new_directory fires for a file added in a directory the merge-base lacks, not for one added beside others', async () => {
    const { wt } = project(
      `[checkpoints.new-area]\npaths = ["src/**"]\nnew_directory = true\nquestion = "Does the new module belong here?"\n`,
    );
    wt.write('src/api/extra.ts', 'x\n');
    wt.commit('added beside others');
    assert.deepEqual(await firing(wt.root), []);
    wt.write('src/billing/invoice.ts', 'x\n');
    wt.commit('new directory');
    const data = report(envelope(await call('checkpoints', {}, wt.root)));
    assert.deepEqual(data.checkpoints[0]?.preview.matched, ['src/billing/invoice.ts']);
  });

  it('min_changed_files and min_changed_lines are thresholds over the matched files', async () => {
    const { wt } = project(
      `[checkpoints.wide]\nscope = "api"\nmin_changed_files = 2\nquestion = "Wide API change: reviewed?"\n\n[checkpoints.big]\nscope = "api"\nmin_changed_lines = 6\nquestion = "Big API change: reviewed?"\n`,
    );
    wt.write('src/api/users.ts', 'export const users = 3;\nexport const legacy = 2;\n');
    wt.commit('one file, two lines');
    const one = report(envelope(await call('checkpoints', {}, wt.root)));
    assert.deepEqual(
      one.checkpoints.map((c) => c.preview.holds),
      [false, false],
    );
    assert.match(one.checkpoints[0]?.preview.why ?? '', /fewer than 2 files/);
    wt.write('src/api/orders.ts', 'a\nb\nc\nd\n');
    wt.commit('second file, more lines');
    assert.deepEqual(await firing(wt.root), ['wide', 'big']);
  });

  it('deletion_dominant, binary and min_commits', async () => {
    const { wt } = project(
      `[checkpoints.shrink]\nscope = "api"\ndeletion_dominant = true\nquestion = "Deleting more than adding: intended?"\n\n[checkpoints.blob]\npaths = ["assets/**"]\nbinary = true\nquestion = "Is the binary licensed?"\n\n[checkpoints.long]\npaths = ["**"]\nmin_commits = 3\nquestion = "Long branch: squash?"\n`,
    );
    wt.write('src/api/users.ts', 'export const users = 1;\n');
    wt.commit('shrink');
    assert.deepEqual(await firing(wt.root), ['shrink']);
    wt.write('assets/readme.txt', 'text\n');
    wt.commit('text asset');
    assert.deepEqual(await firing(wt.root), ['shrink']);
    writeFileSync(join(wt.root, 'assets/logo.bin'), Buffer.from([0, 1, 2, 0, 255, 0]));
    wt.commit('binary asset');
    assert.deepEqual(await firing(wt.root), ['shrink', 'blob', 'long']);
  });

  it('similar_new_file fires for an added near-copy of an existing file, not for new code or a move', async () => {
    const body = Array.from({ length: 12 }, (_, i) => `export const row${i} = ${i};`).join('\n') + '\n';
    const { wt } = project(
      `[checkpoints.copy]\npaths = ["src/**"]\nsimilar_new_file = true\nquestion = "Could this reuse the existing module?"\n`,
      { 'src/api/table.ts': body },
    );
    wt.write('src/api/fresh.ts', 'export function unrelated(): number {\n  return 42;\n}\n');
    wt.commit('new code');
    wt.git('mv', 'src/api/orders.ts', 'src/api/purchases.ts');
    wt.commit('a move');
    assert.deepEqual(await firing(wt.root), []);
    wt.write('src/billing/table.ts', body.replace('row0 = 0', 'row0 = 100'));
    wt.commit('near-copy');
    const data = report(envelope(await call('checkpoints', {}, wt.root)));
    assert.deepEqual(data.checkpoints[0]?.preview.matched, ['src/billing/table.ts'], show(data));
    assert.match(data.checkpoints[0]?.preview.why ?? '', /src\/billing\/table\.ts like src\/api\/table\.ts/);
  });

  it('when: exit 0 fires on the files DISCERN_MATCH names, exit 1 passes, anything else fails open and is dropped', async () => {
    // The command reads the matched paths on stdin and decides from the trunk's script; the branch cannot edit
    // the definition (the merge-base's discern.toml governs).
    const script = [
      'while read -r path; do echo "$path" >> .when-seen; done',
      'case "$(cat verdict)" in',
      '  fire) echo "DISCERN_MATCH src/api/orders.ts"; exit 0 ;;',
      '  pass) exit 1 ;;',
      '  *) exit 3 ;;',
      'esac',
    ].join('\n');
    const { wt } = project(
      `[checkpoints.judged]\nscope = "api"\nwhen = "sh judge.sh"\nquestion = "Judged by the project: reviewed?"\n`,
      { 'judge.sh': `${script}\n`, verdict: 'pass\n' },
    );
    wt.write('src/api/users.ts', 'changed\n');
    wt.write('src/api/orders.ts', 'changed\n');
    wt.commit('api');
    const passed = report(envelope(await call('checkpoints', {}, wt.root)));
    assert.equal(passed.checkpoints[0]?.preview.holds, false, show(passed));
    assert.match(passed.checkpoints[0]?.preview.why ?? '', /when command exited 1/);
    assert.deepEqual(readFileSync(join(wt.root, '.when-seen'), 'utf8').split('\n').filter(Boolean).sort(), [
      'src/api/orders.ts',
      'src/api/users.ts',
    ]);

    writeFileSync(join(wt.root, 'verdict'), 'fire\n');
    const fired = report(envelope(await call('checkpoints', {}, wt.root)));
    assert.equal(fired.checkpoints[0]?.preview.holds, true, show(fired));
    assert.deepEqual(fired.checkpoints[0]?.preview.matched, ['src/api/orders.ts']);

    writeFileSync(join(wt.root, 'verdict'), 'broken\n');
    const open = report(envelope(await call('checkpoints', {}, wt.root)));
    assert.equal(open.checkpoints[0]?.preview.holds, false, show(open));
    assert.equal(open.drops?.[0]?.kind, 'evidence_unavailable', show(open));
    assert.match(open.drops?.[0]?.reason ?? '', /when command exited 3/);
  });

  it('exclude_paths and generated output are left out unless include_generated', async () => {
    const { wt } = project(
      `[checkpoints.client]\npaths = ["gen/**", "src/api/**"]\nexclude_paths = ["src/api/orders.ts"]\nquestion = "Client regenerated?"\n\n[checkpoints.client-generated]\npaths = ["gen/**"]\ninclude_generated = true\nquestion = "Generated client reviewed?"\n`,
    );
    wt.write('gen/client.ts', 'export const x = 1;\n');
    wt.write('src/api/orders.ts', 'changed\n');
    wt.commit('generated and excluded');
    assert.deepEqual(await firing(wt.root), ['client-generated']);
    wt.write('src/api/users.ts', 'changed\n');
    wt.commit('selected');
    const data = report(envelope(await call('checkpoints', {}, wt.root)));
    assert.deepEqual(data.checkpoints.find((c) => c.id === 'client')?.preview.matched, ['src/api/users.ts']);
  });

  it('unless_changed vetoes when a scope or pattern it names also changed', async () => {
    const { wt } = project(
      `[checkpoints.api-docs]\nscope = "api"\nunless_changed = ["docs", "CHANGELOG.md"]\nquestion = "Did you document the API change?"\n`,
    );
    wt.write('src/api/users.ts', 'changed\n');
    wt.commit('api');
    assert.deepEqual(await firing(wt.root), ['api-docs']);
    wt.write('docs/api.md', '# API\n\nusers changed\n');
    wt.commit('docs');
    const data = report(envelope(await call('checkpoints', {}, wt.root)));
    assert.equal(data.checkpoints[0]?.preview.holds, false);
    assert.deepEqual(data.checkpoints[0]?.preview.vetoed_by, ['docs']);
  });

  it('the merge-base config governs: a checkpoint added on the branch does not govern it, and is listed as ungoverned', async () => {
    const { trunk, wt } = project(`[checkpoints.api-review]\nscope = "api"\nquestion = "Compatible?"\n`);
    const toml = readFileSync(join(wt.root, 'discern.toml'), 'utf8');
    wt.write('discern.toml', `${toml}\n[checkpoints.branch-added]\npaths = ["**"]\nquestion = "Anything?"\n`);
    wt.write('src/api/users.ts', 'changed\n');
    wt.commit('branch adds a checkpoint; a branch removing one would not escape it either');
    const data = report(envelope(await call('checkpoints', {}, wt.root)));
    assert.deepEqual(
      data.checkpoints.map((c) => c.id),
      ['api-review'],
    );
    assert.equal(data.revision.config, 'merge-base');
    assert.equal(data.revision.base, head(trunk.root));
    assert.deepEqual(
      data.ungoverned?.map((u) => u.id),
      ['branch-added'],
    );
    // The branch deleting the trunk's checkpoint does not escape it either.
    wt.write('discern.toml', toml.replace(/\[checkpoints\.api-review\][^[]*/, ''));
    wt.commit('remove the checkpoint');
    assert.deepEqual(await firing(wt.root), ['api-review']);
  });

  it('an unreadable merge-base config is dropped and named; the working config governs instead', async () => {
    const trunk = gateRepo('[jobs]\ntest = "true"\n');
    trunk.write('discern.toml', 'this is = = not toml\n');
    trunk.commit('broken config on the trunk');
    const wt = addWorktree(trunk, 'fix-config');
    wt.write(
      'discern.toml',
      `[project]\nname = "Gate"\n\n[jobs]\ntest = "true"\n\n[checkpoints.any]\npaths = ["**"]\nmode = "advise"\nquestion = "Anything?"\n`,
    );
    wt.commit('fix the config');
    const result = envelope(await call('checkpoints', {}, wt.root));
    const data = report(result);
    assert.equal(data.revision.config, 'working');
    assert.equal(data.drops?.[0]?.kind, 'governing_config_unreadable', show(data));
    assert.equal(result.advisories?.[0]?.kind, 'checkpoint-evidence-dropped');
    assert.deepEqual(await firing(wt.root), ['any']);
  });

  it('question_file reads the question from the merge-base; a bad definition in the working file is invalid_config', async () => {
    const { wt } = project(
      `[checkpoints.policy]\nscope = "api"\nquestion_file = "docs/questions/policy.md"\nteach = "Read the policy first."\nreference = "docs/api.md"\n`,
      { 'docs/questions/policy.md': 'Does this follow the API policy?\n' },
    );
    wt.write('src/api/users.ts', 'changed\n');
    wt.commit('api');
    const data = report(envelope(await call('checkpoints', {}, wt.root)));
    const c = data.checkpoints[0];
    assert.equal(c?.question, 'Does this follow the API policy?');
    assert.equal(c?.question_file, 'docs/questions/policy.md');
    assert.equal(c?.teach, 'Read the policy first.');
    assert.match(c?.trigger ?? '', /scope api \(src\/api\/\*\*\)/);
    assert.match(c?.obligation ?? '', /awaiting_declaration/);
    assert.equal(c?.open_question?.state, 'awaiting_declaration');
    const toml = readFileSync(join(wt.root, 'discern.toml'), 'utf8');
    // A question file the merge-base lacks: the checkpoint still asks (naming the problem) and the drop is reported.
    wt.write('docs/questions/later.md', 'Added on the branch\n');
    wt.commit('a question file the merge-base does not have');
    const missing = gateRepo(
      `[jobs]\ntest = "true"\n\n[checkpoints.gone]\npaths = ["**"]\nquestion_file = "docs/nowhere.md"\n`,
    );
    const mw = addWorktree(missing, 'missing-question');
    mw.write('x.txt', 'x\n');
    mw.commit('x');
    const dropped = envelope(await call('checkpoints', {}, mw.root));
    const dd = report(dropped);
    assert.equal(dd.checkpoints[0]?.preview.holds, true);
    assert.match(dd.checkpoints[0]?.question ?? '', /could not be read/);
    assert.equal(dd.drops?.[0]?.kind, 'question_file_unreadable', show(dd));
    assert.equal(dropped.advisories?.[0]?.kind, 'checkpoint-evidence-dropped');
    wt.write('discern.toml', `${toml}\n[checkpoints.broken]\nscope = "nope"\npaths = ["x"]\nquestion = "?"\n`);
    wt.commit('broken checkpoint');
    const refused = envelope(await call('checkpoints', {}, wt.root));
    assert.equal(refused.error, 'invalid_config', show(refused));
    assert.match(refused.message ?? '', /checkpoints\.broken/);
  });
});

describe('done and checkpoints', () => {
  it('an open stop question refuses awaiting_declaration before any job; met in the same call goes green and is in the Proof', async () => {
    const c = counter();
    const { wt } = project(
      `[checkpoints.api-review]\nscope = "api"\nquestion = "Is the API change backwards compatible?"\n`,
      {},
      `[jobs]\ntest = "echo ran >> ${c}"\n`,
    );
    wt.write('src/api/users.ts', 'changed\n');
    wt.commit('api');
    const planned = envelope(await call('done', { dry_run: true }, wt.root));
    assert.ok(planned.ok, show(planned));
    assert.equal(
      doneData(planned).checkpoints?.outstanding?.[0]?.id,
      'api-review',
      'a dry run shows the question it would wait for',
    );
    const refused = envelope(await call('done', {}, wt.root));
    assert.equal(refused.error, 'awaiting_declaration', show(refused));
    const d = doneData(refused);
    assert.equal(d.gate_ran, false);
    assert.equal(d.failed_stage, null);
    assert.equal(d.checkpoints?.outstanding?.[0]?.id, 'api-review');
    assert.deepEqual(d.checkpoints?.outstanding?.[0]?.matched, ['src/api/users.ts']);
    assert.match(refused.hints?.at(-1) ?? '', /discern_done again with met/);
    assert.equal(count(c), 0, 'no project job ran');
    const unknown = envelope(await call('done', { met: ['nope'] }, wt.root));
    assert.equal(unknown.error, 'invalid_value', show(unknown));
    const green = envelope(await call('done', { met: ['api-review'] }, wt.root));
    assert.ok(green.ok, show(green));
    const g = doneData(green);
    assert.deepEqual(g.checkpoints?.declared_met, ['api-review']);
    assert.deepEqual(g.proof?.checkpoints, { declared_met: ['api-review'], declared_unmet: [] });
    assert.equal(count(c), 1);
    // The declaration is kept: the next call reuses the Proof.
    const again = envelope(await call('done', {}, wt.root));
    assert.equal(doneData(again).gate_proof?.status, 'reused', show(again));
  });

  it('unmet with why goes green; a changed declaration makes the Proof stale and the evidence replays with it', async () => {
    const c = counter();
    const { wt } = project(
      `[checkpoints.api-review]\nscope = "api"\nquestion = "Compatible?"\n`,
      {},
      `[jobs]\ntest = "echo ran >> ${c}"\n`,
    );
    wt.write('src/api/users.ts', 'changed\n');
    wt.commit('api');
    const met = envelope(await call('done', { met: ['api-review'] }, wt.root));
    assert.ok(met.ok, show(met));
    const firstId = doneData(met).proof?.proof_id;
    const unmet = envelope(
      await call('done', { unmet: [{ id: 'api-review', why: 'breaking, announced in the release notes' }] }, wt.root),
    );
    assert.ok(unmet.ok, show(unmet));
    const u = doneData(unmet);
    assert.equal(u.gate_proof?.status, 'recorded', 'a changed declaration is not the reused Proof');
    assert.ok(u.replayed_from, 'the same tree and config replay: no job runs again');
    assert.equal(count(c), 1);
    assert.deepEqual(
      u.proof?.checkpoints?.declared_unmet.map((x) => [x.id, x.why, x.mode]),
      [['api-review', 'breaking, announced in the release notes', 'stop']],
    );
    assert.notEqual(u.proof?.proof_id, firstId, 'another declaration is another Proof');
    const marker = JSON.parse(readFileSync(markerPath(wt.root), 'utf8')) as { checkpoint_declarations?: string };
    assert.match(marker.checkpoint_declarations ?? '', /breaking, announced/);
  });

  it('a question reopens when its matched files change after the declaration', async () => {
    const { wt } = project(`[checkpoints.api-review]\nscope = "api"\nquestion = "Compatible?"\n`);
    wt.write('src/api/users.ts', 'changed\n');
    wt.commit('api');
    assert.ok(envelope(await call('done', { met: ['api-review'] }, wt.root)).ok);
    wt.write('src/core/math.ts', 'unrelated\n');
    wt.commit('unrelated commit');
    const unrelated = envelope(await call('done', {}, wt.root));
    assert.ok(unrelated.ok, `an unrelated commit keeps the answer:\n${show(unrelated)}`);
    wt.write('src/api/users.ts', 'changed again\n');
    wt.commit('matched file changes');
    const reopened = envelope(await call('done', {}, wt.root));
    assert.equal(reopened.error, 'awaiting_declaration', show(reopened));
    const q = doneData(reopened).checkpoints?.outstanding?.[0];
    assert.equal(q?.state, 'reopened');
    assert.equal(q?.declaration?.current, false);
    const view = report(envelope(await call('checkpoints', {}, wt.root)));
    assert.equal(view.checkpoints[0]?.open_question?.state, 'reopened');
    assert.ok(envelope(await call('done', { met: ['api-review'] }, wt.root)).ok);
  });

  it('advise questions only report; ci reviews without declarations and refuses met/unmet', async () => {
    const { wt } = project(
      `[checkpoints.heads-up]\nscope = "api"\nmode = "advise"\nquestion = "Tell the mobile team?"\n\n[checkpoints.api-review]\nscope = "api"\nquestion = "Compatible?"\n`,
    );
    wt.write('src/api/users.ts', 'changed\n');
    wt.commit('api');
    const ci = envelope(await call('done', { ci: true }, wt.root));
    assert.ok(ci.ok, show(ci));
    const r = doneData(ci).checkpoints;
    assert.equal(r?.policy, 'report');
    assert.deepEqual(
      r?.review?.map((q) => [q.id, q.state]),
      [
        ['heads-up', 'awaiting_declaration'],
        ['api-review', 'awaiting_declaration'],
      ],
    );
    assert.equal(r?.outstanding, undefined);
    const mixed = envelope(await call('done', { ci: true, met: ['api-review'] }, wt.root));
    assert.equal(mixed.error, 'invalid_arguments', show(mixed));
    const green = envelope(await call('done', { met: ['api-review'] }, wt.root));
    assert.ok(green.ok, show(green));
    assert.deepEqual(
      doneData(green).checkpoints?.advise?.map((q) => q.id),
      ['heads-up'],
    );
    const view = report(envelope(await call('checkpoints', {}, wt.root)));
    assert.deepEqual(
      view.checkpoints.map((c) => [c.id, c.mode, c.open_question?.state]),
      [
        ['heads-up', 'advise', 'awaiting_declaration'],
        ['api-review', 'stop', 'declared_met'],
      ],
    );
  });

  it("the record lives in the checkout's git dir", async () => {
    const { wt } = project(`[checkpoints.api-review]\nscope = "api"\nquestion = "Compatible?"\n`);
    wt.write('src/api/users.ts', 'changed\n');
    wt.commit('api');
    assert.ok(envelope(await call('done', { unmet: [{ id: 'api-review', why: 'not yet' }] }, wt.root)).ok);
    const store = JSON.parse(readFileSync(join(gitDir(wt.root), 'discern', 'checkpoint-open-questions'), 'utf8')) as {
      questions: Record<string, { declaration?: { conclusion: string; why?: string } }>;
    };
    assert.deepEqual(
      store.questions['api-review']?.declaration && {
        c: store.questions['api-review'].declaration.conclusion,
        w: store.questions['api-review'].declaration.why,
      },
      { c: 'unmet', w: 'not yet' },
    );
  });
});

describe('serving questions without running jobs (the engine entry other landing paths use)', () => {
  it('evaluates a named revision, refuses unknown ids, records met, and done then finds the declaration', async () => {
    const { trunk, wt } = project(`[checkpoints.api-review]\nscope = "api"\nquestion = "Compatible?"\n`);
    wt.write('src/api/users.ts', 'changed\n');
    wt.commit('api');
    const revision = head(wt.root);
    wt.write('notes.txt', 'later\n');
    wt.commit('a later commit');
    const options = {
      run: { cwd: wt.root, env: process.env },
      revision,
      trunkRef: 'refs/heads/main',
      workingConfig: {},
      root: wt.root,
      gitDir: gitDir(wt.root),
    };
    const before = await serveQuestions({ ...options, record: false });
    assert.deepEqual(
      before.review.outstanding.map((q) => q.id),
      ['api-review'],
    );
    assert.equal(before.evaluation.base, head(trunk.root));
    const unknown = await serveQuestions({ ...options, declarations: { met: ['nope'], unmet: [] } });
    assert.match(unknown.unknown ?? '', /"nope" is not a checkpoint/);
    const served = await serveQuestions({ ...options, declarations: { met: ['api-review'], unmet: [] } });
    assert.equal(served.unknown, undefined);
    assert.deepEqual(served.review.outstanding, []);
    assert.deepEqual(served.review.declaredMet, ['api-review']);
    // The same files at HEAD: done finds the answer.
    assert.ok(envelope(await call('done', {}, wt.root)).ok);
  });
});

describe('the CLI spelling', () => {
  it('--met, and --unmet paired with --why in order; an --unmet without its --why is an arguments error', async () => {
    const { wt } = project(
      `[checkpoints.api-review]\nscope = "api"\nquestion = "Compatible?"\n\n[checkpoints.core]\npaths = ["src/core/**"]\nquestion = "Math reviewed?"\n`,
    );
    wt.write('src/api/users.ts', 'changed\n');
    wt.write('src/core/math.ts', 'changed\n');
    wt.commit('both');
    const listed = await runCli(['checkpoints', '--json'], { cwd: wt.root });
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(
      (onlyJson(listed)['data'] as DiscernCheckpointsData).checkpoints.map((c) => c.open_question?.state),
      ['awaiting_declaration', 'awaiting_declaration'],
    );
    const unpaired = await runCli(['done', '--json', '--unmet', 'core'], { cwd: wt.root });
    assert.equal(unpaired.code, 2, unpaired.stdout);
    assert.equal(onlyJson(unpaired)['error'], 'invalid_arguments');
    const waiting = await runCli(['done', '--markdown', '--met', 'api-review'], { cwd: wt.root });
    assert.equal(waiting.code, 1);
    assert.match(waiting.stdout, /awaiting_declaration/);
    assert.match(waiting.stdout, /`discern done` \(`--met <id>`, `--unmet <id> --why <text>`\)/);
    const green = await runCli(
      ['done', '--json', '--met', 'api-review', '--unmet', 'core', '--why', 'reviewed next sprint'],
      { cwd: wt.root },
    );
    assert.equal(green.code, 0, green.stdout);
    const proof = (onlyJson(green)['data'] as DiscernDoneData).proof;
    assert.deepEqual(proof?.checkpoints?.declared_met, ['api-review']);
    assert.deepEqual(
      proof?.checkpoints?.declared_unmet.map((u) => [u.id, u.why]),
      [['core', 'reviewed next sprint']],
    );
  });
});

after(() => assertDriven(['checkpoints', 'done']));
