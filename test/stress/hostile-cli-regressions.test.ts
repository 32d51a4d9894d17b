// Calls the hostile-input property test (hostile-cli.test.ts) once failed on, kept by name so they stay fixed
// whatever the generator draws next time. In process, like the property test.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { assertCleanLine, judge } from './cli-judge.js';
import { BAD_CONFIGS, GOOD_CONFIG, makeSandbox, sandboxEnv, type Sandbox } from './cli-sandbox.js';
import { runInProcess } from './in-process-cli.js';

let sandbox: Sandbox;
let root: string;
const savedEnv = { ...process.env };
const savedCwd = process.cwd();

before(() => {
  sandbox = makeSandbox();
  root = sandbox.project('regressions').root;
  for (const key of Object.keys(process.env)) delete process.env[key];
  Object.assign(process.env, sandboxEnv(sandbox, savedEnv));
  process.chdir(root);
});

after(() => {
  process.chdir(savedCwd);
  for (const key of Object.keys(process.env)) delete process.env[key];
  Object.assign(process.env, savedEnv);
});

function config(text: string | Buffer): void {
  writeFileSync(join(root, 'discern.toml'), text);
}

test('a value named like an Object.prototype member is a value, not a result-format flag', async () => {
  config(GOOD_CONFIG);
  for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
    const call = { argv: ['config', 'get', name, '--json'], format: 'json' };
    const r = await runInProcess(call.argv);
    judge(call, r);
    const result = JSON.parse(r.stdout) as { verb: string };
    assert.equal(result.verb, 'config get', `${name} was taken for something else: ${r.stdout}`);
  }
  // Before the fix: "--json and toString are mutually exclusive".
  const call = { argv: ['--json', 'accept', '..', '--met', 'toString'], format: 'json' };
  judge(call, await runInProcess(call.argv));
});

test('a grammar error on stderr stays one line without terminal controls, whatever the argv held', async () => {
  config(GOOD_CONFIG);
  for (const token of ['--line\nbreak', '--\u001b[2Jclear', '--\u202eevil', '--a\u2028b']) {
    const r = await runInProcess(['start', '..', token, '--markdown']);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assertCleanLine(r.stderr);
  }
});

test('a discern.toml nested thousands of tables deep is answered, not a stack overflow', async () => {
  config(BAD_CONFIGS['deep tables'] ?? '');
  for (const argv of [
    ['config', 'array', ' 1', '--json'],
    ['config', 'get', 'x', '--json'],
    ['config', 'keys', '--json'],
    ['config', 'subsections', 't0', '--json'],
    ['config', 'explain', 't0.t1', '--json'],
    ['config', 'set', 'project.name', 'x', '--json'],
    ['status', '--json'],
  ]) {
    judge({ argv, format: 'json' }, await runInProcess(argv));
  }
});

test('`__proto__` cannot name a key the config commands write, and a job named like an Object member is a custom job', async () => {
  for (const argv of [
    ['config', 'set-scope', '__proto__', '--paths', 'src/**', '--json'],
    ['config', 'set', 'scopes.__proto__.paths', '["x"]', '--json'],
    ['config', 'set-job', '__proto__', 'true', '--stage', 'test', '--json'],
  ]) {
    config(GOOD_CONFIG);
    const r = await runInProcess(argv);
    judge({ argv, format: 'json' }, r);
    assert.equal((JSON.parse(r.stdout) as { error?: string }).error, 'invalid_value', r.stdout);
  }
  config(GOOD_CONFIG);
  // Before the fix: "`constructor` is a known job name, and its stage is always function Object() …".
  const r = await runInProcess(['config', 'set-job', 'constructor', 'true', '--json']);
  judge({ argv: [], format: 'json' }, r);
  assert.doesNotMatch(r.stdout, /known job name|function|\[object/);
});
