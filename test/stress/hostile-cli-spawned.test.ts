// Hostile argv as real processes, shard 1 of 2 (spawned-suite.ts; shard 2 is hostile-cli-spawned-b.test.ts).
// Also: argv cannot carry a NUL at all, and a gate job that prints garbage progress and metric lines and
// malformed SARIF and JUnit still gets a schema-valid answer from `test` and `done`.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { DISCERN_BIN, runCli } from '../helpers/cli.js';
import { assertPublishedResult } from '../helpers/published-schema.js';
import { assertNoStack, GOOD_CONFIG, makeSandbox, sandboxEnv, type Sandbox } from './cli-sandbox.js';
import { hostileCliSpawned } from './spawned-suite.js';

hostileCliSpawned(0, 2);

let sandbox: Sandbox;
before(() => {
  sandbox = makeSandbox();
});
after(() => sandbox.assertIntact());

test('argv cannot carry a NUL byte: the OS boundary refuses it before discern runs', () => {
  // So the CLI never meets one in an argument; files (discern.toml) are where a NUL can arrive, and the
  // in-process test writes one there.
  assert.throws(() => spawn(process.execPath, [DISCERN_BIN, 'status', 'a\u0000b']), { code: 'ERR_INVALID_ARG_VALUE' });
});

test('a gate job printing garbage protocol lines and malformed SARIF and JUnit still gets a valid answer', async () => {
  const root = sandbox.project('garbage-job').root;
  writeFileSync(join(root, 'garbage.sh'), GARBAGE_JOB);
  writeFileSync(join(root, 'discern.toml'), GOOD_CONFIG.replace('test = "true"', 'test = "sh garbage.sh"'));
  execFileSync('git', ['add', '-A'], { cwd: root });
  execFileSync('git', ['commit', '-qm', 'a job that prints garbage'], { cwd: root });
  const env = sandboxEnv(sandbox);
  for (const argv of [
    ['test', '--json'],
    ['done', '--json'],
  ]) {
    const r = await runCli(argv, { cwd: root, env });
    assertNoStack(r.stdout, 'stdout');
    assertNoStack(r.stderr, 'stderr');
    const result = JSON.parse(r.stdout) as { ok: boolean; error?: string; diagnostics?: unknown[] };
    assertPublishedResult(result);
    assert.equal(result.ok, false, `${argv.join(' ')} must fail: the job exits 1`);
    assert.notEqual(result.error, 'internal_error');
    assert.equal(r.code, 1, r.stdout.slice(0, 1000));
    assert.ok((result.diagnostics ?? []).length >= 1, 'the failed job is diagnosed');
  }
  sandbox.assertIntact();
});

/** Every kind of garbage a job can print, then a non-zero exit. */
const GARBAGE_JOB = String.raw`
printf 'DISCERN_PROGRESS {"units":{"kind":"t","completed":1e999}}\n'
printf 'DISCERN_PROGRESS {"units":{"kind":"t","completed":NaN}}\n'
printf 'DISCERN_PROGRESS {"units":{"kind":"t","completed":3\n'
printf 'DISCERN_PROGRESS {"__proto__":{"x":1},"results":{"__proto__":5,"constructor":2}}\n'
printf 'DISCERN_PROGRESS ['; head -c 20000 /dev/zero | tr '\0' '['; printf '\n'
printf 'DISCERN_PROGRESS {"failure":{"name":"n","message":"%s"}}\n' "$(head -c 30000 /dev/zero | tr '\0' m)"
printf 'DISCERN_PROGRESS \377\376{"partial":true}\n'
printf 'DISCERN_METRIC coverage 1e999\nDISCERN_METRIC coverage NaN\nDISCERN_METRIC cov erage 5\nDISCERN_METRIC __proto__ 3\nDISCERN_METRIC\n'
printf '\377\376\000 invalid bytes\n'
cat <<'SARIF'
{"version":"2.1.0","runs":[{"results":[{"ruleId":7,"message":"not an object","locations":[{"physicalLocation":{"artifactLocation":{"index":99},"region":{"startLine":"x"}}}]},null,[],{"message":{"text":"{0}{1}","arguments":[{}]}}],"artifacts":"nope"},"run",{"results":{"a":1}}]
SARIF
cat <<'JUNIT'
<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
<testsuites><testsuite name="&lol2;"><testcase name="t &lol2;" line="-4" file="../../../etc/passwd"><failure message="&#x110000;&#0;">&lol2;<![CDATA[unclosed
JUNIT
exit 1
`;
