// The redactor masks every env-file value in a stream whatever the chunk boundaries, and leaves everything
// else byte for byte.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { envValues, REDACTED, redactText, StreamRedactor } from '../../../src/engine/jobs/redaction.js';

function streamed(text: string, secrets: string[], cuts: number[]): string {
  const bytes = Buffer.from(text, 'utf8');
  const redactor = new StreamRedactor(secrets);
  const out: Buffer[] = [];
  let from = 0;
  for (const cut of [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)) {
    out.push(redactor.push(bytes.subarray(from, cut)));
    from = cut;
  }
  out.push(redactor.push(bytes.subarray(from)), redactor.flush());
  return Buffer.concat(out).toString('utf8');
}

test('dotenv values: quoted, unquoted, export, comments; short values are not secrets', () => {
  const values = envValues(
    '# c\nexport API_TOKEN="s3cr3t-token"\nPORT=80\nNAME=\'quoted value\'\nBARE=plainvalue # note\nempty=\n',
  );
  assert.ok(values.includes('s3cr3t-token'));
  assert.ok(values.includes('quoted value'));
  assert.ok(values.includes('plainvalue'));
  assert.ok(!values.includes('80'));
});

test('a secret is masked wherever the stream is cut', () => {
  fc.assert(
    fc.property(fc.string(), fc.string(), fc.array(fc.nat(200), { maxLength: 8 }), (before, after, cuts) => {
      const secret = 'hunter2-Ω-secret';
      const text = `${before}${secret}${after}${secret}`;
      const out = streamed(text, [secret], cuts);
      assert.ok(!out.includes(secret));
      assert.equal(out, redactText(text, [secret]));
    }),
  );
});

test('text without a secret passes unchanged, however it is cut', () => {
  fc.assert(
    fc.property(fc.string(), fc.array(fc.nat(200), { maxLength: 8 }), (text, cuts) => {
      fc.pre(!text.includes('abcd'));
      assert.equal(streamed(text, ['abcd'], cuts), text);
    }),
  );
});

test('the longer of two overlapping secrets is masked whole', () => {
  assert.equal(redactText('x tokentoken-long y token', ['token', 'tokentoken-long']), `x ${REDACTED} y ${REDACTED}`);
});

test('a value inside a longer one (a URL and its password) is masked whole wherever the stream is cut', () => {
  const url = 'postgres://app:hunter22@db.internal/app';
  const secrets = [url, 'hunter22', 'db.internal'];
  assert.equal(redactText(`url=${url} end`, secrets), `url=${REDACTED} end`);
  fc.assert(
    fc.property(fc.string(), fc.string(), fc.array(fc.nat(120), { maxLength: 8 }), (before, after, cuts) => {
      const text = `${before}${url}${after}hunter22 db.internal`;
      const out = streamed(text, secrets, cuts);
      assert.equal(out, redactText(text, secrets));
      for (const s of secrets) assert.ok(!out.includes(s));
      assert.ok(!out.includes('postgres://app'));
    }),
  );
});

test('settings are not secrets: modes, levels, switches, loopback hosts, ports', () => {
  const values = envValues(
    'NODE_ENV=test\nLOG_LEVEL=info\nDEBUG=true\nHOST=localhost\nPORT=3000\nAPP_ENV=development\nAPI_KEY=k-1234-abcd\n',
  );
  assert.deepEqual(values, ['k-1234-abcd', 'k-1234-abcd']);
  assert.equal(redactText('FAIL test/a.test.ts:3000:5', values), 'FAIL test/a.test.ts:3000:5');
});
