// The code cache of dist/ (docs/decisions/0042, 0056): the build's cache is accepted by a Node with the build's
// V8; any other V8 gets discern's own cache, written once per file in the user's cache directory; a cache V8
// refuses (here: garbage) changes nothing but speed; and an ordinary call never writes into dist/. Needs dist/:
// `npm test` builds first.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { cachedDataVersionTag } from 'node:v8';
import { Script } from 'node:vm';
import { crc32 } from 'node:zlib';
import { REPO_ROOT } from '../helpers/cli.js';
import { cleanEnv, scratchRepo, tempDir } from '../helpers/scratch-repo.js';

const DIST = join(REPO_ROOT, 'dist');
const CACHE = join(DIST, 'code-cache');
const wrap = (createRequire(import.meta.url)('node:module') as { wrap(source: string): string }).wrap;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

function snapshot(dir: string): string {
  return filesUnder(dir)
    .map((f) => `${relative(dir, f)} ${statSync(f).size} ${statSync(f).mtimeMs}`)
    .join('\n');
}

/** Whether this Node's V8 is the one that made the cache in dist/ (bin.cts chooses its loader by this). */
const MADE = JSON.parse(readFileSync(join(CACHE, 'build.json'), 'utf8')) as { v8_tag: string; build: string };
const sameV8 = MADE.v8_tag === String(cachedDataVersionTag());

