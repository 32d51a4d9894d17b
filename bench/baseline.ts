// This build against another build of discern (an earlier commit's dist/), in the same interleaved rounds, on the
// paths an agent calls most often where nothing runs:
//   (a) Proof reuse: `done --json` on a proven, unchanged commit;
//   (b) a red tree asked again: `done --json` on an unchanged commit whose last run failed (unchanged_tree_rerun);
//   (c) replay: `done --json` on a new commit whose tree and config were proven before (a fresh empty commit is
//       made before each call, outside the timed part);
//   (d) accept's fast-forward path: `accept <effort> --confirmed --json` on a proven effort (start, commit and
//       done before each call, outside the timed part), with its signed Proof note.
// Each build works in a repository of its own: their state records need not be readable by each other. Budgets:
// this build ≤ 1.1× the other on (a)–(c) (what authenticated records and the trunk's policy may cost), ≤ 1.15× on
// (d) (what signing the note may cost).
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measure, type Case } from './rounds.js';
import { timeCommand } from './processes.js';
import type { GateBenchResult } from './gate.js';

export interface BaselineBenchOptions {
  bin: string;
  /** The other build's dist/discern.js. */
  baseline: string;
  rounds: number;
}

const identity = ['-c', 'user.name=bench', '-c', 'user.email=bench@discern.invalid', '-c', 'core.hooksPath=/dev/null'];

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', [...identity, ...args], { cwd, stdio: 'ignore' });
}

function repository(name: string, jobs: string): string {
  const root = join(tmpdir(), `discern-bench-baseline-${name}`);
  rmSync(root, { recursive: true, force: true });
  rmSync(`${root}.worktrees`, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'discern.toml'), `[project]\nname = "bench"\n\n[jobs]\n${jobs}`);
  writeFileSync(join(root, 'a.txt'), 'a\n');
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'bench');
  return root;
}

/** Runs done once to leave the record the case reads; a red run exits 1, which is what it is for. */
function prime(bin: string, cwd: string): void {
  try {
    execFileSync(process.execPath, [bin, 'done', '--json'], { cwd, stdio: 'ignore' });
  } catch {
    // the red repository's first run fails by design
  }
}

/** An effort with one proven commit, ready to land (outside the timed part). */
function prepareEffort(bin: string, root: string, name: string): void {
  execFileSync(process.execPath, [bin, 'start', name, '--json'], { cwd: root, stdio: 'ignore' });
  const path = `${root}.worktrees/${name}`;
  writeFileSync(join(path, `${name}.txt`), `${name}\n`);
  git(path, 'add', '-A');
  git(path, 'commit', '-q', '-m', name);
  execFileSync(process.execPath, [bin, 'done', '--json'], { cwd: path, stdio: 'ignore' });
}

function timeDone(bin: string, cwd: string, expectExit: number): Promise<number> {
  return timeCommand(process.execPath, [bin, 'done', '--json'], cwd, expectExit);
}

export async function baselineBench(options: BaselineBenchOptions): Promise<GateBenchResult> {
  const builds = [
    { label: 'this build', bin: options.bin },
    { label: 'baseline', bin: options.baseline },
  ];
  const cases: Case[] = [];
  let landings = 0;
  for (const [i, build] of builds.entries()) {
    const green = repository(`green-${i}`, 'lint = "true"\ntest = "true"\n');
    const red = repository(`red-${i}`, 'lint = "true"\ntest = "false"\n');
    const replay = repository(`replay-${i}`, 'lint = "true"\ntest = "true"\n');
    const accepting = repository(`accept-${i}`, 'test = "true"\n');
    for (const root of [green, red, replay]) prime(build.bin, root);
    cases.push(
      { name: `Proof reuse (${build.label})`, run: () => timeDone(build.bin, green, 0) },
      { name: `unchanged red tree (${build.label})`, run: () => timeDone(build.bin, red, 1) },
      {
        name: `accept, fast-forward (${build.label})`,
        run: () => {
          const name = `land-${++landings}`;
          prepareEffort(build.bin, accepting, name);
          return timeCommand(process.execPath, [build.bin, 'accept', name, '--confirmed', '--json'], accepting);
        },
      },
      {
        name: `replay on a new commit (${build.label})`,
        run: () => {
          git(replay, 'commit', '-q', '--allow-empty', '-m', 'same tree');
          return timeDone(build.bin, replay, 0);
        },
      },
    );
  }
  const results = await measure(cases, options.rounds, 2);
  const median = (name: string): number => results.find((r) => r.name === name)?.median ?? NaN;
  return {
    title: `This build against ${options.baseline} (ratio: × the baseline's median)`,
    rows: results.map((r) => {
      const mine = r.name.endsWith('(this build)');
      const other = r.name.replace('(this build)', '(baseline)');
      return {
        name: r.name,
        median: r.median,
        min: r.min,
        ratio: mine ? r.median / median(other) : 1,
        ...(mine ? { budget: r.name.startsWith('accept') ? 1.15 : 1.1 } : {}),
      };
    }),
    notes: [],
  };
}
