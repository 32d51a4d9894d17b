// Child process for atomic-write.test.ts: rewrites one file many times with documents of varying size, each
// internally consistent (its body repeats its own version number), then prints how many it wrote.
import { writeFileAtomicSync } from '../../../src/engine/state/atomic-write.js';

const [path, countText] = process.argv.slice(2);
const count = Number(countText);
for (let version = 1; version <= count; version++) {
  // 20 KiB to 220 KiB: large enough that a non-atomic write would be observed half-done.
  const size = 20_000 + ((version * 7919) % 200_000);
  writeFileAtomicSync(String(path), JSON.stringify({ version, body: String(version % 10).repeat(size), size }), {
    fsync: version % 10 === 0,
  });
}
process.stdout.write(`${count}\n`);
