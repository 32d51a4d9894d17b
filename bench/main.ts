// `npm run bench`: startup cost of discern as ratios against the Node floor (`node -e 0`) measured in the same
// run. Budgets: --version ≤ 1.5×, docs --search ≤ 1.8×, MCP spawn → initialize → tools/list ≤ 3×.
// Options: --rounds N (default 21), --strict (exit 1 when a budget is exceeded).
import { fileURLToPath } from 'node:url';
import { measure, type Case } from './rounds.js';
import { timeCommand, timeMcpToolsList } from './processes.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = `${root}dist/discern.js`;
const args = process.argv.slice(2);
const roundsArg = args.indexOf('--rounds');
const rounds = roundsArg >= 0 ? Number(args[roundsArg + 1]) : 21;
const strict = args.includes('--strict');
const node = process.execPath;

const cases: Case[] = [
  { name: 'node -e 0 (floor)', run: () => timeCommand(node, ['-e', '0'], root) },
  { name: 'discern --version', run: () => timeCommand(node, [bin, '--version'], root) },
  { name: 'discern docs --search "exit codes" --json', run: () => timeCommand(node, [bin, 'docs', '--search', 'exit codes', '--json'], root) },
  { name: 'discern mcp: spawn → initialize → tools/list', run: () => timeMcpToolsList(bin, root) },
];
const budgets: Record<string, number> = {
  'discern --version': 1.5,
  'discern docs --search "exit codes" --json': 1.8,
  'discern mcp: spawn → initialize → tools/list': 3,
};

const results = await measure(cases, rounds, 2);
const floor = results[0]?.median ?? NaN;
let over = 0;
process.stdout.write(`discern startup, ${rounds} interleaved rounds (median / min ms), Node ${process.versions.node}\n\n`);
process.stdout.write(`| case | median ms | min ms | × floor | budget |\n| --- | --- | --- | --- | --- |\n`);
for (const r of results) {
  const ratio = r.median / floor;
  const budget = budgets[r.name];
  const verdict = budget === undefined ? '' : ratio <= budget ? `≤ ${budget}× ok` : `≤ ${budget}× OVER`;
  if (budget !== undefined && ratio > budget) over++;
  process.stdout.write(`| ${r.name} | ${r.median.toFixed(1)} | ${r.min.toFixed(1)} | ${ratio.toFixed(2)} | ${verdict} |\n`);
}
process.exitCode = strict && over > 0 ? 1 : 0;
