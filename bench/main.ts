// `npm run bench`: discern's cost as ratios against floors measured in the same interleaved rounds.
//   startup:     --version ≤ 1.5×, docs --search ≤ 1.8×, MCP spawn → initialize → tools/list ≤ 3× (floor: node -e 0)
//   orientation: status --json and impact --json on 20k tracked files with 200 changed, ≤ 1.5× the floor
//                `node -e 0; git status --porcelain`; the same on 50k files and a shallow clone (reported);
//                a warm MCP server's discern_status round trip, p50/p95 over 200 calls (reported).
//   gate:        four 1 s jobs at concurrency 4 ≤ 1.3× the longest job (lefthook's parallel mode beside it);
//                Proof reuse ≤ 1.6× node -e 0; a job printing 200 MB keeps discern's peak RSS ≤ 150 MB.
//   efforts:     start on 20k files ≤ 1.2× `git -c checkout.workers=4 worktree add`; accept's fast-forward path
//                (reported); await's reaction to a trunk move, p95 ≤ 1 s, and the CPU of a 30 s wait (reported).
//   patterns:    `discern patterns --json` over a logbook of 100,000 events: time as × node -e 0, and peak RSS
//                (reported).
//   coupling:    on 10,000 generated commits, a cold `coupling --file` ≤ 2× the bare git log it needs, and a
//                warm one (cache present, same HEAD) ≤ 1.3× node -e 0.
//   peers:       the gate (done --rerun) ≤ 1.2× lefthook's parallel mode on the same four jobs, beside `discern test`
//                and a sequential `npm run` chain; a warm MCP tool call ≤ 2× a bare echo server on the same SDK;
//                CLI cold start against node -e 0 (bench/README.md has the latest figures).
//   verify:      `discern verify` on a landed, signed commit ≤ 2.5× node -e 0.
//   baseline:    this build against another build (--baseline <dist/discern.js>): Proof reuse, an unchanged red
//                tree and a replay on a new commit, each ≤ 1.1× the other build's median.
// Options: --rounds N (default 21), --suite startup|orientation|gate|efforts|warm|patterns|coupling|peers[:gate|:mcp|:start]|verify|baseline|all (default all), --baseline PATH, --strict (exit 1 over budget).
import { composedAcceptBench, warmStartBench } from './warm.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measure, type Case, type Measured } from './rounds.js';
import { timeCommand, timeMcpToolsList } from './processes.js';
import { benchRepository, shallowClone } from './fixtures.js';
import { toolRoundTrips } from './mcp-round-trips.js';
import { v1ListToolsBench } from './v1-list-tools.js';
import { concurrencyBench, outputBench, reuseBench, type GateBenchResult } from './gate.js';
import { acceptBench, awaitBench, startBench } from './efforts.js';
import { patternsBench } from './patterns.js';
import { couplingBench } from './coupling.js';
import { coldStartPeersBench, gatePeersBench, mcpPeersBench } from './peers.js';
import { baselineBench } from './baseline.js';
import { verifyBench } from './verify.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = `${root}dist/discern.js`;
const args = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const at = args.indexOf(name);
  return at >= 0 ? (args[at + 1] ?? fallback) : fallback;
};
const rounds = Number(option('--rounds', '21'));
const suite = option('--suite', 'all');
const strict = args.includes('--strict');
const node = process.execPath;
let over = 0;

// Every Node process of a run (discern, the floors, the Node jobs) inherits this environment. NODE_EXTRA_CA_CERTS
// makes each one parse a CA bundle as it starts (about 47 ms on the 2-core VM where the README's figures come
// from, where it is set for a network proxy): it inflates `node -e 0` floors, and taxes discern's one process
// against a Go peer. Runs say which environment they measured; bench/README.md gives both.
// Landings sign their notes with the discern key under XDG_CONFIG_HOME: the bench's landings use a key of their
// own, never the one of the user who runs it.
process.env['XDG_CONFIG_HOME'] = mkdtempSync(join(tmpdir(), 'discern-bench-config-'));

if (process.env['NODE_EXTRA_CA_CERTS'] !== undefined) {
  process.stdout.write(
    'Environment: NODE_EXTRA_CA_CERTS is set: every Node process parses that CA bundle as it starts. For a machine without it, run under `env -u NODE_EXTRA_CA_CERTS`.\n',
  );
} else {
  process.stdout.write('Environment: NODE_EXTRA_CA_CERTS is not set.\n');
}

