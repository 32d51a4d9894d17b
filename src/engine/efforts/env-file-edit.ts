// Reading and editing dotenv-style files for a worktree ([worktree] port and inherit_env): the values the main
// checkout's env files assign (the last file that sets a name wins, as env_files documents), and a file's text
// with some names' lines replaced, every other line kept as it was.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ASSIGNMENT = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=(.*)$/;

/** Each name a text assigns, with its value as written (quotes kept): the last assignment of a name counts. */
export function envAssignments(text: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const match = ASSIGNMENT.exec(line);
    if (match !== null) found.set(match[1] as string, (match[2] as string).trim());
  }
  return found;
}

/** What the env files under root assign, read in order so a later file overrides an earlier one. */
export function readEnvAssignments(root: string, files: readonly string[]): Map<string, string> {
  const merged = new Map<string, string>();
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(join(root, file), 'utf8');
    } catch {
      continue;
    }
    for (const [name, value] of envAssignments(text)) merged.set(name, value);
  }
  return merged;
}

/**
 * The text with each given name set: its existing lines (every one, `export` form included) replaced by a single
 * `NAME=value` where the first stood, a name not yet there appended; all other lines unchanged.
 */
export function setEnvValues(text: string, values: ReadonlyMap<string, string>): string {
  const lines = text === '' ? [] : text.replace(/\r?\n$/, '').split(/\r?\n/);
  const written = new Set<string>();
  const out: string[] = [];
  for (const line of lines) {
    const name = ASSIGNMENT.exec(line)?.[1];
    if (name === undefined || !values.has(name)) {
      out.push(line);
      continue;
    }
    if (written.has(name)) continue;
    written.add(name);
    out.push(`${name}=${values.get(name) as string}`);
  }
  for (const [name, value] of values) if (!written.has(name)) out.push(`${name}=${value}`);
  return out.length === 0 ? '' : `${out.join('\n')}\n`;
}
