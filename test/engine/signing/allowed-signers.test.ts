// The allowed-signers reader: git's format as ssh-keygen documents it. A key is trusted only on a line that
// names it, admits the namespace and was valid at the signing time; a retired key (valid-before) still verifies
// what it signed before then. Lines it cannot read are reported, not fatal.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { ed25519PublicKey } from '../../../src/engine/signing/discern-key.js';
import { publicKeyText } from '../../../src/engine/signing/ssh-keys.js';
import { findSigner, parseAllowedSigners, parseSignerTime } from '../../../src/engine/signing/allowed-signers.js';

const NS = 'discern-proof@discern.sh';
const newKey = () => ed25519PublicKey(generateKeyPairSync('ed25519').privateKey);

describe('allowed signers', () => {
  it('reads principals, options and keys, and trusts only the listed key for its namespaces', () => {
    const owner = newKey();
    const other = newKey();
    const file = parseAllowedSigners(
      [
        '# the owner',
        '',
        `owner@example.com,"ci bot" namespaces="discern-*@discern.sh,git" ${publicKeyText(owner)} laptop`,
        `reviewer@example.com namespaces="git" ${publicKeyText(other)}`,
      ].join('\n'),
    );
    assert.deepEqual(file.problems, []);
    assert.equal(file.signers.length, 2);
    assert.deepEqual(file.signers[0]?.principals, ['owner@example.com', 'ci bot']);
    const at = new Date('2026-06-01T00:00:00Z');
    const found = findSigner(file, owner, NS, at);
    assert.ok(found.ok && found.signer.line === 3);
    const gitOnly = findSigner(file, other, NS, at);
    assert.equal(!gitOnly.ok && gitOnly.reason, 'namespace_not_allowed');
    const stranger = findSigner(file, newKey(), NS, at);
    assert.equal(!stranger.ok && stranger.reason, 'untrusted_key');
  });

  it('a retired key verifies what it signed before valid-before, and nothing after', () => {
    const key = newKey();
    const file = parseAllowedSigners(
      `owner@example.com valid-after="20260101",valid-before="20260601Z" ${publicKeyText(key)}\n`,
    );
    assert.ok(findSigner(file, key, NS, new Date('2026-03-01T12:00:00Z')).ok);
    const late = findSigner(file, key, NS, new Date('2026-06-01T00:00:00Z'));
    assert.equal(!late.ok && late.reason, 'signer_not_valid_then');
  });

  it('a cert-authority line trusts no plain key, and unreadable lines are reported with their number', () => {
    const key = newKey();
    const file = parseAllowedSigners(
      [
        `*@example.com cert-authority ${publicKeyText(key)}`,
        'only-a-principal',
        `owner@example.com valid-before="tomorrow" ${publicKeyText(key)}`,
        `owner@example.com restrict ${publicKeyText(key)}`,
        'owner@example.com ssh-ed25519 AAAAnotakey',
      ].join('\n'),
    );
    assert.equal(findSigner(file, key, NS, new Date()).ok, false);
    assert.deepEqual(
      file.problems.map((p) => p.line),
      [2, 3, 4, 5],
    );
  });

  it('reads ssh-keygen time forms', () => {
    assert.equal(parseSignerTime('20260102Z')?.toISOString(), '2026-01-02T00:00:00.000Z');
    assert.equal(parseSignerTime('202601021530Z')?.toISOString(), '2026-01-02T15:30:00.000Z');
    assert.equal(parseSignerTime('20260102153045Z')?.toISOString(), '2026-01-02T15:30:45.000Z');
    assert.equal(parseSignerTime('2026-01-02'), undefined);
  });
});
