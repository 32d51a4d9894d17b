// The patterns suite: `discern patterns --json` over a logbook of 100,000 synthetic events (about 36 MB), its
// time as a ratio to `node -e 0` in the same interleaved rounds, and discern's peak RSS while it reads. The
// fixture's discern.toml turns recording off, so the calls being timed do not grow the logbook they read.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { measure } from './rounds.js';
import { timeCommand } from './processes.js';
import type { GateBenchResult } from './gate.js';

const RECIPE = 'v1';
export const EVENTS = 100_000;

export interface PatternsBenchOptions {
  bin: string;
  rounds: number;
}

/** A small deterministic generator, so every fixture holds the same events. */
function generator(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const JOBS = ['format', 'lint', 'typecheck', 'build', 'test', 'e2e', 'smoke'];
const FAILURES = [
  'Error: connect ECONNREFUSED 127.0.0.1:5432',
  'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal',
  'src/app.ts(12,5): error TS2322: Type string is not assignable',
  'FAIL test/api.test.ts > returns 404 for a missing user',
];

/** One line of the synthetic logbook: the mix of verbs, outcomes and jobs a busy repository writes. */
function syntheticEvent(i: number, t: number, random: () => number): string {
  const roll = random();
  const actor = random() < 0.7 ? 'agent' : 'human';
  const base = {
    v: 1,
    at: new Date(t).toISOString(),
    surface: actor === 'agent' && random() < 0.6 ? 'mcp' : 'cli',
    actor,
    ...(actor === 'agent' ? { agent: random() < 0.5 ? 'claude_code' : 'codex' } : {}),
  };
  if (roll < 0.4)
    return JSON.stringify({
      ...base,
      verb: random() < 0.7 ? 'status' : 'impact',
      outcome: 'ok',
      ms: 40 + Math.floor(random() * 80),
    });
  if (roll < 0.85) {
    const verb = roll < 0.6 ? 'test' : 'done';
    const tree = ((Math.floor(i / 3) * 2654435761) >>> 0).toString(16).padStart(8, '0').repeat(5);
    const jobs = JOBS.slice(verb === 'test' ? 4 : 0).map((label) => {
      const failed = random() < 0.06;
      return {
        label,
        kind: 'job',
        outcome: failed ? 'failed' : 'ok',
        s: Math.floor((label === 'e2e' ? 40 : 3) + random() * 10),
        ...(failed
          ? { first: `${FAILURES[Math.floor(random() * FAILURES.length)]} (${Math.floor(random() * 1000)})` }
          : {}),
      };
    });
    const failed = jobs.some((j) => j.outcome === 'failed');
    return JSON.stringify({
      ...base,
      verb,
      outcome: failed ? 'gate_failed' : 'ok',
      ...(failed ? { failed_stage: 'test' } : {}),
      ms: 5000 + Math.floor(random() * 60_000),
      head: tree,
      tree,
      jobs,
      ...(random() < 0.1 ? { waited_ms: Math.floor(random() * 30_000) } : {}),
    });
  }
  if (roll < 0.93) {
    const refused = random() < 0.3;
    return JSON.stringify({
      ...base,
      verb: 'accept',
      outcome: refused ? (random() < 0.5 ? 'awaiting_consent' : 'gate_failed') : 'ok',
      ms: 900,
      ...(refused ? { message: "Landing needs the owner's consent for the scopes src and docs" } : {}),
    });
  }
  return JSON.stringify({
    ...base,
    verb: random() < 0.5 ? 'map' : 'prepare',
    outcome: random() < 0.9 ? 'ok' : 'unknown_target',
    ms: 120,
  });
}

/** The fixture repository with its logbook, built once per recipe (kept in the OS temp dir). */
export function patternsRepository(): string {
  const root = join(tmpdir(), `discern-bench-patterns-${RECIPE}-${EVENTS}`);
  if (existsSync(join(root, '.ready'))) return root;
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'discern.toml'), '[project]\nname = "bench"\nlogbook = false\n\n[jobs]\ntest = "true"\n');
  const git = (...args: string[]): void => {
    execFileSync(
      'git',
      ['-c', 'user.name=bench', '-c', 'user.email=bench@discern.invalid', '-c', 'core.hooksPath=/dev/null', ...args],
      { cwd: root, stdio: 'ignore' },
    );
  };
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'bench fixture');
  const random = generator(7);
  // 25 days of events ending now: all inside the default 30-day window.
  const end = Date.now();
  const step = Math.floor((25 * 86_400_000) / EVENTS);
  const lines: string[] = [];
  for (let i = 0; i < EVENTS; i++) lines.push(syntheticEvent(i, end - (EVENTS - i) * step, random));
  const folder = join(root, '.git', 'discern', 'logbook');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'active.jsonl'), `${lines.join('\n')}\n`);
  writeFileSync(join(root, '.git', 'info', 'exclude'), '.ready\n');
  writeFileSync(join(root, '.ready'), '');
  return root;
}

/** Runs discern to completion, sampling its VmHWM (peak resident set) every 10 ms. */
function peakRss(bin: string, args: string[], cwd: string): Promise<{ ms: number; peakMb: number }> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, [bin, ...args], { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
    let peak = 0;
    const sample = (): void => {
      try {
        const kb = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
        peak = Math.max(peak, kb);
      } catch {
        // exited between samples
      }
    };
    const timer = setInterval(sample, 10);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearInterval(timer);
      if (code !== 0) reject(new Error(`discern ${args.join(' ')} exited ${code}`));
      else resolve({ ms: performance.now() - start, peakMb: peak / 1024 });
    });
  });
}

export async function patternsBench(options: PatternsBenchOptions): Promise<GateBenchResult> {
  const root = patternsRepository();
  const bytes = readFileSync(join(root, '.git', 'discern', 'logbook', 'active.jsonl')).length;
  const cases = [
    { name: 'node -e 0 (floor)', args: null },
    { name: `discern patterns --json (${EVENTS / 1000}k events)`, args: ['patterns', '--json'] },
    {
      name: `discern patterns --all --stats --json (${EVENTS / 1000}k events)`,
      args: ['patterns', '--all', '--stats', '--json'],
    },
  ];
  const results = await measure(
    cases.map((c) => ({
      name: c.name,
      run: () =>
        c.args === null
          ? timeCommand(process.execPath, ['-e', '0'], root)
          : timeCommand(process.execPath, [options.bin, ...c.args], root),
    })),
    options.rounds,
    1,
  );
  const floor = results[0]?.median ?? NaN;
  const rows: GateBenchResult['rows'] = results.map((r) => ({
    name: r.name,
    median: r.median,
    min: r.min,
    ratio: r.median / floor,
  }));
  const notes = [`Logbook: ${EVENTS} events, ${(bytes / 1e6).toFixed(1)} MB.`];
  for (const c of cases.slice(1)) {
    const peaks: number[] = [];
    for (let i = 0; i < 5; i++) peaks.push((await peakRss(options.bin, c.args ?? [], root)).peakMb);
    peaks.sort((a, b) => a - b);
    rows.push({ name: `peak RSS, MB: ${c.name}`, median: peaks[2] ?? NaN, min: peaks[0] ?? NaN });
  }
  return { title: 'Patterns over a large logbook', rows, notes };
}
