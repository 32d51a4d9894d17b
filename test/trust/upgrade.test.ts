// Upgrading over records the start commit of the sealing work (fb5df83, discern 0.1.0) wrote, before records
// carried a MAC: the fixture test/fixtures/upgrade/0.1.0-fb5df83/ is a bundle of that repository plus its
// .git/discern state (README.md there says how it was made). Restored at a fresh path, the current discern must
// run the gate again on the unchanged HEAD and say once why, show the old grant and submissions as not honoured
// with the command that replaces each (status, the queue accept lists, the desk's lines), and not land on the
// old grant. Each assertion fails when its guard is removed (the MAC check in the state reader, the unhonoured
// reader in src/engine/acceptance/records.ts, its rows in queue-view.ts and its lines in the desk).
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DiscernQueueRow, DiscernStatusData, DiscernUnhonouredRecord } from '../../generated/types.js';
import { buildSnapshot } from '../../src/surfaces/cli/desk/snapshot.js';
import { layout } from '../../src/surfaces/cli/desk/layout.js';
import { initialState } from '../../src/surfaces/cli/desk/model.js';
import { glyphsFor } from '../../src/surfaces/cli/desk/text.js';
import { onlyJson, runCli } from '../helpers/cli.js';
import { cleanEnv, tempDir } from '../helpers/scratch-repo.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/upgrade/0.1.0-fb5df83/', import.meta.url));
/** Where the fixture was made: records name absolute paths under it, rewritten to the restored location. */
const MADE_AT = '/tmp/discern-upgrade-fixture';
const MAIN_TIP = '737bcf006a2292685f3fa9c3dc36d17276eb3064';
const BETA_HEAD = '4cddcf878dcedadce0772df439100adbbd66f2ef';

type Envelope = Record<string, unknown> & {
  ok: boolean;
  error?: string;
  data?: Record<string, unknown>;
  advisories?: { kind: string; evidence?: string[] }[];
};

