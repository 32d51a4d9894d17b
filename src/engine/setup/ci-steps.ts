// The shell commands a repository's GitHub Actions workflows run (`run:` steps), read line by line: setup
// shows them as evidence for the jobs it proposes, so it needs the commands, not a YAML document model.
import type { CiStep } from './facts.js';
import { listNames, readText, type Source } from './read-files.js';

const WORKFLOWS = '.github/workflows';
const MAX_STEPS = 40;

export async function ciSteps(root: Source): Promise<CiStep[]> {
  const steps: CiStep[] = [];
  for (const name of listNames(root, WORKFLOWS)) {
    if (!/\.ya?ml$/.test(name)) continue;
    const file = `${WORKFLOWS}/${name}`;
    for (const run of runCommands((await readText(root, file)) ?? '')) {
      if (steps.length >= MAX_STEPS) return steps;
      steps.push({ file, run });
    }
  }
  return steps;
}

/** Each `run:` value: a plain scalar, or a `|`/`>` block (the lines indented deeper than the key). */
export function runCommands(text: string): string[] {
  const lines = text.split(/\r?\n/);
  const found: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const match = /^(\s*)(?:-\s+)?run:\s*(.*)$/.exec(lines[i] ?? '');
    if (!match) continue;
    const indent = (match[1] ?? '').length;
    const value = (match[2] ?? '').trim();
    if (!/^[|>][+-]?\d*$/.test(value)) {
      const plain = unquote(value.replace(/\s+#.*$/, ''));
      if (plain !== '') found.push(plain);
      continue;
    }
    const block: string[] = [];
    while (i + 1 < lines.length) {
      const next = lines[i + 1] ?? '';
      if (next.trim() !== '' && next.length - next.trimStart().length <= indent) break;
      i++;
      if (next.trim() !== '') block.push(next.trim());
    }
    found.push(...block.filter((l) => !l.startsWith('#')));
  }
  return found;
}

function unquote(value: string): string {
  if (
    value.length >= 2 &&
    ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'")))
  )
    return value.slice(1, -1);
  return value;
}
