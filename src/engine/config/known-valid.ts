// Texts of discern.toml already validated under the current schema, remembered so the validator (the largest
// module on the CLI's path) need not load: one file per text under <git-common-dir>/discern/config-valid/,
// named by a cheap hash of the schema digest and the text, and holding both in full — a lookup compares the
// whole content, so a hash collision is a miss, never a false hit. A changed schema or a changed byte misses.
// Best effort both ways: a cache that cannot be read or written only costs the validation it would have saved.
import { mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CONFIG_SCHEMA_DIGEST } from '../../../generated/config-schema-digest.js';

const KEPT = 32;

export interface KnownValid {
  has(text: string): Promise<boolean>;
  add(text: string): Promise<void>;
}

export function knownValidIn(dir: string): KnownValid {
  const content = (text: string): string => `${CONFIG_SCHEMA_DIGEST}\n${text}`;
  const path = (text: string): string =>
    join(dir, `${fnv1a(content(text), 0x811c9dc5)}${fnv1a(content(text), 0x01000193)}-${text.length}`);
  return {
    has: (text) =>
      readFile(path(text), 'utf8').then(
        (stored) => stored === content(text),
        () => false,
      ),
    add: async (text) => {
      try {
        await mkdir(dir, { recursive: true });
        await writeFile(path(text), content(text));
        const names = await readdir(dir);
        if (names.length > KEPT + 8) {
          const aged = await Promise.all(
            names.map(async (n) => ({ n, t: (await stat(join(dir, n)).catch(() => ({ mtimeMs: 0 }))).mtimeMs })),
          );
          aged.sort((a, b) => a.t - b.t);
          await Promise.all(aged.slice(0, aged.length - KEPT).map((a) => rm(join(dir, a.n), { force: true })));
        }
      } catch {
        // Unwritable state directory: the next load validates again.
      }
    },
  };
}

/** 32-bit FNV-1a over UTF-16 code units, as 8 hex digits: a file name, not a security boundary. */
function fnv1a(text: string, seed: number): string {
  let hash = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}
