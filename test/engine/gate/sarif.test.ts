// The SARIF a done result becomes: every result has a location (GitHub code scanning refuses an upload holding
// one without), paths stay paths whatever characters they hold, and a red gate is a run that succeeded in
// finding problems, while a refusal is not.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { DiscernResult } from '../../../generated/types.js';
import { sarifOf } from '../../../src/engine/gate/sarif.js';

type Run = {
  invocations: { executionSuccessful: boolean; exitCode: number }[];
  originalUriBaseIds: Record<string, { uri: string }>;
  results: { locations: { physicalLocation: { artifactLocation: { uri: string }; region?: object } }[] }[];
};

function runOf(result: object, exitCode = 1): Run {
  const document = sarifOf(result as DiscernResult, '/work/my repo', 'abc123', exitCode) as { runs: Run[] };
  const [run] = document.runs;
  assert.ok(run);
  return run;
}

const red = {
  ok: false,
  verb: 'done',
  error: 'gate_failed',
  message: 'The gate failed.',
  diagnostics: [
    { tool: 'test', severity: 'error', message: 'exit 1', reproduce_cmd: 'npm test' },
    { tool: 'lint', severity: 'warning', message: 'odd', reproduce_cmd: 'npm run lint', file: 'src/a#b?.ts', line: 2 },
  ],
};

describe('sarifOf', () => {
  it('places a diagnostic without a file on discern.toml, which defines the job', () => {
    const run = runOf(red);
    assert.deepEqual(run.results[0]?.locations, [
      {
        physicalLocation: {
          artifactLocation: { uri: 'discern.toml', uriBaseId: '%SRCROOT%' },
          region: { startLine: 1 },
        },
      },
    ]);
  });
  it('percent-encodes each path segment, and the root as a file URL', () => {
    const run = runOf(red);
    assert.equal(run.results[1]?.locations[0]?.physicalLocation.artifactLocation.uri, 'src/a%23b%3F.ts');
    assert.equal(run.originalUriBaseIds['%SRCROOT%']?.uri, 'file:///work/my%20repo/');
  });
  it('a red gate ran successfully; a refusal did not; the exit code is the process one', () => {
    const invocation = runOf(red).invocations[0];
    assert.deepEqual([invocation?.executionSuccessful, invocation?.exitCode], [true, 1]);
    const refused = { ok: false, verb: 'done', error: 'no_trunk', message: 'No trunk.' };
    assert.equal(runOf(refused).invocations[0]?.executionSuccessful, false);
    assert.deepEqual(runOf({ ok: true, verb: 'done' }, 0).invocations[0], { executionSuccessful: true, exitCode: 0 });
  });
});
