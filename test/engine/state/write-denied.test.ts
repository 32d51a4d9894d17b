// Which failures are a write the file system refused (write_denied at the verb boundary) and which stay crashes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { asWriteDenied, gitWriteRefusal, WriteDenied } from '../../../src/engine/state/write-denied.js';

describe('write refusals', () => {
  for (const code of ['EROFS', 'ENOSPC', 'EDQUOT', 'EACCES', 'EPERM']) {
    it(`${code} is a refused write, named with its path`, () => {
      const denied = asWriteDenied(Object.assign(new Error('x'), { code }), '/repo/.git/discern/locks');
      assert.ok(denied instanceof WriteDenied);
      assert.equal(denied.code, code);
      assert.match(denied.message, /^\/repo\/\.git\/discern\/locks could not be written \(/);
    });
  }

  it('anything else is not', () => {
    assert.equal(asWriteDenied(Object.assign(new Error('x'), { code: 'ENOENT' }), '/x'), undefined);
    assert.equal(asWriteDenied(new Error('no code'), '/x'), undefined);
  });

  it("git's own wording of a refused write is recognised", () => {
    assert.equal(gitWriteRefusal('fatal: unable to create temporary file: Read-only file system'), 'EROFS');
    assert.equal(gitWriteRefusal('error: unable to write loose object file: No space left on device'), 'ENOSPC');
    assert.equal(gitWriteRefusal('fatal: bad object deadbeef'), undefined);
  });
});
