// The story after a landing, on a real repository and the real CLI: the main checkout's HEAD is the landed commit
// and carries its Proof note, so status says so (with the note's verification) instead of calling the checkout's
// own marker a problem, and improvement counts the note as the gate run on HEAD.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { onlyJson, runCli } from '../helpers/cli.js';
import { call } from '../helpers/drive.js';
import { effort, trackedRepo } from '../helpers/efforts.js';
import { cleanEnv, type ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

describe('after a landing', () => {
  it('status and improvement in the main checkout read HEAD as the landing its note records', async () => {
    const r = trackedRepo(repos);
    const work = await effort(r, 'landed', 'landed.txt', 'landed\n');
    const landed = await call('accept', { confirmed: true }, work.path);
    assert.ok(landed.ok, JSON.stringify(landed, null, 2));
    const head = r.git('rev-parse', 'HEAD').trim();

    const status = onlyJson(await runCli(['status', '--json'], { cwd: r.root, env: cleanEnv() }));
    const data = status['data'] as {
      gate_proof: { status: string };
      landed_proof?: { commit: string; verification?: { state: string; error?: string } };
    };
    assert.equal(data.landed_proof?.commit, head);
    // The note is signed with this machine's discern key, which the trunk's discern/allowed_signers does not list.
    assert.equal(data.landed_proof?.verification?.state, 'failed');
    assert.equal(data.landed_proof?.verification?.error, 'no_trusted_signers');
    assert.notEqual(data.gate_proof.status, 'honored');

    const markdown = (await runCli(['status', '--markdown'], { cwd: r.root, env: cleanEnv() })).stdout;
    assert.match(markdown, /HEAD is a landing, and carries its Proof note: /);
    assert.match(markdown, /This checkout's own Proof marker is \w+, which is expected after a landing\./);
    assert.doesNotMatch(markdown, /^Proof: /m);

    const improvement = onlyJson(
      await runCli(['improvement', '--category', 'gate', '--json'], { cwd: r.root, env: cleanEnv() }),
    );
    const rules = JSON.stringify(improvement['data']);
    assert.match(rules, /is a landing, and its Proof note records the gate run/);
    assert.doesNotMatch(rules, /No gate run on HEAD/);
  });
});
