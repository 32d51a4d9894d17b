// A policy file beside discern.toml (the trusted signers): a change that edited it since its merge-base and
// leaves it different from the trunk's needs the owner's approval, whatever it adds or removes; a line the trunk
// gained after the effort left it is not the effort's change.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { changedPaths, policyFileChanges, touchesPolicyFile } from '../../../src/engine/policy/policy-files.js';

const KEY_A = 'owner@example.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
const KEY_B = 'agent@example.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB';
const path = 'discern/allowed_signers';

describe('policy files', () => {
  it('a key the change adds is a policy change that needs approve_policy', () => {
    const [change, ...rest] = policyFileChanges([
      { path, trunk: `${KEY_A}\n`, base: `${KEY_A}\n`, head: `${KEY_A}\n${KEY_B}\n` },
    ]);
    assert.equal(rest.length, 0);
    assert.equal(change?.section, path);
    assert.equal(change?.approval, 'approve_policy');
    assert.equal(change?.kind, 'change');
    assert.deepEqual(change?.change, [KEY_A, KEY_B]);
    assert.match(change?.sentence ?? '', /adds 1 line/);
  });

  it('adding the file where the trunk has none, and removing it, are policy changes too', () => {
    assert.equal(policyFileChanges([{ path, trunk: undefined, base: undefined, head: KEY_B }])[0]?.kind, 'addition');
    assert.equal(policyFileChanges([{ path, trunk: KEY_A, base: KEY_A, head: undefined }])[0]?.kind, 'removal');
  });

  it('a retirement (valid-before) is a change, not a free edit', () => {
    const retired = KEY_A.replace(' ssh-ed25519', ' valid-before="20270101" ssh-ed25519');
    assert.equal(policyFileChanges([{ path, trunk: KEY_A, base: KEY_A, head: retired }]).length, 1);
  });

  it('no change when the effort left the file alone, or when it only has what the trunk gained', () => {
    assert.deepEqual(policyFileChanges([{ path, trunk: `${KEY_A}\n${KEY_B}`, base: KEY_A, head: KEY_A }]), []);
    assert.deepEqual(policyFileChanges([{ path, trunk: KEY_A, base: undefined, head: `# comment\n\n${KEY_A}\n` }]), []);
  });

  it('the change set decides whether the files are read at all', () => {
    assert.equal(touchesPolicyFile(['src/a.ts', 'README.md']), false);
    assert.equal(touchesPolicyFile(changedPaths([{ path: 'keys.txt', from: path }])), true);
  });
});
