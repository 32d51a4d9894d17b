// Every file of a checkout but .git, with its text: compared before and after a verb to prove what it changed
// and what it left byte for byte.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export function treeSnapshot(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string, prefix: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === '.git') continue;
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(join(dir, entry.name), rel);
      else out.set(rel, readFileSync(join(dir, entry.name), 'utf8'));
    }
  };
  walk(root, '');
  return out;
}
