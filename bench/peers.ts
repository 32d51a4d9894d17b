// discern against what a user would otherwise run, each a ratio taken in one run on the same repository and jobs
// (docs/decisions/0041):
//   (a) the gate: four Node jobs of about 300 ms of CPU each, in one parallel stage. `discern done --rerun` (the
//       whole gate: preconditions, the jobs, Proof written) and `discern test` (the same four jobs, no Proof)
//       against lefthook 2 running the same commands with `parallel: true`, budget done ≤ 1.2× lefthook; and a
//       plain sequential `npm run` chain of the same jobs. The same four jobs as `sleep 0.3` show the runners'
//       own overhead with no CPU contention (reported).
//   (b) MCP tool-call overhead: a warm server's round trip per call, client side, against a bare echo server
//       built on the same SDK (bench/echo-server.ts), budget discern_docs ≤ 2× echo.
//   (c) CLI cold start: `discern --version` against `node -e 0` (the startup suite holds its budget, 1.5×), with
//       lefthook's Go binary beside it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { build } from 'esbuild';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { measure, type Case, type Measured } from './rounds.js';
import { timeCommand } from './processes.js';
import { lefthookBinary, type GateBenchResult } from './gate.js';

export interface PeersBenchOptions {
  bin: string;
  rounds: number;
  /** Where lefthook is installed and the echo server bundled, outside any repository. */
  cacheDir: string;
}

const JOBS = ['job-a', 'job-b', 'job-c', 'job-d'];

function git(cwd: string, ...args: string[]): void {
  execFileSync(
    'git',
    ['-c', 'user.name=bench', '-c', 'user.email=bench@discern.invalid', '-c', 'core.hooksPath=/dev/null', ...args],
    { cwd, stdio: 'ignore' },
  );
}

/**
 * One repository that all three runners read: discern.toml, lefthook.yml and package.json name the same four
 * commands. Every job is a custom job of the test stage, so `discern test` runs exactly the four that `done` runs.
 */
function peersRepository(cacheDir: string, name: string, command: string): string {
  const root = join(cacheDir, `peers-${name}`);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(join(root, 'jobs'), { recursive: true });
  // Busy work in the job's own Node process: a gate's jobs are mostly Node tools doing CPU work. The job spins
  // until it has used the given CPU time (not until a wall-clock deadline), so whatever else a runner keeps busy
  // on the same cores slows the jobs, as it would real tools.
  writeFileSync(
    join(root, 'jobs', 'work.js'),
    'const want = Number(process.argv[2]) * 1000;\nconst used = () => { const u = process.cpuUsage(); return u.user + u.system; };\nconst start = used();\nwhile (used() - start < want);\n',
  );
  const toml = `[project]\nname = "bench"\n\n[gate]\nconcurrency = ${JOBS.length}\n\n${JOBS.map((j) => `[jobs.${j}]\nstage = "test"\nrun = ${JSON.stringify(command)}\n`).join('\n')}`;
  writeFileSync(join(root, 'discern.toml'), toml);
  writeFileSync(
    join(root, 'lefthook.yml'),
    `gate:\n  parallel: true\n  commands:\n${JOBS.map((j) => `    ${j}:\n      run: ${command}\n`).join('')}`,
  );
  const scripts: Record<string, string> = Object.fromEntries(JOBS.map((j) => [j, command]));
  scripts.gate = JOBS.map((j) => `npm run --silent ${j}`).join(' && ');
  writeFileSync(
    join(root, 'package.json'),
    `${JSON.stringify({ name: 'bench', version: '0.0.0', private: true, scripts }, null, 2)}\n`,
  );
  // npm's own network checks would otherwise land in the chain's time.
  writeFileSync(join(root, '.npmrc'), 'update-notifier=false\nfund=false\naudit=false\n');
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'bench');
  return root;
}

