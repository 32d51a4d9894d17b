// The repository's remotes, read from its config file (no git process): the names of its `[remote "…"]`
// sections, in the order they appear. A remote set only through an included file or the user's global config is
// not seen here; callers use this for advice (which command pushes notes, which remotes to fetch them from).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export function remoteNames(commonDir: string): string[] {
  let text: string;
  try {
    text = readFileSync(join(commonDir, 'config'), 'utf8');
  } catch {
    return [];
  }
  const names: string[] = [];
  for (const match of text.matchAll(/^\s*\[remote\s+"((?:[^"\\\n]|\\.)+)"\s*\]/gm)) {
    const name = (match[1] ?? '').replace(/\\(.)/g, '$1');
    if (name !== '' && !names.includes(name)) names.push(name);
  }
  return names;
}

/** The command that sends the trunk and discern's notes to `remote`: notes travel only when pushed by name. */
export function notesPushCommand(remote: string, trunk: string): string {
  return `git push ${remote} ${trunk} refs/notes/discern refs/notes/discern-exceptions`;
}
