// Atomic whole-file writes and tolerant JSON reads, against real files and a real concurrent writer.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createFileExclusive,
  createFileExclusiveSync,
  readJsonFile,
  readJsonFileSync,
  writeFileAtomic,
  writeFileAtomicSync,
} from '../../../src/engine/state/atomic-write.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const churn = fileURLToPath(new URL('./atomic-churn.ts', import.meta.url));

describe('atomic write', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'discern-atomic-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('creates parent directories, replaces the file and leaves no temp file', async () => {
    const path = join(dir, 'a', 'b', 'state.json');
    await writeFileAtomic(path, '{"n":1}');
    await writeFileAtomic(path, '{"n":2}');
    writeFileAtomicSync(path, Buffer.from('{"n":3}'));
    assert.equal(readFileSync(path, 'utf8'), '{"n":3}');
    assert.deepEqual(readdirSync(join(dir, 'a', 'b')), ['state.json']);
  });

  it('applies the mode exactly, whatever the umask', async () => {
    const path = join(dir, 'private.json');
    await writeFileAtomic(path, '{}', { mode: 0o600 });
    assert.equal(statSync(path).mode & 0o777, 0o600);
    writeFileAtomicSync(path, '{}', { mode: 0o640 });
    assert.equal(statSync(path).mode & 0o777, 0o640);
  });

  it('removes its temp file and keeps the old content when the write fails', async () => {
    const target = join(dir, 'occupied');
    mkdirSync(join(target, 'inside'), { recursive: true });
    await assert.rejects(writeFileAtomic(target, 'x'));
    assert.throws(() => writeFileAtomicSync(target, 'x'));
    assert.deepEqual(
      readdirSync(dir).filter((n) => n.endsWith('.tmp')),
      [],
    );

    // A read-only directory: the temp file cannot even be created; nothing changes.
    const locked = join(dir, 'locked');
    mkdirSync(locked);
    writeFileSync(join(locked, 'f.json'), 'old');
    chmodSync(locked, 0o500);
    try {
      if (process.getuid?.() !== 0) {
        await assert.rejects(writeFileAtomic(join(locked, 'f.json'), 'new'));
        assert.equal(readFileSync(join(locked, 'f.json'), 'utf8'), 'old');
      }
    } finally {
      chmodSync(locked, 0o700);
    }
    assert.deepEqual(readdirSync(locked), ['f.json']);
  });

  it('creates exclusively: the second creator gets false and the first content stays', async () => {
    const path = join(dir, 'excl', 'one.json');
    assert.equal(await createFileExclusive(path, 'first'), true);
    assert.equal(await createFileExclusive(path, 'second'), false);
    assert.equal(createFileExclusiveSync(path, 'third'), false);
    assert.equal(readFileSync(path, 'utf8'), 'first');
    assert.deepEqual(readdirSync(join(dir, 'excl')), ['one.json']);
  });

  it('never lets a reader see a partial file while another process rewrites it', async () => {
    const path = join(dir, 'churn.json');
    writeFileAtomicSync(path, JSON.stringify({ version: 0, body: '0', size: 1 }));
    const child = spawn(process.execPath, ['--import', 'tsx', churn, path, '150'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let running = true;
    const exited = new Promise<number | null>((resolve) =>
      child.once('exit', (code) => ((running = false), resolve(code))),
    );
    const versions = new Set<number>();
    let reads = 0;
    while (running) {
      const read = readJsonFileSync<{ version: number; body: string; size: number }>(path);
      assert.ok(read.ok, read.ok ? '' : read.detail);
      const { version, body, size } = read.value;
      if (version > 0) {
        assert.equal(body.length, size);
        assert.equal(body, String(version % 10).repeat(size), 'a whole document of one version');
      }
      versions.add(version);
      reads += 1;
      await new Promise((r) => setImmediate(r));
    }
    assert.equal(await exited, 0);
    assert.ok(reads > 10, `read ${reads} times`);
    assert.ok(versions.size > 2, `saw ${versions.size} versions`);
    assert.deepEqual(
      readdirSync(dir).filter((n) => n.includes('churn') && n.endsWith('.tmp')),
      [],
    );
  });

  it('reads JSON back as ok, missing, unreadable or malformed', async () => {
    const good = join(dir, 'good.json');
    writeFileSync(good, '{"a":[1,2]}');
    assert.deepEqual(await readJsonFile(good), { ok: true, value: { a: [1, 2] } });
    assert.deepEqual(readJsonFileSync(good), { ok: true, value: { a: [1, 2] } });

    const missing = await readJsonFile(join(dir, 'nope.json'));
    assert.equal(missing.ok, false);
    assert.equal(!missing.ok && missing.reason, 'missing');
    assert.equal((readJsonFileSync(join(dir, 'good.json', 'below')) as { reason: string }).reason, 'missing');

    const unreadable = await readJsonFile(dir);
    assert.equal(!unreadable.ok && unreadable.reason, 'unreadable');

    writeFileSync(join(dir, 'bad.json'), '{"a":');
    const malformed = await readJsonFile(join(dir, 'bad.json'));
    assert.equal(!malformed.ok && malformed.reason, 'malformed');
    writeFileSync(join(dir, 'empty.json'), '');
    const empty = readJsonFileSync(join(dir, 'empty.json'));
    assert.equal(!empty.ok && empty.reason, 'malformed');
    assert.match(!empty.ok ? empty.detail : '', /empty/);
    assert.equal(existsSync(join(dir, 'nope.json')), false);
  });
});
