// The envelope schema's key set is locked to what the core can emit: a maximal preview plus a maximal applied
// failure together produce exactly the envelope's properties — no field the schema promises goes unemitted,
// and nothing is emitted that the schema does not declare.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { buildEnvelope } from '../../src/core/envelope.js';
import type { CompletionPolicy } from '../../generated/registry.js';
import { resultValidator } from '../helpers/published-schema.js';

const policy: CompletionPolicy = {
  required_postconditions: ['declared-outcome', 'executed-steps'],
  optional_advisories: ['doctor-warning'],
  refusal: 'failure',
  cancellation: 'failure',
  partial_effect: 'failure',
  no_op: 'success',
  recovery_owner: 'caller',
};
const envelope = JSON.parse(readFileSync(new URL('../../spec/envelope.schema.json', import.meta.url), 'utf8')) as {
  properties: Record<string, unknown>;
};

describe('maximal results', () => {
  const diagnostic = {
    tool: 'tsc',
    severity: 'error',
    message: 'm',
    reproduce_cmd: 'npx tsc',
    output: 'o',
    truncated: true,
    output_path: '/p',
    file: 'a.ts',
    line: 1,
    col: 2,
    rule: 'TS1',
    fix_available: false,
  } as const;
  const applied = buildEnvelope(
    { verb: 'doctor', policy },
    {
      steps: [
        {
          kind: 'job',
          label: 'test',
          disposition: 'run',
          outcome: 'failed',
          note: 'npm test',
          group: 'test',
          duration_s: 3,
          output_path: '/o',
          output_lines: 10,
          error_like_lines: 2,
          advisory: { kind: 'doctor-warning', evidence: ['e'], next_action: 'n' },
        },
      ],
      waited_ms: 5,
      diagnostics: [diagnostic],
      diagnostic_evidence: { path: '/d', digest: 'sha256:x', bytes: 10, total: 3, shown: 1, repeats: [2] },
      advisories: [{ kind: 'doctor-warning', evidence: ['e'], next_action: 'n' }],
      hints: ['h'],
      data: { issues: [{ kind: 'unknown_key', path: 'x.y', message: 'm', line: 1, column: 1 }] },
      refusal: { error: 'gate_failed', message: 'the test job failed', next: { rerun: 'discern done' } },
    },
  );
  const preview = buildEnvelope(
    { verb: 'doctor', policy },
    {
      dry_run: true,
      plan: {
        title: 't',
        details: ['d'],
        steps: [{ kind: 'git', label: 'l', disposition: 'run', note: 'n', group: 'g' }],
      },
    },
  );

  it('emits exactly the envelope schema properties between them', () => {
    const emitted = new Set([...Object.keys(applied), ...Object.keys(preview)]);
    assert.deepEqual([...emitted].sort(), Object.keys(envelope.properties).sort());
  });
  it('both validate against the published schema', () => {
    const validate = resultValidator('DiscernDoctorResult');
    assert.ok(validate(applied), JSON.stringify(validate.errors));
    assert.ok(validate(preview), JSON.stringify(validate.errors));
  });
});
