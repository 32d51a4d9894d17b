// The hostile CLI calls are split over a few test files so that each stays within a test file's time budget
// and the runner can use both cores. Commands are dealt greedily by their measured cost (seconds for 200 calls
// in process on a busy machine; unlisted ones cost a few), so the shards come out about even. A command's calls
// depend only on the seed, never on its shard: DISCERN_FUZZ_COMMANDS (comma-separated command paths) narrows a
// run to the commands of a failure, which reproduces as it was.
import type { GrammarCommand } from './cli-argv.js';

const COST: Readonly<Record<string, number>> = {
  test: 41,
  'worktree park': 32,
  'worktree teardown': 30,
  'worktree prune': 24,
  'worktree drop': 22,
  prepare: 17,
  'worktree ensure': 16,
  checkpoints: 14,
  update: 14,
  'worktree setup': 13,
  accept: 13,
  enter: 11,
  tidy: 7,
};

export function shard(commands: readonly GrammarCommand[], index: number, count: number): GrammarCommand[] {
  const only = (process.env['DISCERN_FUZZ_COMMANDS'] ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '');
  const cost = (c: GrammarCommand): number => COST[c.path.join(' ')] ?? 3;
  const load = Array.from({ length: count }, () => 0);
  const dealt = new Map<GrammarCommand, number>();
  for (const command of [...commands].sort(
    (a, b) => cost(b) - cost(a) || a.path.join(' ').localeCompare(b.path.join(' ')),
  )) {
    const lightest = load.indexOf(Math.min(...load));
    dealt.set(command, lightest);
    load[lightest] = (load[lightest] ?? 0) + cost(command);
  }
  return commands.filter((c) => dealt.get(c) === index && (only.length === 0 || only.includes(c.path.join(' '))));
}