function gateCases(options: PeersBenchOptions, root: string, lefthook: string | undefined, label: string): Case[] {
  const node = process.execPath;
  const cases: Case[] = [];
  if (lefthook)
    cases.push({
      name: `lefthook run (parallel: true), ${label}`,
      run: () => timeCommand(lefthook, ['run', 'gate', '--no-tty'], root),
    });
  cases.push(
    {
      name: `discern done --rerun --json, ${label}`,
      run: () => timeCommand(node, [options.bin, 'done', '--rerun', '--json'], root),
    },
    { name: `discern test --json, ${label}`, run: () => timeCommand(node, [options.bin, 'test', '--json'], root) },
    {
      name: `npm run gate (sequential chain), ${label}`,
      run: () => timeCommand('npm', ['run', '--silent', 'gate'], root),
    },
  );
  return cases;
}

function gateRows(results: Measured[], lefthook: boolean, budgeted: boolean): GateBenchResult['rows'] {
  const floor = lefthook ? (results[0]?.median ?? NaN) : NaN;
  return results.map((r) => ({
    name: r.name,
    median: r.median,
    min: r.min,
    ...(lefthook ? { ratio: r.median / floor } : {}),
    ...(budgeted && lefthook && r.name.startsWith('discern done') ? { budget: 1.2 } : {}),
  }));
}

export async function gatePeersBench(options: PeersBenchOptions): Promise<GateBenchResult> {
  const lefthook = lefthookBinary(options.cacheDir);
  const rows: GateBenchResult['rows'] = [];
  const sets: [string, string, boolean][] = [
    ['cpu', '4 × node, 300 ms CPU', true],
    ['sleep', '4 × sleep 0.3', false],
  ];
  for (const [name, label, budgeted] of sets) {
    const command = name === 'cpu' ? 'node jobs/work.js 300' : 'sleep 0.3';
    const root = peersRepository(options.cacheDir, name, command);
    rows.push(
      ...gateRows(
        await measure(gateCases(options, root, lefthook, label), options.rounds, 1),
        lefthook !== undefined,
        budgeted,
      ),
    );
  }
  const version = lefthook ? execFileSync(lefthook, ['version'], { encoding: 'utf8' }).trim() : undefined;
  const npm = execFileSync('npm', ['--version'], { encoding: 'utf8' }).trim();
  return {
    title: '(a) The gate against lefthook and an npm run chain: the same four jobs, one repository (ratio: × lefthook)',
    rows,
    notes: [
      version
        ? `lefthook ${version} (the Go binary from its npm package), npm ${npm}, ${JOBS.length} jobs at [gate] concurrency = ${JOBS.length}.`
        : 'lefthook could not be installed from the npm registry: no ratios to it.',
      'done --rerun runs the preconditions, the four jobs and writes Proof; test runs the same four jobs with no Proof.',
    ],
  };
}

/** A connected client of a stdio server, and the round trip of one tool call. */
async function connect(command: string, args: string[], cwd: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command,
    args,
    cwd,
    env: { ...process.env } as Record<string, string>,
    stderr: 'inherit',
  });
  const client = new Client({ name: 'discern-bench', version: '0' });
  await client.connect(transport);
  return client;
}

/** The median per-call round trip, in µs, over a batch of sequential calls on one warm connection. */
async function batch(client: Client, tool: string, args: Record<string, unknown>, calls: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const start = performance.now();
    const result = await client.callTool({ name: tool, arguments: args });
    times.push(performance.now() - start);
    if (result.isError)
      throw new Error(`${tool} failed: ${JSON.stringify(result.structuredContent ?? result.content)}`);
  }
  times.sort((a, b) => a - b);
  return (times[Math.floor(times.length / 2)] ?? NaN) * 1000;
}