function report(title: string, results: Measured[], floorName: string, budgets: Record<string, number>): void {
  const floor = results.find((r) => r.name === floorName)?.median ?? NaN;
  process.stdout.write(`\n${title} — ${rounds} interleaved rounds, medians (min), Node ${process.versions.node}\n\n`);
  process.stdout.write(`| case | median ms | min ms | × floor | budget |\n| --- | --- | --- | --- | --- |\n`);
  for (const r of results) {
    const ratio = r.median / floor;
    const budget = budgets[r.name];
    if (budget !== undefined && ratio > budget) over++;
    const verdict =
      budget === undefined
        ? r.name === floorName
          ? 'floor'
          : 'report'
        : ratio <= budget
          ? `≤ ${budget}× ok`
          : `≤ ${budget}× OVER`;
    process.stdout.write(
      `| ${r.name} | ${r.median.toFixed(1)} | ${r.min.toFixed(1)} | ${ratio.toFixed(2)} | ${verdict} |\n`,
    );
  }
}

/** `node -e 0` then `git status --porcelain`: the least any Node tool that reads the tree's state could cost. */
function floorCase(name: string, cwd: string): Case {
  return {
    name,
    run: async () =>
      (await timeCommand(node, ['-e', '0'], cwd)) + (await timeCommand('git', ['status', '--porcelain'], cwd)),
  };
}

if (suite === 'startup' || suite === 'all') {
  const results = await measure(
    [
      { name: 'node -e 0 (floor)', run: () => timeCommand(node, ['-e', '0'], root) },
      { name: 'discern --version', run: () => timeCommand(node, [bin, '--version'], root) },
      {
        name: 'discern docs --search "exit codes" --json',
        run: () => timeCommand(node, [bin, 'docs', '--search', 'exit codes', '--json'], root),
      },
      { name: 'discern mcp: spawn → initialize → tools/list', run: () => timeMcpToolsList(bin, root) },
    ],
    rounds,
    2,
  );
  report('Startup', results, 'node -e 0 (floor)', {
    'discern --version': 1.5,
    'discern docs --search "exit codes" --json': 1.8,
    'discern mcp: spawn → initialize → tools/list': 3,
  });
}

if (suite === 'startup' || suite === 'mcp' || suite === 'all') {
  const list = await v1ListToolsBench(bin, root, rounds);
  const ratio = list.listTools / list.raw;
  if (ratio > 3) over++;
  process.stdout.write(
    `\nv1 SDK client, tools/list of ${list.tools} tools over ${rounds} alternating rounds: raw request ${list.raw.toFixed(1)} ms, listTools() ${list.listTools.toFixed(1)} ms (${ratio.toFixed(2)}×, budget ≤ 3× ${ratio <= 3 ? 'ok' : 'OVER'}); the client's first listTools() ${list.first.toFixed(1)} ms (it compiles each output schema once)\n`,
  );
}

if (suite === 'orientation' || suite === 'all') {
  process.stdout.write('\nPreparing the fixture repositories (reused between runs)…\n');
  const repos: [string, string][] = [
    ['20k files', benchRepository(20_000)],
    ['50k files', benchRepository(50_000)],
  ];
  repos.push(['20k shallow', shallowClone(repos[0]?.[1] ?? '')]);
  for (const [label, cwd] of repos) {
    const floorName = `node -e 0; git status --porcelain (${label})`;
    const results = await measure(
      [
        floorCase(floorName, cwd),
        { name: `discern status --json (${label})`, run: () => timeCommand(node, [bin, 'status', '--json'], cwd) },
        { name: `discern impact --json (${label})`, run: () => timeCommand(node, [bin, 'impact', '--json'], cwd) },
      ],
      rounds,
      2,
    );
    const budgets =
      label === '20k files'
        ? { [`discern status --json (${label})`]: 1.5, [`discern impact --json (${label})`]: 1.5 }
        : {};
    report(`Orientation, ${label}, 200 changed`, results, floorName, budgets);
  }
  const trips = await toolRoundTrips(bin, repos[0]?.[1] ?? root, 'discern_status', 200);
  process.stdout.write(
    `\nWarm MCP server, discern_status round trip over 200 calls (20k files): p50 ${trips.p50.toFixed(1)} ms, p95 ${trips.p95.toFixed(1)} ms, max ${trips.max.toFixed(1)} ms\n`,
  );
}

