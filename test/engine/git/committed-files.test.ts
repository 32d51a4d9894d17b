// One `cat-file --batch` answers several committed-file reads exactly as their own commands would: found blobs
// byte for byte (invalid UTF-8 decoded the same way), and every other case — a missing path, a tree, a bad
// revision, a name the batch protocol cannot carry — by running that command, so its message is git's own.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { git } from '../../../src/engine/git/git.js';
import { parseBatch, readCommittedFiles } from '../../../src/engine/git/committed-files.js';
import { cleanEnv, scratchRepo } from '../../helpers/scratch-repo.js';

const env = cleanEnv({ GIT_CONFIG_NOSYSTEM: '1' });
const r = scratchRepo({ 'discern.toml': '[project]\nname = "x"\n', 'dir/inner.txt': 'inner\n' });
after(() => r.cleanup());
writeFileSync(join(r.root, 'latin1.toml'), Buffer.from([0x61, 0xe9, 0x0a, 0xff, 0xfe, 0x0a]));
mkdirSync(join(r.root, 'empty-file-dir'), { recursive: true });
writeFileSync(join(r.root, 'empty-file-dir/empty'), '');
r.commit('files');
const head = r.git('rev-parse', 'HEAD').trim();

describe('committed files in one batch', () => {
  it('answers each request as its own command does', async () => {
    const names = [
      `${head}:discern.toml`,
      'refs/heads/main:latin1.toml',
      'refs/heads/main:missing.toml',
      `${head}:dir`,
      'no-such-ref:discern.toml',
      'HEAD:empty-file-dir/empty',
      'HEAD:with\nnewline',
    ];
    const requests = names.flatMap((name) => [
      { name, command: ['cat-file', 'blob', name] },
      { name, command: ['show', name] },
    ]);
    const batched = await Promise.all(readCommittedFiles(requests, { cwd: r.root, env }));
    for (const [i, request] of requests.entries()) {
      const alone = await git(request.command, { cwd: r.root, env });
      assert.deepEqual(
        { code: batched[i]?.code, stdout: batched[i]?.stdout, stderr: batched[i]?.stderr },
        { code: alone.code, stdout: alone.stdout, stderr: alone.stderr },
        `${request.command.join(' ')}`,
      );
    }
  });

  it('parses missing answers and non-blobs as absent, and stops at truncated output', () => {
    const out = Buffer.concat([
      Buffer.from('a:b missing\n'),
      Buffer.from(`${'1'.repeat(40)} blob 3\nxyz\n`),
      Buffer.from(`${'2'.repeat(40)} tree 2\n\0\0\n`),
      Buffer.from(`${'3'.repeat(40)} blob 9\nshort`),
    ]);
    const parsed = parseBatch(out, 4);
    assert.equal(parsed[0], undefined);
    assert.equal(parsed[1]?.toString(), 'xyz');
    assert.equal(parsed[2], undefined);
    assert.equal(parsed[3], undefined);
  });
});
