// The standards commands through the built binary: `discern standards --json` (the command sends action
// "measure" itself, names are positionals), `--pin --markdown` with the next action last, a red standard's exit 1,
// and the scalar `discern standards propose <name> --reason <text>` with its grammar errors (exit 2).
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { onlyJson, runCli } from '../helpers/cli.js';
import { assertPublishedResult } from '../helpers/published-schema.js';
import { cleanEnv } from '../helpers/scratch-repo.js';
import { R1_HANDLE, addWorktree, cleanupGate, gateRepo, gitDir, head } from '../helpers/gate-repo.js';
import type { DiscernResult } from '../../generated/types.js';

after(cleanupGate);

const CONFIG = `[standards.coverage]
direction = "up"
limit = 80
margin = 2
run = "echo 'DISCERN_METRIC coverage 90'"

[standards.size]
direction = "down"
limit = 100
run = "echo 'DISCERN_METRIC size 100'"
`;

function cli(args: string[], cwd: string): ReturnType<typeof runCli> {
  return runCli(args, { cwd, env: cleanEnv() });
}

function json(run: Awaited<ReturnType<typeof runCli>>): DiscernResult {
  const result = onlyJson(run) as unknown as DiscernResult;
  assertPublishedResult(result);
  return result;
}

describe('discern standards', () => {
  it('--json measures every standard, or the names given, as one JSON line', async () => {
    const r = gateRepo(CONFIG);
    const run = await cli(['standards', '--json'], r.root);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(run.stderr, '');
    const result = json(run);
    assert.ok(result.verb === 'standards' && result.data && 'action' in result.data);
    assert.equal(result.data.action, 'measure');
    assert.match(result.data.handle ?? '', R1_HANDLE);
    assert.deepEqual(
      result.data.standards?.map((s) => [s.name, s.verdict]),
      [
        ['coverage', 'improved'],
        ['size', 'held'],
      ],
    );

    const one = json(await cli(['standards', 'size', '--json'], r.root));
    assert.ok(one.verb === 'standards' && one.data && 'action' in one.data);
    assert.deepEqual(
      one.data.standards?.map((s) => s.name),
      ['size'],
    );
    const unknown = await cli(['standards', 'speed', '--json'], r.root);
    assert.equal(unknown.code, 1);
    assert.equal(json(unknown).error, 'unknown_standard');
  });

  it('--pin --markdown commits the tightened limit and ends with the next action', async () => {
    const r = gateRepo(CONFIG);
    const before = head(r.root);
    const run = await cli(['standards', '--pin', '--markdown'], r.root);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^\| coverage \| 80 \| 88 \| 90 \|$/m);
    assert.match(
      run.stdout.trimEnd().split('\n').at(-1) ?? '',
      /^Committed \w{12} \(Pin standards: coverage 80 → 88\); no Proof was carried/,
    );
    assert.equal(r.git('rev-parse', 'HEAD^').trim(), before);
    assert.match(readFileSync(join(r.root, 'discern.toml'), 'utf8'), /limit = 88\n/);
  });

  it('a regressed standard exits 1; --pin beside --force is exit 2', async () => {
    const r = gateRepo(CONFIG.replace('coverage 90', 'coverage 70'));
    const run = await cli(['standards', '--json'], r.root);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.equal(json(run).error, 'gate_failed');
    const both = await cli(['standards', '--pin', '--force', '--json'], r.root);
    assert.equal(both.code, 2);
    assert.equal(json(both).error, 'invalid_value');
  });
});

describe('discern standards propose', () => {
  it('records a batch of one for the loosened standard; --reason is required', async () => {
    const r = gateRepo(CONFIG);
    const wt = addWorktree(r, 'agent/loosen');
    wt.write('discern.toml', readFileSync(join(wt.root, 'discern.toml'), 'utf8').replace('limit = 80', 'limit = 75'));
    wt.commit('loosen coverage');
    const missing = await cli(['standards', 'propose', 'coverage', '--json'], wt.root);
    assert.equal(missing.code, 2);
    assert.equal(json(missing).error, 'invalid_arguments');
    const run = await cli(
      [
        'standards',
        'propose',
        'coverage',
        '--reason',
        'The generated client counts now; 75 is where it stands.',
        '--json',
      ],
      wt.root,
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const result = json(run);
    assert.ok(result.verb === 'standards propose' && result.data && !('issues' in result.data));
    assert.deepEqual(result.data.proposals, [
      {
        name: 'coverage',
        reason: 'The generated client counts now; 75 is where it stands.',
        from: 80,
        to: 75,
        direction: 'up',
      },
    ]);
    assert.ok(existsSync(join(gitDir(wt.root), 'discern', 'standard-limit-proposals.json')));
    const done = json(await cli(['done', '--json'], wt.root));
    assert.equal(done.ok, true, JSON.stringify(done, null, 2));
  });
});
