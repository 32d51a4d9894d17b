// The coupling benchmarks, on a generated repository of 10,000 commits over 400 files (built once with
// `git fast-import`, reused between runs, keyed by the recipe's version):
//   (a) cold: `discern coupling --file <f> --json` with the cache removed before each round, against the bare
//       `git log --no-merges --name-only -z` it needs, budget ≤ 2× (the same git log with discern's exact flags
//       is reported beside it);
//   (b) warm: the same call on an unchanged HEAD (the cache present) against `node -e 0`, budget ≤ 1.3×.
// The history has structure a coupling analysis should find: 40 modules of 10 files, a commit changes a
// cluster inside one module (an implementation file with its test most of the time), sometimes a shared file
// across modules, sometimes a lockfile or the changelog, and 1 % are bulk commits of 60–200 files.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measure } from './rounds.js';
import { timeCommand } from './processes.js';
import type { GateBenchResult } from './gate.js';

const RECIPE = 'v1';
const COMMITS = 10_000;
const MODULES = 40;
const PER_MODULE = 10;
export const QUERIED = 'src/m7/impl3.ts';

export interface CouplingBenchOptions {
  bin: string;
  rounds: number;
}

/** mulberry32: a small deterministic generator, so every run builds the same history. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function moduleFiles(m: number): string[] {
  const files: string[] = [];
  for (let k = 0; k < PER_MODULE / 2; k++) files.push(`src/m${m}/impl${k}.ts`, `test/m${m}/impl${k}.test.ts`);
  return files;
}

const SHARED = ['src/shared/types.ts', 'src/shared/errors.ts', 'docs/api.md', 'src/index.ts'];
const PLUMBING = ['package-lock.json', 'CHANGELOG.md'];

/** The files of commit i: one module's cluster, sometimes a shared file, sometimes plumbing; 1 % bulk. */
function commitFiles(next: () => number): string[] {
  if (next() < 0.01) {
    const count = 60 + Math.floor(next() * 140);
    const all = Array.from({ length: MODULES }, (_, m) => moduleFiles(m)).flat();
    const picked = new Set<string>();
    while (picked.size < count) picked.add(all[Math.floor(next() * all.length)] as string);
    return [...picked];
  }
  // Lower-numbered modules are busier (roughly Zipf), like real code bases.
  const m = Math.min(MODULES - 1, Math.floor(MODULES * next() * next()));
  const files = moduleFiles(m);
  const k = Math.floor(next() * (PER_MODULE / 2));
  const picked = new Set<string>([files[2 * k] as string]);
  if (next() < 0.8) picked.add(files[2 * k + 1] as string); // its test
  const extra = Math.floor(next() * 3);
  for (let e = 0; e < extra; e++) picked.add(files[Math.floor(next() * files.length)] as string);
  if (next() < 0.2) picked.add(SHARED[Math.floor(next() * SHARED.length)] as string);
  if (next() < 0.1) picked.add(PLUMBING[Math.floor(next() * PLUMBING.length)] as string);
  return [...picked];
}

export function couplingRepository(): string {
  const root = join(tmpdir(), `discern-bench-coupling-${RECIPE}`);
  if (existsSync(join(root, '.ready'))) return root;
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root });
  const next = random(7);
  const chunks: string[] = [];
  const blob = (text: string): string => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const version = new Map<string, number>();
  let time = 1_600_000_000;
  for (let i = 1; i <= COMMITS; i++) {
    const files =
      i === 1
        ? [...Array.from({ length: MODULES }, (_, m) => moduleFiles(m)).flat(), ...SHARED, ...PLUMBING, 'discern.toml']
        : commitFiles(next);
    time += 600 + Math.floor(next() * 3000);
    const message = i === 1 ? 'initial layout' : `change ${i} in ${files[0] ?? ''}`;
    chunks.push(
      `commit refs/heads/main\nmark :${i}\ncommitter Bench <bench@discern.invalid> ${time} +0000\n${blob(message)}`,
    );
    if (i > 1) chunks.push(`from :${i - 1}\n`);
    for (const path of files) {
      const n = (version.get(path) ?? 0) + 1;
      version.set(path, n);
      const text = path === 'discern.toml' ? '[project]\nname = "coupling bench"\n' : `// ${path}, revision ${n}\n`;
      chunks.push(`M 100644 inline ${path}\n${blob(text)}`);
    }
    chunks.push('\n');
  }
  const imported = spawnSync('git', ['fast-import', '--quiet'], {
    cwd: root,
    input: chunks.join(''),
    maxBuffer: 1 << 30,
  });
  if (imported.status !== 0) throw new Error(`git fast-import failed: ${imported.stderr.toString()}`);
  execFileSync('git', ['reset', '-q', '--hard', 'main'], { cwd: root });
  writeFileSync(join(root, '.git', 'info', 'exclude'), '.ready\n');
  writeFileSync(join(root, '.ready'), '');
  return root;
}

export async function couplingBench(options: CouplingBenchOptions): Promise<GateBenchResult> {
  const cwd = couplingRepository();
  const node = process.execPath;
  const cacheDir = join(cwd, '.git', 'discern', 'coupling');
  const call = [options.bin, 'coupling', '--file', QUERIED, '--json'];
  const coldCall = async (): Promise<number> => {
    rmSync(cacheDir, { recursive: true, force: true });
    return timeCommand(node, call, cwd);
  };
  const bare = ['log', '--no-merges', '--name-only', '-z'];
  const exact = ['log', '--no-merges', '--no-renames', '--name-only', '-z', '--format=%x00%H %cI %s'];
  const cold = await measure(
    [
      { name: 'git log --no-merges --name-only -z (floor)', run: () => timeCommand('git', bare, cwd) },
      { name: "git log with discern's flags (--no-renames, --format)", run: () => timeCommand('git', exact, cwd) },
      { name: `discern coupling --file ${QUERIED} --json, cold`, run: coldCall },
    ],
    options.rounds,
    2,
  );
  // Warm: one call leaves the cache for this HEAD; every round after reads it.
  await timeCommand(node, call, cwd);
  const warm = await measure(
    [
      { name: 'node -e 0 (floor)', run: () => timeCommand(node, ['-e', '0'], cwd) },
      { name: `discern coupling --file ${QUERIED} --json, warm`, run: () => timeCommand(node, call, cwd) },
    ],
    options.rounds,
    2,
  );
  const [logFloor, logExact, coldRun] = cold;
  const [nodeFloor, warmRun] = warm;
  const row = (
    m: { name: string; median: number; min: number } | undefined,
    floor: number,
    budget?: number,
  ): GateBenchResult['rows'][number] => ({
    name: m?.name ?? '?',
    median: m?.median ?? NaN,
    min: m?.min ?? NaN,
    ratio: (m?.median ?? NaN) / floor,
    ...(budget !== undefined ? { budget } : {}),
  });
  const logMs = logFloor?.median ?? NaN;
  const nodeMs = nodeFloor?.median ?? NaN;
  return {
    title: `Coupling, ${COMMITS.toLocaleString('en')} commits over ${MODULES * PER_MODULE + SHARED.length + PLUMBING.length + 1} files`,
    rows: [
      row(logFloor, logMs),
      row(logExact, logMs),
      row(coldRun, logMs, 2),
      row(nodeFloor, nodeMs),
      row(warmRun, nodeMs, 1.3),
    ],
    notes: [
      `Cold rows are ratios to the bare git log; warm rows to node -e 0. The cold call also includes Node's start-up and writing the cache (${cacheDir}).`,
    ],
  };
}