if (suite === 'gate' || suite === 'all') {
  const options = {
    bin,
    rounds: Math.max(15, rounds === 21 ? 15 : rounds),
    cacheDir: join(tmpdir(), 'discern-bench-cache'),
  };
  for (const run of [concurrencyBench, reuseBench, outputBench]) reportGate(await run(options), options.rounds);
}

if (suite === 'efforts' || suite === 'all') {
  const options = { bin, rounds: Math.max(15, rounds === 21 ? 15 : rounds) };
  for (const run of [startBench, acceptBench, awaitBench]) reportGate(await run(options), options.rounds);
}

// Not part of `all`: it installs eslint, mocha and jest from the npm registry (or its cache) the first time.
if (suite === 'warm') {
  const options = { bin, rounds: Math.max(9, rounds === 21 ? 9 : rounds) };
  reportGate(await warmStartBench(options), options.rounds);
  for (const gate of ['mocha', 'jest', 'suite'] as const)
    reportGate(await composedAcceptBench(options, gate), options.rounds);
}

if (suite === 'patterns' || suite === 'all') {
  const patternsRounds = Math.max(15, rounds === 21 ? 15 : rounds);
  reportGate(await patternsBench({ bin, rounds: patternsRounds }), patternsRounds);
}

if (suite === 'coupling' || suite === 'all') {
  process.stdout.write('\nPreparing the coupling fixture (10,000 commits, reused between runs)…\n');
  const couplingRounds = Math.max(15, rounds === 21 ? 15 : rounds);
  reportGate(await couplingBench({ bin, rounds: couplingRounds }), couplingRounds);
}

// `--suite peers:gate`, `peers:mcp` or `peers:start` runs one part alone.
if (suite === 'all' || suite === 'peers' || suite.startsWith('peers:')) {
  const options = {
    bin,
    rounds: Math.max(15, rounds === 21 ? 15 : rounds),
    cacheDir: join(tmpdir(), 'discern-bench-cache'),
  };
  const parts = { gate: gatePeersBench, mcp: mcpPeersBench, start: coldStartPeersBench };
  for (const [part, run] of Object.entries(parts))
    if (!suite.startsWith('peers:') || suite === `peers:${part}`) reportGate(await run(options), options.rounds);
}

if (suite === 'verify' || suite === 'all') {
  const verifyRounds = Math.max(15, rounds === 21 ? 15 : rounds);
  reportGate(await verifyBench({ bin, rounds: verifyRounds }), verifyRounds);
}

// `--suite baseline --baseline <other>/dist/discern.js`: this build against another in the same rounds. Not part of
// `all`: it needs a second build (bench/README.md says how to make one from an earlier commit).
if (suite === 'baseline') {
  const baseline = option('--baseline', '');
  if (baseline === '') throw new Error('--suite baseline needs --baseline <path to another build of dist/discern.js>');
  const baselineRounds = Math.max(15, rounds === 21 ? 15 : rounds);
  reportGate(await baselineBench({ bin, baseline, rounds: baselineRounds }), baselineRounds);
}

function reportGate(result: GateBenchResult, gateRounds: number): void {
  process.stdout.write(
    `\n${result.title} — ${gateRounds} rounds, medians (min), Node ${process.versions.node}\n\n| case | median | min | ratio | budget |\n| --- | --- | --- | --- | --- |\n`,
  );
  for (const r of result.rows) {
    const measured = r.ratio ?? r.median;
    const within = r.budget === undefined ? undefined : measured <= r.budget;
    if (within === false) over++;
    const verdict =
      r.budget === undefined
        ? r.ratio !== undefined && r.ratio === 1
          ? 'floor'
          : 'report'
        : `≤ ${r.budget}${r.ratio !== undefined ? '×' : ''} ${within ? 'ok' : 'OVER'}`;
    process.stdout.write(
      `| ${r.name} | ${r.median.toFixed(1)} | ${r.min.toFixed(1)} | ${r.ratio !== undefined ? r.ratio.toFixed(2) : '—'} | ${verdict} |\n`,
    );
  }
  for (const note of result.notes) process.stdout.write(`\n${note}\n`);
}

process.exitCode = strict && over > 0 ? 1 : 0;
