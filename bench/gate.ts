// The gate's benchmarks, each against a floor taken in the same interleaved rounds:
//   (a) four independent 1 s jobs with [gate] concurrency = 4: `discern done --rerun` against the longest job
//       alone (`sh -c 'sleep 1'`), budget ≤ 1.3× (a sequential runner is 4×); lefthook's parallel mode on the
//       same four jobs for comparison, when lefthook can be installed from the npm registry;
//   (b) Proof reuse: `discern done --json` on an unchanged proven commit against `node -e 0`, budget ≤ 1.6×;
//   (c) a job printing 200 MB: discern's own peak RSS (VmHWM, the job excluded), budget ≤ 150 MB.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { measure, type Case } from './rounds.js';
import { timeCommand } from './processes.js';

export interface GateBenchOptions {
  bin: string;
  rounds: number;
  /** Where lefthook is installed once (npm registry); the comparison is skipped when it cannot be. */
  cacheDir: string;
}

export interface GateBenchResult {
  title: string;
  rows: { name: string; median: number; min: number; ratio?: number; budget?: number }[];
  notes: string[];
}

function git(cwd: string, ...args: string[]): void {
  execFileSync(
    'git',
    ['-c', 'user.name=bench', '-c', 'user.email=bench@discern.invalid', '-c', 'core.hooksPath=/dev/null', ...args],
    { cwd, stdio: 'ignore' },
  );
}

function repository(name: string, config: string, extra: Record<string, string> = {}): string {
  const root = join(tmpdir(), `discern-bench-gate-${name}`);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'discern.toml'), config);
  for (const [path, text] of Object.entries(extra)) writeFileSync(join(root, path), text);
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'bench');
  return root;
}

/** lefthook's Go binary from its npm package, installed once into the cache; undefined when unavailable. */
export function lefthookBinary(cacheDir: string): string | undefined {
  const dir = join(cacheDir, 'lefthook');
  const find = (): string | undefined => {
    for (const pkg of ['lefthook-linux-x64', 'lefthook-linux-arm64', 'lefthook-darwin-arm64', 'lefthook-darwin-x64']) {
      const candidate = join(dir, 'node_modules', pkg, 'bin', 'lefthook');
      if (existsSync(candidate)) return candidate;
    }
    return undefined;
  };
  if (find() === undefined) {
    try {
      mkdirSync(dir, { recursive: true });
      // --ignore-scripts: lefthook's postinstall would install git hooks into whatever repository it finds.
      execFileSync(
        'npm',
        ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', '--ignore-scripts', 'lefthook@2'],
        { cwd: dir, stdio: 'ignore', timeout: 180_000 },
      );
    } catch {
      return undefined;
    }
  }
  return find();
}

export async function concurrencyBench(options: GateBenchOptions): Promise<GateBenchResult> {
  const jobs = ['lint', 'typecheck', 'test', 'smoke'];
  const root = repository(
    'concurrency',
    `[project]\nname = "bench"\n\n[gate]\nconcurrency = 4\n\n[jobs]\n${jobs.map((j) => `${j} = "sleep 1"`).join('\n')}\n`,
    {
      'lefthook.yml': `pre-commit:\n  parallel: true\n  commands:\n${jobs.map((j) => `    ${j}:\n      run: sleep 1\n`).join('')}`,
    },
  );
  const lefthook = lefthookBinary(options.cacheDir);
  const cases: Case[] = [
    { name: 'longest job alone: sh -c "sleep 1" (floor)', run: () => timeCommand('sh', ['-c', 'sleep 1'], root) },
    {
      name: 'discern done --rerun, 4 × sleep 1, concurrency 4',
      run: () => timeCommand(process.execPath, [options.bin, 'done', '--rerun', '--json'], root),
    },
  ];
  if (lefthook)
    cases.push({
      name: 'lefthook run pre-commit (parallel: true), 4 × sleep 1',
      run: () => timeCommand(lefthook, ['run', 'pre-commit', '--force', '--no-tty'], root),
    });
  const results = await measure(cases, options.rounds, 1);
  const floor = results[0]?.median ?? NaN;
  return {
    title: '(a) Four independent 1 s jobs, [gate] concurrency = 4',
    rows: results.map((r, i) => ({
      name: r.name,
      median: r.median,
      min: r.min,
      ratio: r.median / floor,
      ...(i === 1 ? { budget: 1.3 } : {}),
    })),
    notes: [
      lefthook
        ? `lefthook ${execFileSync(lefthook, ['version'], { encoding: 'utf8' }).trim()} (Go binary from its npm package)`
        : 'lefthook could not be installed from the npm registry: its comparison is left out',
      'A sequential runner needs 4× the longest job.',
    ],
  };
}