function discern(
  dist: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [join(dist, 'discern.js'), ...args], {
    cwd,
    env: cleanEnv(env),
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A user cache file's payload, after checking the CRC-32 it ends with (user-code-cache.cts). */
function payloadOf(file: string): Buffer {
  const bytes = readFileSync(file);
  const payload = bytes.subarray(0, bytes.length - 4);
  assert.equal(crc32(payload), bytes.readUInt32LE(bytes.length - 4), `${file} ends with its payload's checksum`);
  return payload;
}

/** Whether V8 takes a user cache file's payload for its source file in `dist`. */
function acceptedFor(dist: string, cacheDir: string, cache: string): boolean {
  const source = join(dist, relative(cacheDir, cache).replace(/\.bin$/, ''));
  return !new Script(wrap(readFileSync(source, 'utf8')), { filename: source, cachedData: payloadOf(cache) })
    .cachedDataRejected;
}

/** A cache directory holds the CLI entry's cache and the CLI core chunk's. */
function assertEntryAndCoreCached(dir: string, caches: readonly string[]): void {
  assert.ok(
    caches.some((f) => relative(dir, f) === 'cli.js.bin'),
    'the entry is cached',
  );
  assert.ok(
    caches.some((f) => /^chunks\/run-.*\.js\.bin$/.test(relative(dir, f))),
    'the CLI core chunk is cached',
  );
}

describe('the code cache in dist/', () => {
  assert.ok(existsSync(join(DIST, 'discern.js')), 'dist/ is missing: run `npm run build` (npm test builds first)');

  it('holds a cache for the CLI entry and the chunks a call loads, and V8 accepts each one for its file', (t) => {
    if (!sameV8) {
      t.skip(`this Node's V8 (tag ${String(cachedDataVersionTag())}) is not the build's: the next test covers it`);
      return;
    }
    const caches = filesUnder(CACHE).filter((f) => f.endsWith('.bin'));
    assertEntryAndCoreCached(CACHE, caches);
    for (const cache of caches) {
      const source = join(DIST, relative(CACHE, cache).replace(/\.bin$/, ''));
      assert.ok(existsSync(source), `${relative(CACHE, cache)} belongs to a file of dist/`);
      const script = new Script(wrap(readFileSync(source, 'utf8')), {
        filename: source,
        cachedData: readFileSync(cache),
      });
      assert.equal(script.cachedDataRejected, false, `V8 accepts ${relative(CACHE, cache)}`);
    }
    console.log(`caches checked: ${caches.length}`);
  });

  it("on a V8 that is not the build's, each file's cache is written once into the user's cache, never into dist/", () => {
    // Any line plays "another Node": a copy of dist/ whose record names a V8 that is not this one.
    const copy = join(tempDir('code-cache-'), 'dist');
    cpSync(DIST, copy, { recursive: true });
    writeFileSync(join(copy, 'code-cache', 'build.json'), `${JSON.stringify({ ...MADE, v8_tag: 'another-v8' })}\n`);
    const userCache = tempDir('discern-code-cache-');
    const mine = join(userCache, `${String(cachedDataVersionTag())}-${MADE.build}`);
    const before = snapshot(join(copy, 'code-cache'));
    const repo = scratchRepo({ 'discern.toml': '[project]\nname = "cache"\n' });
    try {
      const env = { DISCERN_CODE_CACHE: userCache };
      const first = discern(copy, ['status', '--json'], repo.root, env);
      assert.equal(first.status, 0, first.stderr);
      const written = filesUnder(mine);
      assertEntryAndCoreCached(mine, written);
      assert.ok(!written.some((f) => f.endsWith('.tmp')), 'no partial file is left');
      for (const cache of written) {
        assert.equal(statSync(cache).mode & 0o077, 0, `${relative(mine, cache)} is the user's alone`);
        assert.ok(acceptedFor(copy, mine, cache), `V8 accepts ${relative(mine, cache)}`);
      }
      const filled = snapshot(mine);
      const second = discern(copy, ['status', '--json'], repo.root, env);
      assert.equal(second.status, 0, second.stderr);
      assert.equal((JSON.parse(second.stdout) as { verb: string }).verb, 'status');
      assert.equal(snapshot(mine), filled, 'a file cached once is read, not written again');
      // A damaged cache file is compiled around and written again: V8 itself checks little more than the length,
      // and would crash on a damaged payload, so the checksum is what catches it.
      const core = written.find((f) => /^chunks\/run-.*\.js\.bin$/.test(relative(mine, f))) ?? '';
      const damaged = readFileSync(core);
      for (let i = 1000; i < 1100; i++) damaged[i] = (damaged[i] ?? 0) ^ 0xff;
      writeFileSync(core, damaged);
      const third = discern(copy, ['status', '--json'], repo.root, env);
      assert.equal(third.status, 0, third.stderr);
      assert.equal(third.stderr, '');
      assert.equal((JSON.parse(third.stdout) as { verb: string }).verb, 'status');
      assert.ok(acceptedFor(copy, mine, core), 'the damaged cache was written again');
      // A directory another user could write into is not read or written.
      chmodSync(mine, 0o777);
      rmSync(core);
      const shared = discern(copy, ['status', '--json'], repo.root, env);
      assert.equal(shared.status, 0, shared.stderr);
      assert.ok(!existsSync(core), 'nothing is written into a directory others can write');
      chmodSync(mine, 0o700);
      // A cache directory that cannot be made costs only speed.
      const blocked = join(userCache, 'a-file');
      writeFileSync(blocked, '');
      const unwritable = discern(copy, ['status', '--json'], repo.root, { DISCERN_CODE_CACHE: blocked });
      assert.equal(unwritable.status, 0, unwritable.stderr);
      assert.equal(unwritable.stderr, '');
    } finally {
      repo.cleanup();
    }
    assert.equal(snapshot(join(copy, 'code-cache')), before, 'nothing was written into dist/');
  });

  it("on the build's V8, a file the build's calls never loaded is cached in the user's cache", (t) => {
    if (!sameV8) {
      t.skip("this Node's V8 is not the build's: the test above covers it");
      return;
    }
    const untrained = readdirSync(join(DIST, 'chunks')).find(
      (n) => n.startsWith('licenses-') && !n.includes('-input-'),
    );
    assert.ok(untrained, 'licenses is a chunk of its own');
    assert.ok(!existsSync(join(CACHE, 'chunks', `${untrained}.bin`)), "the build's calls do not load it");
    const userCache = tempDir('discern-code-cache-');
    const mine = join(userCache, `${String(cachedDataVersionTag())}-${MADE.build}`);
    const before = snapshot(CACHE);
    const answer = discern(DIST, ['licenses', '--json'], userCache, { DISCERN_CODE_CACHE: userCache });
    assert.equal(answer.status, 0, answer.stderr);
    const cached = join(mine, 'chunks', `${untrained}.bin`);
    assert.ok(acceptedFor(DIST, mine, cached), `${untrained} is cached for the next call`);
    assert.ok(!existsSync(join(mine, 'cli.js.bin')), "a file the build's cache holds is not cached again");
    assert.equal(snapshot(CACHE), before, 'nothing was written into dist/');
  });

  it('a cache V8 refuses is ignored: the same answers, compiled from source', () => {
    const copy = join(tempDir('code-cache-'), 'dist');
    cpSync(DIST, copy, { recursive: true });
    for (const cache of filesUnder(join(copy, 'code-cache')).filter((f) => f.endsWith('.bin')))
      writeFileSync(cache, Buffer.from('not bytecode at all'));
    const repo = scratchRepo({ 'discern.toml': '[project]\nname = "cache"\n' });
    try {
      for (const args of [['--version'], ['status', '--json'], ['docs', '--search', 'exit codes', '--json']]) {
        const shipped = discern(DIST, args, repo.root);
        const garbled = discern(copy, args, repo.root);
        assert.equal(garbled.status, shipped.status, args.join(' '));
        assert.equal(garbled.stderr, '', args.join(' '));
        if (args[0] === 'status') {
          // Status names times; the verdict and the facts it read are what must agree.
          const [a, b] = [
            JSON.parse(shipped.stdout) as { ok: boolean; verb: string },
            JSON.parse(garbled.stdout) as { ok: boolean; verb: string },
          ];
          assert.deepEqual([b.ok, b.verb], [a.ok, a.verb]);
        } else {
          assert.equal(garbled.stdout, shipped.stdout, args.join(' '));
        }
      }
    } finally {
      repo.cleanup();
    }
  });

  it('a chunk that fails to load fails every time with its own error, never with half-made exports', () => {
    const copy = join(tempDir('code-cache-'), 'dist');
    cpSync(DIST, copy, { recursive: true });
    // done asks for its gate module early (and ignores a failure there), then again when it needs it.
    const chunk = readdirSync(join(copy, 'chunks')).find((n) => n.startsWith('done-run-'));
    assert.ok(chunk, 'the gate module is a chunk of its own');
    const file = join(copy, 'chunks', chunk);
    writeFileSync(file, `throw new Error('this chunk broke on purpose');\n${readFileSync(file, 'utf8')}`);
    const repo = scratchRepo({ 'discern.toml': '[project]\nname = "cache"\n\n[jobs]\ntest = "true"\n' });
    try {
      const answer = discern(copy, ['done', '--rerun', '--json'], repo.root);
      const result = JSON.parse(answer.stdout) as { error?: string; message?: string };
      assert.equal(result.error, 'internal_error', answer.stdout);
      assert.match(result.message ?? '', /this chunk broke on purpose/);
    } finally {
      repo.cleanup();
    }
  });

  it('an ordinary call writes nothing into dist/', () => {
    const before = snapshot(CACHE);
    const repo = scratchRepo({ 'discern.toml': '[project]\nname = "cache"\n\n[jobs]\ntest = "true"\n' });
    try {
      const done = discern(DIST, ['done', '--json'], repo.root);
      assert.equal((JSON.parse(done.stdout) as { verb: string }).verb, 'done', 'done ran its gate');
      assert.equal(discern(DIST, ['status', '--json'], repo.root).status, 0);
    } finally {
      repo.cleanup();
    }
    assert.equal(snapshot(CACHE), before);
  });
});