const made: string[] = [];
after(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

interface Restored {
  root: string;
  worktree(effort: string): string;
  git(...args: string[]): string;
  discern(cwd: string, ...args: string[]): Promise<Envelope>;
}

function copyRewritten(from: string, to: string, base: string): void {
  for (const name of readdirSync(from)) {
    const source = join(from, name);
    const target = join(to, name);
    if (statSync(source).isDirectory()) {
      mkdirSync(target, { recursive: true });
      copyRewritten(source, target, base);
    } else writeFileSync(target, readFileSync(source, 'utf8').split(MADE_AT).join(base));
  }
}

/** The fixture's repository at a new path: branches from the bundle, the two efforts' worktrees, the old state. */
function restore(): Restored {
  const base = tempDir('discern-upgrade-');
  made.push(base);
  const root = join(base, 'repo');
  mkdirSync(root);
  const git = (...args: string[]): string =>
    execFileSync('git', args, {
      cwd: root,
      env: cleanEnv({ GIT_CONFIG_NOSYSTEM: '1' }),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'Fixture');
  git('config', 'user.email', 'fixture@example.com');
  git('config', 'commit.gpgsign', 'false');
  git('fetch', '-q', '--update-head-ok', join(FIXTURE, 'repo.bundle'), 'refs/heads/*:refs/heads/*');
  git('reset', '-q', '--hard', 'main');
  const worktree = (effort: string): string => join(`${root}.worktrees`, effort);
  for (const effort of ['alpha', 'beta']) git('worktree', 'add', '-q', worktree(effort), `agent/${effort}`);
  // The state as 0.1.0 left it, each absolute path rewritten from where it was made to where it is now.
  copyRewritten(join(FIXTURE, 'common'), join(root, '.git'), base);
  for (const effort of ['alpha', 'beta'])
    copyRewritten(join(FIXTURE, 'worktrees', effort), join(root, '.git', 'worktrees', effort), base);
  return {
    root,
    worktree,
    git,
    discern: async (cwd, ...args) => onlyJson(await runCli([...args, '--json'], { cwd })) as Envelope,
  };
}

function skipped(result: Envelope): string[] {
  return (result.advisories ?? []).filter((a) => a.kind === 'state-record-skipped').flatMap((a) => a.evidence ?? []);
}

function show(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

describe('records written by discern 0.1.0 (fb5df83), before records were sealed', () => {
  it('the fixture is what its README says: old records with no MAC, at the commits it names', () => {
    const grant = JSON.parse(readFileSync(join(FIXTURE, 'common', 'discern', 'grants', 'beta.json'), 'utf8')) as {
      mac?: string;
      effort: string;
    };
    assert.equal(grant.effort, 'beta');
    assert.equal(grant.mac, undefined);
    const marker = JSON.parse(readFileSync(join(FIXTURE, 'common', 'discern', 'gate-proof'), 'utf8')) as {
      commit: string;
      discern_version: string;
      mac?: string;
    };
    assert.deepEqual([marker.commit, marker.discern_version, marker.mac], [MAIN_TIP, '0.1.0', undefined]);
  });

  it('done on the unchanged HEAD runs the gate again and says once why: the old marker is not Proof', async () => {
    const repo = restore();
    assert.equal(repo.git('rev-parse', 'HEAD').trim(), MAIN_TIP);
    const done = await repo.discern(repo.root, 'done');
    assert.equal(done.ok, true, show(done));
    const proof = done.data?.['gate_proof'] as { status?: string } | undefined;
    assert.notEqual(proof?.status, 'reused', show(done.data));
    const marker = join(repo.root, '.git', 'discern', 'gate-proof');
    const naming = skipped(done).filter((e) => e.includes(marker));
    assert.equal(naming.length, 1, `one advisory names the old marker:\n${show(done.advisories)}`);
    assert.match(naming[0] ?? '', /carries no MAC: it was written by an earlier discern/);
    assert.equal(
      (done.advisories ?? []).filter((a) => a.kind === 'state-record-skipped').length,
      1,
      `the skipped records are said in one advisory:\n${show(done.advisories)}`,
    );
    // Now sealed: the next done on the same HEAD reuses it, without a word about old records.
    const again = await repo.discern(repo.root, 'done');
    assert.equal((again.data?.['gate_proof'] as { status?: string } | undefined)?.status, 'reused', show(again.data));
    assert.equal(skipped(again).filter((e) => e.includes(marker)).length, 0, show(again.advisories));
  });

  it('status, the queue and the desk show the old grant and submissions as not honoured, with the command', async () => {
    const repo = restore();
    const status = await repo.discern(repo.root, 'status');
    assert.equal(status.ok, true, show(status));
    const data = status.data as unknown as DiscernStatusData;
    const records = (data.unhonoured_records ?? []).map((r) => [r.kind, r.effort, r.why, r.command]);
    assert.deepEqual(
      records,
      [
        ['grant', 'beta', 'unsealed', 'discern accept beta --grant'],
        ['submission', 'alpha', 'unsealed', 'discern accept alpha --action queue'],
        ['submission', 'beta', 'unsealed', 'discern accept beta --action queue'],
      ],
      show(data.unhonoured_records),
    );
    for (const r of data.unhonoured_records ?? [])
      assert.equal(r.message, 'written by an earlier discern, not honoured');

    // The words a person reads.
    const text = await runCli(['status'], { cwd: repo.root });
    assert.equal(text.code, 0, text.stderr);
    const words = text.stdout.replace(/\s+/g, ' ');
    assert.match(words, /Records not honoured/);
    assert.match(
      words,
      /grant `beta` \([^)]*grants\/beta\.json`\): written by an earlier discern, not honoured; the owner re-grants it at a terminal with `discern accept beta --grant`/,
    );
    assert.match(
      words,
      /submission `alpha` \([^)]*submissions\/alpha\.json`\): written by an earlier discern, not honoured; re-submit it with `discern accept alpha --action queue`/,
    );

    // The queue accept lists (its dry run) and status's own queue: each old submission waits, saying why and how.
    const dry = await repo.discern(repo.root, 'accept', 'alpha', '--dry-run');
    for (const queue of [dry.data?.['queue'], data.queue] as (DiscernQueueRow[] | undefined)[]) {
      const alpha = queue?.find((r) => r.effort === 'alpha');
      assert.equal(alpha?.readiness, 'waiting', show(queue));
      assert.match(alpha?.reason ?? '', /not honoured: re-submit with `discern accept alpha --action queue`/);
      assert.deepEqual(
        alpha?.unhonoured?.map((u: DiscernUnhonouredRecord) => u.command),
        ['discern accept alpha --action queue'],
      );
      const beta = queue?.find((r) => r.effort === 'beta');
      assert.equal(beta?.readiness, 'waiting', show(queue));
      assert.deepEqual(beta?.unhonoured?.map((u) => u.command).sort(), [
        'discern accept beta --action queue',
        'discern accept beta --grant',
      ]);
    }

    // The desk's list: the same records, each with its command.
    const snapshot = buildSnapshot(data, [], Date.now());
    const screen = layout(initialState(snapshot), {
      columns: 200,
      rows: 80,
      glyphs: glyphsFor({}, true),
      now: Date.now(),
    })
      .map((l) => l.text)
      .join('\n');
    assert.match(screen, /grant beta: written by an earlier discern, not honoured; discern accept beta --grant/);
    assert.match(
      screen,
      /submission alpha: written by an earlier discern, not honoured; discern accept alpha --action queue/,
    );

    // The command does what it says: re-submitted, alpha's submission is honoured and no longer listed.
    const requeued = await repo.discern(repo.worktree('alpha'), 'accept', '--action', 'queue');
    assert.equal(requeued.ok, true, show(requeued));
    const after = (await repo.discern(repo.root, 'status')).data as unknown as DiscernStatusData;
    assert.deepEqual(
      (after.unhonoured_records ?? []).map((r) => `${r.kind} ${r.effort}`),
      ['grant beta', 'submission beta'],
    );
    const alpha = after.queue?.find((r) => r.effort === 'alpha');
    assert.equal(alpha?.unhonoured, undefined, show(alpha));
  });

  it('accept does not land on the old grant', async () => {
    const repo = restore();
    const proven = await repo.discern(repo.worktree('beta'), 'done');
    assert.equal(proven.ok, true, show(proven));
    const accepted = await repo.discern(repo.root, 'accept', 'beta');
    assert.equal(accepted.ok, false, show(accepted));
    assert.equal(repo.git('rev-parse', 'refs/heads/main').trim(), MAIN_TIP, 'the trunk did not move');
    assert.equal(repo.git('rev-parse', 'refs/heads/agent/beta').trim(), BETA_HEAD, 'the effort is still there');
    assert.ok(
      skipped(accepted).some((e) => e.includes(join('discern', 'grants', 'beta.json'))),
      `the old grant is named as not honoured:\n${show(accepted.advisories)}`,
    );
    const beta = (accepted.data?.['queue'] as DiscernQueueRow[] | undefined)?.find((r) => r.effort === 'beta');
    assert.match(beta?.reason ?? '', /discern accept beta --grant|discern accept beta --action queue/, show(beta));
  });
});