export async function reuseBench(options: GateBenchOptions): Promise<GateBenchResult> {
  const root = repository('reuse', '[project]\nname = "bench"\n\n[jobs]\nlint = "true"\ntest = "true"\n');
  execFileSync(process.execPath, [options.bin, 'done', '--json'], { cwd: root, stdio: 'ignore' });
  const results = await measure(
    [
      { name: 'node -e 0 (floor)', run: () => timeCommand(process.execPath, ['-e', '0'], root) },
      {
        name: 'discern done --json on a proven, unchanged commit',
        run: () => timeCommand(process.execPath, [options.bin, 'done', '--json'], root),
      },
    ],
    options.rounds,
    2,
  );
  const floor = results[0]?.median ?? NaN;
  return {
    title: '(b) Proof reuse',
    rows: results.map((r, i) => ({
      name: r.name,
      median: r.median,
      min: r.min,
      ratio: r.median / floor,
      ...(i === 1 ? { budget: 1.6 } : {}),
    })),
    notes: [],
  };
}

/** Runs discern and samples its own VmHWM (peak resident set) until it exits; the job's processes are not counted. */
function peakRss(bin: string, args: string[], cwd: string): Promise<{ ms: number; peakMb: number }> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, [bin, ...args], { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
    let peak = 0;
    const sample = (): void => {
      try {
        const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
        const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
        peak = Math.max(peak, kb);
      } catch {
        // exited between samples
      }
    };
    const timer = setInterval(sample, 10);
    child.once('error', reject);
    child.once('exit', () => {
      clearInterval(timer);
      resolve({ ms: performance.now() - start, peakMb: peak / 1024 });
    });
  });
}

export async function outputBench(options: GateBenchOptions): Promise<GateBenchResult> {
  // A passing job, and a failing one whose 200 MB are compiler-shaped error lines that the diagnostics read.
  const cases = [
    { name: 'passing job printing 200 MB', job: "head -c 200000000 /dev/zero | tr '\\0' x | fold -w 99" },
    {
      name: 'failing job printing 200 MB of error lines',
      job: "yes 'src/f.c:12:1: error: something quite bad happened in this translation unit here' | head -c 200000000; exit 1",
    },
  ];
  const rows: GateBenchResult['rows'] = [];
  const notes: string[] = [];
  for (const c of cases) {
    const root = repository(
      `output-${rows.length}`,
      `[project]\nname = "bench"\n\n[jobs]\ntest = ${JSON.stringify(c.job)}\n`,
    );
    const peaks: number[] = [];
    const times: number[] = [];
    for (let round = 0; round < options.rounds; round++) {
      // 200 MB per round: keep only this round's output on disk.
      rmSync(join(root, '.git', 'discern', 'output'), { recursive: true, force: true });
      const { ms, peakMb } = await peakRss(options.bin, ['done', '--rerun', '--json'], root);
      peaks.push(peakMb);
      times.push(ms);
    }
    const sorted = [...peaks].sort((a, b) => a - b);
    const t = [...times].sort((a, b) => a - b);
    rows.push({
      name: `discern peak RSS, MB: ${c.name}`,
      median: sorted[Math.floor(sorted.length / 2)] ?? NaN,
      min: sorted[0] ?? NaN,
      budget: 150,
    });
    notes.push(
      `${c.name}: highest peak ${(sorted[sorted.length - 1] ?? NaN).toFixed(1)} MB; done's wall time median ${((t[Math.floor(t.length / 2)] ?? 0) / 1000).toFixed(2)} s`,
    );
  }
  return { title: '(c) A job printing 200 MB', rows, notes };
}
