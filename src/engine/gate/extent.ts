// The built-in extents a standard can be divided by ([standards.<n>] per = {files|lines|words|bytes = …}):
// counted over the tracked files the git pathspecs select, one file at a time so memory stays flat.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { StandardPer } from '../config/standards.js';
import { git, gitComplaint } from '../git/git.js';

export async function measureExtent(
  per: Extract<StandardPer, { kind: 'extent' }>,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<number> {
  const listed = await git(['ls-files', '-z', '--', ...per.pathspecs], { cwd, env });
  if (listed.code !== 0) throw new Error(`git ls-files failed: ${gitComplaint(listed)}`);
  const files = listed.stdout.split('\0').filter((p) => p.length > 0);
  if (per.extent === 'files') return files.length;
  let total = 0;
  for (const file of files) {
    const path = join(cwd, file);
    if (per.extent === 'bytes') total += (await stat(path).catch(() => ({ size: 0 }))).size;
    else total += await countIn(path, per.extent);
  }
  return total;
}

async function countIn(path: string, what: 'lines' | 'words'): Promise<number> {
  let count = 0;
  let inWord = false;
  let sawAny = false;
  let lastByte = 10;
  try {
    for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
      for (const byte of chunk) {
        sawAny = true;
        lastByte = byte;
        if (what === 'lines') {
          if (byte === 10) count++;
        } else {
          const space = byte === 32 || (byte >= 9 && byte <= 13);
          if (!space && !inWord) count++;
          inWord = !space;
        }
      }
    }
  } catch {
    return 0; // a file that vanished or cannot be read adds nothing
  }
  // A last line without a newline is still a line.
  if (what === 'lines' && sawAny && lastByte !== 10) count++;
  return count;
}
