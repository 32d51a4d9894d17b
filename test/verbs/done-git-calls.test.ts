// How many git processes one gate call spawns (docs/decisions/0043): each costs milliseconds of a blocked event
// loop and CPU, so the count is held as an upper bound. A `git` first on PATH logs each call and runs the real
// one; the results must stay what they were (Proof recorded, logbook tree recorded).
import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, onlyJson } from '../helpers/cli.js';
import { cleanEnv } from '../helpers/scratch-repo.js';
import { addWorktree, cleanupGate, gateRepo, git, gitDir, lines, outsideDir } from '../helpers/gate-repo.js';

after(cleanupGate);

const JOBS = `
[gate]
concurrency = 2

[jobs.a]
stage = "test"
run = "true"

[jobs.b]
stage = "test"
run = "true"
`;

/** A PATH whose `git` appends its arguments to a log, and the log. */
function countingGit(): { env: Record<string, string>; log: string } {
  const dir = outsideDir('discern-git-wrapper-');
  const log = join(dir, 'calls.log');
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const wrapper = join(dir, 'git');
  writeFileSync(wrapper, `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${real}' "$@"\n`);
  chmodSync(wrapper, 0o755);
  return { env: cleanEnv({ PATH: `${dir}:${process.env['PATH'] ?? ''}` }), log };
}

async function counted(args: string[], cwd: string): Promise<{ result: Record<string, unknown>; calls: string[] }> {
  const { env, log } = countingGit();
  const run = await runCli(args, { cwd, env });
  return { result: onlyJson(run), calls: lines(log) };
}

function lastLogbookEvent(cwd: string): Record<string, unknown> {
  const common = git(cwd, 'rev-parse', '--path-format=absolute', '--git-common-dir');
  const events = readFileSync(join(common, 'discern', 'logbook', 'active.jsonl'), 'utf8')
    .trim()
    .split('\n');
  return JSON.parse(events[events.length - 1] ?? '{}') as Record<string, unknown>;
}

describe('git processes per gate call', () => {
  it('done on a clean trunk: at most 9, Proof recorded and the logbook names the tree', async (t) => {
    const r = gateRepo(JOBS);
    const { result, calls } = await counted(['done', '--rerun', '--json'], r.root);
    t.diagnostic(`done spawned ${calls.length} git processes:\n${calls.join('\n')}`);
    assert.equal(result['ok'], true, JSON.stringify(result));
    assert.ok(calls.length <= 9, `done spawned ${calls.length} git processes`);
    const event = lastLogbookEvent(r.root);
    assert.equal(event['tree'], git(r.root, 'rev-parse', 'HEAD^{tree}'));
    assert.equal(event['head'], git(r.root, 'rev-parse', 'HEAD'));
    assert.ok(gitDir(r.root).length > 0);
  });

  // The merge check adds one, and the coupling hints of a branch's change read the history once (one `git log`).
  it('done in a task worktree ahead of the trunk: at most 11', async (t) => {
    const r = gateRepo(JOBS);
    const wt = addWorktree(r, 'task');
    writeFileSync(join(wt.root, 'feature.txt'), 'new\n');
    git(wt.root, 'add', '-A');
    git(wt.root, '-c', 'user.name=t', '-c', 'user.email=t@t.invalid', 'commit', '-q', '-m', 'feature');
    const { result, calls } = await counted(['done', '--json'], wt.root);
    t.diagnostic(`done spawned ${calls.length} git processes:\n${calls.join('\n')}`);
    assert.equal(result['ok'], true, JSON.stringify(result));
    assert.ok(calls.length <= 11, `done spawned ${calls.length} git processes`);
    assert.equal(lastLogbookEvent(wt.root)['tree'], git(wt.root, 'rev-parse', 'HEAD^{tree}'));
  });

  // With a checkpoint defined, the change is read for it (one diff with raw records and line counts, one commit
  // count); without one it is not (the two trunk cases above).
  it('done with a checkpoint reads the change it judges: the checkpoint fires on a matching file', async (t) => {
    const r = gateRepo(
      `${JOBS}\n[checkpoints.notes]\npaths = ["notes/**"]\nmode = "advise"\nquestion = "Are the notes right?"\n`,
    );
    const wt = addWorktree(r, 'notes');
    writeFileSync(join(wt.root, 'notes.md'), 'not a match\n');
    git(wt.root, 'add', '-A');
    git(wt.root, '-c', 'user.name=t', '-c', 'user.email=t@t.invalid', 'commit', '-q', '-m', 'unmatched');
    const quiet = await counted(['done', '--json'], wt.root);
    assert.equal(quiet.result['ok'], true, JSON.stringify(quiet.result));
    assert.ok(
      quiet.calls.some((c) => c.startsWith('diff --raw --numstat')) &&
        quiet.calls.some((c) => c.startsWith('rev-list --count')),
      quiet.calls.join('\n'),
    );
    execFileSync('mkdir', ['-p', join(wt.root, 'notes')]);
    writeFileSync(join(wt.root, 'notes', 'a.md'), 'a match\n');
    git(wt.root, 'add', '-A');
    git(wt.root, '-c', 'user.name=t', '-c', 'user.email=t@t.invalid', 'commit', '-q', '-m', 'matched');
    const { result } = await counted(['done', '--json'], wt.root);
    t.diagnostic(JSON.stringify((result['data'] as Record<string, unknown>)['checkpoints']));
    assert.deepEqual(
      ((result['data'] as { checkpoints?: { advise?: { id: string }[] } }).checkpoints?.advise ?? []).map((a) => a.id),
      ['notes'],
    );
  });

  it('done on a dirty tree: the same refusal, from at most 2', async () => {
    const r = gateRepo(JOBS);
    writeFileSync(join(r.root, 'stray.txt'), 'untracked\n');
    const { result, calls } = await counted(['done', '--json'], r.root);
    assert.equal(result['error'], 'dirty_worktree', JSON.stringify(result));
    assert.ok(calls.length <= 2, `done spawned ${calls.length} git processes`);
  });

  it('test: at most 3, and the logbook names the tree', async (t) => {
    const r = gateRepo(JOBS);
    const { result, calls } = await counted(['test', '--json'], r.root);
    t.diagnostic(`test spawned ${calls.length} git processes:\n${calls.join('\n')}`);
    assert.equal(result['ok'], true, JSON.stringify(result));
    assert.ok(calls.length <= 3, `test spawned ${calls.length} git processes`);
    assert.equal(lastLogbookEvent(r.root)['tree'], git(r.root, 'rev-parse', 'HEAD^{tree}'));
  });

  it('a tag named like the branch does not read as HEAD having moved', async () => {
    // `symbolic-ref --short` answers heads/main when a tag main exists; the status header names the branch.
    const r = gateRepo(JOBS);
    r.git('tag', 'main');
    const { result } = await counted(['done', '--json'], r.root);
    assert.equal(result['ok'], true, JSON.stringify(result));
  });
});