async function echoServerBundle(cacheDir: string): Promise<string> {
  const outfile = join(cacheDir, 'echo-server.mjs');
  mkdirSync(cacheDir, { recursive: true });
  await build({
    entryPoints: [fileURLToPath(new URL('./echo-server.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'silent',
    // The SDK's CommonJS dependencies call require(); give the ESM bundle one.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
  return outfile;
}

export async function mcpPeersBench(options: PeersBenchOptions): Promise<GateBenchResult> {
  const calls = 40;
  const root = peersRepository(options.cacheDir, 'mcp', 'true');
  // One finished operation for discern_progress to read back.
  execFileSync(process.execPath, [options.bin, 'test', '--json'], { cwd: root, stdio: 'ignore' });
  const echo = await connect(process.execPath, [await echoServerBundle(options.cacheDir)], root);
  const discern = await connect(process.execPath, [options.bin, 'mcp'], root);
  try {
    // The echo padded to the size of discern's answer: what the payload alone costs, on both ends of the pipe.
    const size = async (client: Client, tool: string, args: Record<string, unknown>): Promise<number> =>
      JSON.stringify(await client.callTool({ name: tool, arguments: args })).length;
    const page = { target: 'verbs/tidy' };
    const bytes = await size(discern, 'discern_docs', page);
    const pad = Math.max(0, bytes - (await size(echo, 'echo', { text: 'hello' })));
    const cases: Case[] = [
      { name: 'bare SDK echo server: echo "hello" (floor)', run: () => batch(echo, 'echo', { text: 'hello' }, calls) },
      {
        name: `discern_docs { target: "verbs/tidy" } (${(bytes / 1000).toFixed(1)} kB result)`,
        run: () => batch(discern, 'discern_docs', page, calls),
      },
      {
        name: `bare SDK echo server: echo padded to the same ${(bytes / 1000).toFixed(1)} kB`,
        run: () => batch(echo, 'echo', { text: 'hello', pad }, calls),
      },
      {
        name: 'discern_docs { target: "reference/exit-codes" } (9 kB page)',
        run: () => batch(discern, 'discern_docs', { target: 'reference/exit-codes' }, calls),
      },
      {
        name: 'discern_progress {} (reads back the latest run, small repository)',
        run: () => batch(discern, 'discern_progress', {}, calls),
      },
    ];
    const results = await measure(cases, options.rounds, 1);
    const floor = results[0]?.median ?? NaN;
    return {
      title: `(b) MCP tool call, warm server: median round trip per call in µs (${calls} sequential calls per round; ratio: × echo)`,
      rows: results.map((r, i) => ({
        name: r.name,
        median: r.median,
        min: r.min,
        ratio: r.median / floor,
        ...(i === 1 ? { budget: 2 } : {}),
      })),
      notes: [
        'discern_docs reads one page of the manual bundled in memory (no project, no git, no logbook): what is left over the echo is the MCP surface — input validation, invoke, the envelope, its Markdown, the result schema check — and the larger answer, which the padded echo prices on its own.',
        'discern_progress adds the project resolution (git) and a logbook record: a cheap project tool as an agent calls it.',
      ],
    };
  } finally {
    await Promise.allSettled([echo.close(), discern.close()]);
  }
}

export async function coldStartPeersBench(options: PeersBenchOptions): Promise<GateBenchResult> {
  const node = process.execPath;
  const root = peersRepository(options.cacheDir, 'start', 'true');
  const lefthook = lefthookBinary(options.cacheDir);
  const cases: Case[] = [
    { name: 'node -e 0 (floor)', run: () => timeCommand(node, ['-e', '0'], root) },
    { name: 'discern --version', run: () => timeCommand(node, [options.bin, '--version'], root) },
    {
      name: 'discern status --json (small repository)',
      run: () => timeCommand(node, [options.bin, 'status', '--json'], root),
    },
  ];
  if (lefthook)
    cases.push({ name: 'lefthook version (Go binary)', run: () => timeCommand(lefthook, ['version'], root) });
  const results = await measure(cases, options.rounds, 2);
  const floor = results[0]?.median ?? NaN;
  return {
    title: '(c) CLI cold start (ratio: × node -e 0)',
    rows: results.map((r, i) => ({
      name: r.name,
      median: r.median,
      min: r.min,
      ratio: r.median / floor,
      ...(i === 1 ? { budget: 1.5 } : {}),
    })),
    notes: [],
  };
}
