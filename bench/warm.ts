// Warm worktrees (docs/decisions/0053-warm-worktrees.md), on a Node project with a few hundred installed packages
// (eslint, mocha and jest: about 7,000 files), the npm cache warm on both sides (`--prefer-offline`):
//   (a) `discern start` to a ready worktree (a spare of node_modules renamed into place, or a copy; then ensure's
//       `npm install`; the next spare is made in the background, and each case waits for it to settle) against
//       `git worktree add` plus a fresh `npm install` in the same interleaved rounds, budget ≤ 0.3×;
//   (b) a composed `accept` (the trunk moved: integration worktree, copy, ensure, the gate) against the gate's jobs
//       run on the combined commit, budget ≤ 1.3×.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, removeWorktree } from './efforts.js';
import type { GateBenchResult } from './gate.js';
import { timeCommand } from './processes.js';
import { measure } from './rounds.js';

export interface WarmBenchOptions {
  bin: string;
  rounds: number;
}

const INSTALL = 'npm install --prefer-offline --no-audit --no-fund';
const PACKAGES = { eslint: '9.39.5', mocha: '11.8.0', jest: '30.5.2' };

function sh(cwd: string, command: string): void {
  execFileSync('sh', ['-c', command], { cwd, stdio: 'ignore' });
}

/** The project, installed once in its main checkout and reused between runs (the install is not what is measured). */
function nodeProject(gate: string): string {
  const root = join(tmpdir(), 'discern-bench-warm');
  rmSync(`${root}.worktrees`, { recursive: true, force: true });
  if (!existsSync(join(root, 'node_modules', '.package-lock.json'))) {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(join(root, 'src'), { recursive: true });
    mkdirSync(join(root, 'test'), { recursive: true });
    writeFileSync(
      join(root, 'package.json'),
      `${JSON.stringify({ name: 'bench-warm', version: '1.0.0', private: true, devDependencies: PACKAGES }, null, 2)}\n`,
    );
    writeFileSync(join(root, '.gitignore'), 'node_modules/\n');
    writeFileSync(
      join(root, 'eslint.config.js'),
      'module.exports = [{ files: ["src/**/*.js"], rules: { "no-unused-vars": "error" } }];\n',
    );
    for (let i = 0; i < 40; i++) {
      writeFileSync(join(root, 'src', `m${i}.js`), `exports.f${i} = (x) => x * ${i} + 1;\n`);
      writeFileSync(
        join(root, 'test', `m${i}.test.js`),
        `const assert = require('node:assert');\nconst { f${i} } = require('../src/m${i}.js');\nit('f${i}', () => assert.equal(f${i}(2), ${2 * i + 1}));\n`,
      );
    }
    sh(root, INSTALL);
    git(root, 'init', '-q', '-b', 'main');
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'project');
  }
  addSuite(root);
  writeFileSync(
    join(root, 'discern.toml'),
    `[project]\nname = "bench-warm"\n\n[repository]\nensure = ["${INSTALL}"]\n\n[jobs]\n${gate}\n`,
  );
  git(root, 'add', 'discern.toml');
  if (git(root, 'status', '--porcelain').trim() !== '') git(root, 'commit', '-q', '-m', 'config');
  return root;
}

/**
 * Three gates: a short one (eslint ∥ mocha, about 0.5 s), jest over the 40 small test files (about 2.2 s), and
 * jest over a suite of the size a project with a few hundred packages has (SUITE_FILES files, about 8 s).
 */
const GATES = {
  mocha: {
    label: 'eslint ∥ mocha',
    config: 'lint = "npx eslint src"\ntest = "npx mocha"',
    jobs: 'npx eslint src & npx mocha >/dev/null; wait',
  },
  jest: {
    label: 'eslint ∥ jest, 40 test files',
    config: 'lint = "npx eslint src"\ntest = "npx jest test/"',
    jobs: 'npx eslint src & npx jest test/ 2>/dev/null; wait',
  },
  suite: {
    label: 'eslint ∥ jest, 160 test files',
    config: 'lint = "npx eslint src"\ntest = "npx jest"',
    jobs: 'npx eslint src & npx jest 2>/dev/null; wait',
  },
};

const SUITE_FILES = 120;

/** The larger suite: each file tests a module with a little real work, as unit tests of a real project do. */
function addSuite(root: string): void {
  const dir = join(root, 'suite');
  if (existsSync(join(dir, `s${SUITE_FILES - 1}.test.js`))) return;
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < SUITE_FILES; i++)
    writeFileSync(
      join(dir, `s${i}.test.js`),
      [
        `const { f${i % 40} } = require('../src/m${i % 40}.js');`,
        `const work = (n) => { let x = 0; for (let k = 0; k < n; k++) x = (x * 31 + k) % 1000003; return x; };`,
        ...[0, 1, 2, 3].map(
          (t) =>
            `test('s${i}.${t}', () => { expect(work(200000 + ${t})).toBeGreaterThan(-1); expect(f${i % 40}(${t})).toBe(${t} * ${i % 40} + 1); });`,
        ),
        '',
      ].join('\n'),
    );
  git(root, 'add', 'suite');
  git(root, 'commit', '-q', '-m', 'suite');
}
const GATE = GATES.mocha.config;

