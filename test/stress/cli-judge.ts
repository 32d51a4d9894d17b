// What every hostile call's answer must be, in-process or spawned: no stack trace anywhere, no exit 70; under
// --json exactly one line, valid against the published results schema, not internal_error, with the exit status
// the reference's table gives that result and nothing on stderr; two result formats at once are a one-line
// grammar error with exit 2; a --markdown call either answers on stdout or is such a grammar error.
import assert from 'node:assert/strict';
import { assertPublishedResult } from '../helpers/published-schema.js';
import { assertNoStack, errorFamilies, expectedExit } from './cli-sandbox.js';

const families = errorFamilies();

export interface CallAnswer {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function judge(call: { argv: string[]; format: string }, r: CallAnswer): void {
  assertNoStack(r.stdout, 'stdout');
  assertNoStack(r.stderr, 'stderr');
  assert.notEqual(r.code, 70, `exit 70 (internal error):\n${r.stdout.slice(0, 2000)}\n${r.stderr.slice(0, 2000)}`);
  if (call.format === 'conflict') {
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assertCleanLine(r.stderr);
    return;
  }
  if (call.format === 'markdown') {
    if (r.stdout === '') {
      assert.equal(r.code, 2, `no result and exit ${r.code}; stderr: ${r.stderr.slice(0, 500)}`);
      assertCleanLine(r.stderr);
    } else assert.ok([0, 1, 2, 124].includes(r.code ?? -1), `exit ${r.code}`);
    return;
  }
  assert.ok(
    r.stdout.endsWith('\n') && r.stdout.indexOf('\n') === r.stdout.length - 1,
    `--json must print exactly one line:\n${r.stdout.slice(0, 2000)}\nstderr: ${r.stderr.slice(0, 500)}`,
  );
  const result = JSON.parse(r.stdout) as Record<string, unknown>;
  assertPublishedResult(result);
  assert.notEqual(result['error'], 'internal_error', String(result['message']));
  assert.equal(r.code, expectedExit(result, families), `exit ${r.code} for ${r.stdout.slice(0, 500)}`);
  assert.equal(r.stderr, '', '--json narrates nothing on stderr');
}

/** A grammar error on stderr: one line, no terminal control characters whatever the argv held. */
export function assertCleanLine(stderr: string): void {
  assert.match(stderr, /^discern: [^\n]*\n$/);
  assert.ok(
    !/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/.test(stderr),
    `control characters on stderr: ${JSON.stringify(stderr)}`,
  );
}
