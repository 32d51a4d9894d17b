// `npm run house:measure`: the figures a reviewer looks at before reading src/ — long files, long verbs, outcome
// casts, inline surface switches, raw git calls in the verb layer, and import cycles. It prints them and exits
// 0; the import-cycle test (test/house/import-cycles.test.ts) is what fails when a cycle appears.
import { fileURLToPath } from 'node:url';
import { importCycles } from './import-cycles.js';
import { readSourceTree } from './tree.js';

export const LONG_FILE_LINES = 400;
export const LONG_VERB_LINES = 250;

const repo = fileURLToPath(new URL('../..', import.meta.url));
const tree = readSourceTree(repo, 'src');
const files = [...tree.files];
const verbs = files.filter(([path]) => path.startsWith('src/verbs/'));

const longFiles = files.filter(([, f]) => f.lines > LONG_FILE_LINES).sort((a, b) => b[1].lines - a[1].lines);
const longVerbs = verbs.filter(([, f]) => f.lines > LONG_VERB_LINES).sort((a, b) => b[1].lines - a[1].lines);
const sites = (pick: (f: (typeof files)[number][1]) => number[], among = files) =>
  among.flatMap(([path, f]) => pick(f).map((line) => `${path}:${line}`));
const casts = sites((f) => f.outcomeCasts);
const switches = sites((f) => f.surfaceSwitches);
const rawGit = sites((f) => f.rawGitCalls, verbs);
const cycles = importCycles(tree.graph);
const fullCycles = importCycles(tree.fullGraph);

const out: string[] = [];
const lines = files.reduce((n, [, f]) => n + f.lines, 0);
out.push(`src/: ${files.length} files, ${lines} lines (formatted)`);
out.push('');
out.push(`src files over ${LONG_FILE_LINES} lines: ${longFiles.length}`);
for (const [path, f] of longFiles) out.push(`  ${String(f.lines).padStart(5)}  ${path}`);
out.push(`verb files over ${LONG_VERB_LINES} lines: ${longVerbs.length}`);
for (const [path, f] of longVerbs) out.push(`  ${String(f.lines).padStart(5)}  ${path}`);
out.push(`outcome casts (as …Outcome): ${casts.length}`);
for (const site of casts) out.push(`  ${site}`);
out.push(`surface switches (surface === 'mcp'): ${switches.length} in ${countFiles(switches)} files`);
out.push(`raw git([...]) calls in src/verbs: ${rawGit.length} in ${countFiles(rawGit)} files`);
for (const [file, n] of perFile(rawGit)) out.push(`  ${String(n).padStart(3)}  ${file}`);
out.push(`import cycles (static value imports): ${cycles.length}`);
for (const cycle of cycles) out.push(`  ${cycle.length} modules: ${cycle.join(' ↔ ')}`);
out.push(`import cycles counting type-only and lazy imports: ${fullCycles.length}`);
for (const cycle of fullCycles) out.push(`  ${cycle.length} modules: ${cycle.join(' ↔ ')}`);
process.stdout.write(`${out.join('\n')}\n`);

function perFile(list: string[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const site of list) {
    const file = site.slice(0, site.lastIndexOf(':'));
    counts.set(file, (counts.get(file) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

function countFiles(list: string[]): number {
  return perFile(list).length;
}