/** The gate's span in the newest accept record: from its first stage's start to its last stage's end. */
function lastGateSpan(root: string): number {
  const dir = join(root, '.git', 'discern', 'operations');
  const records = readdirSync(dir)
    .filter((n) => /^R1-[0-9A-Z-]+\.json$/.test(n))
    .map((n) => JSON.parse(readFileSync(join(dir, n), 'utf8')) as AcceptRecord)
    .filter((r) => r.verb === 'accept')
    .sort((a, b) => b.started_at.localeCompare(a.started_at));
  const stages = (records[0]?.timings ?? []).filter((t) => t.category.startsWith('stage:'));
  const start = Math.min(...stages.map((t) => Date.parse(t.started_at)));
  const end = Math.max(...stages.map((t) => Date.parse(t.finished_at ?? records[0]?.finished_at ?? t.started_at)));
  return end - start;
}

interface AcceptRecord {
  verb: string;
  started_at: string;
  finished_at?: string;
  timings: { category: string; started_at: string; finished_at?: string }[];
}

/**
 * Waits until what discern does in the background after a call has finished — the spare it makes after a copy,
 * and the deletion of the installs a landing set aside — so no case, floor or discern, is timed beside it.
 */
async function spareSettled(root: string): Promise<void> {
  const pool = join(root, '.git', 'discern', 'warm-pool');
  const trash = join(root, '.git', 'discern', 'trash');
  for (let i = 0; i < 1200; i++) {
    const names = existsSync(pool) ? readdirSync(pool) : [];
    const spared = names.some((n) => !n.startsWith('.')) && !names.some((n) => n.startsWith('.making-'));
    const emptied = !existsSync(trash) || readdirSync(trash).length === 0;
    if (spared && emptied) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function warmStartBench(options: WarmBenchOptions): Promise<GateBenchResult> {
  const root = nodeProject(GATE);
  const worktrees = `${root}.worktrees`;
  let n = 0;
  const results = await measure(
    [
      {
        name: 'git worktree add + a fresh npm install (floor)',
        run: async () => {
          const path = join(worktrees, `git-${++n}`);
          const ms = await timeCommand(
            'sh',
            ['-c', `git worktree add -q -b bench/git-${n} "${path}" main && cd "${path}" && ${INSTALL} >/dev/null`],
            root,
          );
          removeWorktree(root, path, `bench/git-${n}`);
          return ms;
        },
      },
      {
        name: 'discern start --json (copy node_modules, then ensure)',
        run: async () => {
          const name = `warm-${++n}`;
          const ms = await timeCommand(process.execPath, [options.bin, 'start', name, '--json'], root);
          await spareSettled(root);
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
    title: `(a) start to a ready worktree, ${Object.keys(PACKAGES).join(' + ')} installed (npm cache warm)`,
    rows: results.map((r, i) => ({
      name: r.name,
      median: r.median,
      min: r.min,
      ratio: r.median / floor,
      ...(i === 1 ? { budget: 0.3 } : {}),
    })),
    notes: [],
  };
}

export async function composedAcceptBench(
  options: WarmBenchOptions,
  gate: keyof typeof GATES = 'mocha',
): Promise<GateBenchResult> {
  const root = nodeProject(GATES[gate].config);
  const accepts: number[] = [];
  const gates: number[] = [];
  const spans: number[] = [];
  // The project is reused between runs: each run's files are its own.
  const run = Date.now().toString(36);
  for (let i = 0; i < options.rounds; i++) {
    const name = `compose-${run}-${i}`;
    execFileSync(process.execPath, [options.bin, 'start', name, '--json'], { cwd: root, stdio: 'ignore' });
    await spareSettled(root);
    const path = `${root}.worktrees/${name}`;
    writeFileSync(join(path, 'src', `e-${run}-${i}.js`), `exports.e = ${i};\n`);
    git(path, 'add', '-A');
    git(path, 'commit', '-q', '-m', name);
    execFileSync(process.execPath, [options.bin, 'done', '--json'], { cwd: path, stdio: 'ignore' });
    // The trunk moves on under the proven effort: accept composes the two and gates the combination.
    writeFileSync(join(root, 'src', `t-${run}-${i}.js`), `exports.t = ${i};\n`);
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', `trunk ${i}`);
    accepts.push(await timeCommand(process.execPath, [options.bin, 'accept', name, '--confirmed', '--json'], root));
    spans.push(lastGateSpan(root));
    await spareSettled(root);
    // The floor: the gate's own jobs on the combined commit, which the main checkout now holds.
    gates.push(await timeCommand('sh', ['-c', GATES[gate].jobs], root));
    execFileSync('sync');
  }
  const sorted = (s: number[]) => [...s].sort((a, b) => a - b);
  const median = (s: number[]) => sorted(s)[Math.floor(s.length / 2)] ?? NaN;
  const floor = median(gates);
  return {
    title: `(b) composed accept against the gate on the combined commit (${GATES[gate].label})`,
    rows: [
      {
        name: `the gate jobs (${GATES[gate].label}) on the combined commit (floor)`,
        median: floor,
        min: sorted(gates)[0] ?? NaN,
        ratio: 1,
      },
      {
        name: 'discern accept --confirmed (trunk moved: compose, spare or copy, ensure, gate, land, ensure)',
        median: median(accepts),
        min: sorted(accepts)[0] ?? NaN,
        ratio: median(accepts) / floor,
        budget: 1.3,
      },
      {
        name: "the same gate as the landing ran it, in the integration worktree (its stages in the accept's record)",
        median: median(spans),
        min: sorted(spans)[0] ?? NaN,
        ratio: median(spans) / floor,
      },
    ],
    notes: [
      `accept against the gate as it ran on the combined commit: ${(median(accepts) / median(spans)).toFixed(2)}× (the fixed part: ${Math.round(median(accepts) - median(spans))} ms)`,
    ],
  };
}
