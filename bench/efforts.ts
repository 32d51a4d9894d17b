// The efforts' benchmarks:
//   (a) `discern start` on a repository of 20k files against `git -c checkout.workers=4 worktree add` in the
//       same interleaved rounds, budget ≤ 1.2× (discern checks out in parallel too, and sets up the effort);
//   (b) accept's fast-forward path end to end on a proven effort (report);
//   (c) await's reaction time to a trunk move, p95 over 20 trials, budget ≤ 1 s; and the CPU a 30 s wait uses.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchRepository } from './fixtures.js';
import { measure } from './rounds.js';
import { timeCommand } from './processes.js';
import type { GateBenchResult } from './gate.js';

export interface EffortBenchOptions {
  bin: string;
  rounds: number;
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync(
    'git',
    ['-c', 'user.name=bench', '-c', 'user.email=bench@discern.invalid', '-c', 'core.hooksPath=/dev/null', ...args],
    { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 28 },
  );
}

/** Removes a worktree and its branch, then lets the disk settle so the next timed checkout does not pay for it. */
export function removeWorktree(root: string, path: string, branch: string): void {
  try {
    git(root, 'worktree', 'remove', '--force', path);
  } catch {
    rmSync(path, { recursive: true, force: true });
    git(root, 'worktree', 'prune');
  }
  try {
    git(root, 'branch', '-D', branch);
  } catch {
    // already gone
  }
  execFileSync('sync');
}

export async function startBench(options: EffortBenchOptions): Promise<GateBenchResult> {
  const root = benchRepository(20_000);
  const worktrees = `${root}.worktrees`;
  rmSync(worktrees, { recursive: true, force: true });
  let n = 0;
  const results = await measure(
    [
      {
        name: 'git -c checkout.workers=4 worktree add (floor), 20k files',
        run: async () => {
          const path = join(worktrees, `git-${++n}`);
          const ms = await timeCommand(
            'git',
            ['-c', 'checkout.workers=4', 'worktree', 'add', '-q', '-b', `bench/git-${n}`, path, 'main'],
            root,
          );
          removeWorktree(root, path, `bench/git-${n}`);
          return ms;
        },
      },
      {
        name: 'discern start --json, 20k files',
        run: async () => {
          const name = `bench-${++n}`;
          const ms = await timeCommand(process.execPath, [options.bin, 'start', name, '--json'], root);
          removeWorktree(root, join(worktrees, name), `agent/${name}`);
          return ms;
        },
      },
    ],
    options.rounds,
    1,
  );
  const floor = results[0]?.median ?? NaN;
  return {
    title: '(a) discern start on 20k files',
    rows: results.map((r, i) => ({
      name: r.name,
      median: r.median,
      min: r.min,
      ratio: r.median / floor,
      ...(i === 1 ? { budget: 1.2 } : {}),
    })),
    notes: [],
  };
}

function smallRepository(name: string): string {
  const root = join(tmpdir(), `discern-bench-efforts-${name}`);
  rmSync(root, { recursive: true, force: true });
  rmSync(`${root}.worktrees`, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'discern.toml'), '[project]\nname = "bench"\n\n[jobs]\ntest = "true"\n');
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'config', 'user.name', 'bench');
  git(root, 'config', 'user.email', 'bench@discern.invalid');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'bench');
  return root;
}

export async function acceptBench(options: EffortBenchOptions): Promise<GateBenchResult> {
  const root = smallRepository('accept');
  const samples: number[] = [];
  for (let i = 0; i < options.rounds; i++) {
    const name = `land-${i}`;
    execFileSync(process.execPath, [options.bin, 'start', name, '--json'], { cwd: root, stdio: 'ignore' });
    const path = `${root}.worktrees/${name}`;
    writeFileSync(join(path, `${name}.txt`), `${i}\n`);
    git(path, 'add', '-A');
    git(path, 'commit', '-q', '-m', name);
    execFileSync(process.execPath, [options.bin, 'done', '--json'], { cwd: path, stdio: 'ignore' });
    samples.push(await timeCommand(process.execPath, [options.bin, 'accept', name, '--confirmed', '--json'], root));
  }
  samples.sort((a, b) => a - b);
  return {
    title:
      '(b) accept, fast-forward path end to end on a proven effort (trunk moves, note written, worktree and branch removed)',
    rows: [
      {
        name: 'discern accept <effort> --confirmed --json',
        median: samples[Math.floor(samples.length / 2)] ?? NaN,
        min: samples[0] ?? NaN,
      },
    ],
    notes: [],
  };
}

/** CPU seconds (user + system) a process has used so far, from /proc. */
function cpuSeconds(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

function awaitChild(bin: string, cwd: string, timeoutS: number): { exited: Promise<number>; pid: number } {
  const child = spawn(process.execPath, [bin, 'await', '--trunk-moved', '--timeout', String(timeoutS), '--json'], {
    cwd,
    stdio: 'ignore',
  });
  const exited = new Promise<number>((resolve) => child.once('exit', () => resolve(performance.now())));
  return { exited, pid: child.pid ?? 0 };
}

export async function awaitBench(options: EffortBenchOptions): Promise<GateBenchResult> {
  const root = smallRepository('await');
  const reactions: number[] = [];
  for (let i = 0; i < 20; i++) {
    const { exited } = awaitChild(options.bin, root, 30);
    // Let it start and settle into waiting before the trunk moves.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const moved = performance.now();
    git(root, 'commit', '-q', '--allow-empty', '-m', `move ${i}`);
    reactions.push((await exited) - moved);
  }
  reactions.sort((a, b) => a - b);
  const p95 = reactions[Math.ceil(reactions.length * 0.95) - 1] ?? NaN;
  // A 30 s wait with nothing happening: how much CPU it costs.
  const idle = awaitChild(options.bin, root, 30);
  let cpu: number | undefined;
  const sampler = setInterval(() => {
    cpu = cpuSeconds(idle.pid) ?? cpu;
  }, 200);
  await idle.exited;
  clearInterval(sampler);
  return {
    title: '(c) await --trunk-moved: reaction to a trunk move, 20 trials',
    rows: [
      {
        name: 'reaction time p95 (ms, from the commit to await exiting)',
        median: p95,
        min: reactions[0] ?? NaN,
        budget: 1000,
      },
      {
        name: 'reaction time median (ms)',
        median: reactions[Math.floor(reactions.length / 2)] ?? NaN,
        min: reactions[0] ?? NaN,
      },
    ],
    notes: [
      `A 30 s wait with nothing happening used ${cpu === undefined ? 'an unmeasured amount of' : `${cpu.toFixed(2)} s of`} CPU (budget 0.5 s).`,
    ],
  };
}
