// `npm run demo`: copies the embedded example project into a fresh git repository in a temp dir and runs
// discern on it end to end — over the CLI and over MCP — printing what a newcomer would see. It exits 1 if
// any step does not behave as documented.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'dist/discern.js');
const work = realpathSync(mkdtempSync(join(tmpdir(), 'discern-demo-')));
const project = join(work, 'example');
let failures = 0;

function title(text: string): void {
  const bold = process.stdout.isTTY && !process.env['NO_COLOR'];
  process.stdout.write(bold ? `\n\x1b[1m━━ ${text}\x1b[0m\n` : `\n━━ ${text}\n`);
}

function discern(args: string[], expect: number, cwd = project): string {
  process.stdout.write(`${cwd === project ? '' : `(in ${cwd})\n`}$ discern ${args.join(' ')}\n`);
  const run = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8' });
  const out = `${run.stdout}${run.stderr}`;
  process.stdout.write(
    out === '' ? '(no output: the answer is the exit status)\n' : out.endsWith('\n') ? out : `${out}\n`,
  );
  if (run.status !== expect) {
    failures++;
    process.stdout.write(`!! expected exit ${expect}, got ${run.status}\n`);
  } else process.stdout.write(`(exit ${run.status})\n`);
  return run.stdout;
}

function git(...args: string[]): void {
  gitIn(project, ...args);
}

function gitIn(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=discern demo', '-c', 'user.email=demo@discern.invalid', ...args], {
    cwd,
    stdio: 'ignore',
  });
}

try {
  cpSync(join(root, 'demo/example'), project, { recursive: true });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'example project');
  process.stdout.write(`Example project: ${project}\n`);

  title('1. The version, and the commands the grammar defines');
  discern(['--version'], 0);
  discern(['help', 'docs'], 0);

  title('2. doctor checks the project: config, git, trunk, and that each job command resolves');
  discern(['doctor'], 0);

  title('3. Where am I, and what does my change touch?');
  discern(['status'], 0);
  writeFileSync(
    join(project, 'docs', 'usage.md'),
    '# Using the example\n\nCall `sum` with an array of numbers; it returns their total.\n',
  );
  discern(['impact'], 0);
  discern(['impact', '--has', 'source'], 1);
  writeFileSync(
    join(project, 'src', 'sum.js'),
    'export function sum(values) {\n  return values.reduce((total, value) => total + value, 0);\n}\n\nexport const zero = 0;\n',
  );
  discern(['impact', '--has', 'source'], 0);
  discern(['map'], 0);

  title('4. A key nothing honours is refused, with its line — not silently ignored');
  const config = join(project, 'discern.toml');
  const original = readFileSync(config, 'utf8');
  writeFileSync(config, `${original}\n[jobs.e2e]\nstage = "test"\nrun = "npm run e2e"\nretries = 3\n`);
  const broken = JSON.parse(discern(['doctor', '--json'], 1)) as { error: string; hints: string[] };
  if (broken.error !== 'unknown_key') failures++;
  writeFileSync(config, original);

  title('5. The gate: done proves the committed tip, or says exactly what fails');
  git('checkout', '-q', '--', '.');
  writeFileSync(
    join(project, 'src', 'sum.js'),
    'export function sum(values) {\n\treturn values.reduce((total, value) => total + value, 0);\n}\n',
  );
  git('commit', '-q', '-am', 'sum: reindent');
  const red = JSON.parse(discern(['done', '--json'], 1)) as {
    error: string;
    data: { failed_stage: string };
    diagnostics: { file?: string; line?: number }[];
  };
  if (
    red.error !== 'gate_failed' ||
    red.data.failed_stage !== 'check' ||
    red.diagnostics[0]?.file !== 'src/sum.js' ||
    red.diagnostics[0]?.line !== 2
  )
    failures++;
  discern(['done', '--markdown'], 1);
  writeFileSync(
    join(project, 'src', 'sum.js'),
    'export function sum(values) {\n  return values.reduce((total, value) => total + value, 0);\n}\n',
  );
  git('commit', '-q', '-am', 'sum: indent with spaces');
  discern(['done', '--markdown'], 0);
  const started = process.hrtime.bigint();
  const reused = JSON.parse(discern(['done', '--json'], 0)) as { data: { gate_ran: boolean; proof: { line: string } } };
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  process.stdout.write(
    `The same commit again: gate_ran ${String(reused.data.gate_ran)}, answered in ${ms.toFixed(0)} ms with the recorded Proof.\n`,
  );
  if (reused.data.gate_ran !== false) failures++;
  git('commit', '-q', '--amend', '-m', 'sum: indent with spaces (reworded)');
  const replayed = JSON.parse(discern(['done', '--json'], 0)) as {
    data: { gate_ran: boolean; replayed_from?: string };
  };
  process.stdout.write(
    `An amended message, same tree: gate_ran ${String(replayed.data.gate_ran)}, evidence replayed from ${replayed.data.replayed_from?.slice(0, 12) ?? '?'}.\n`,
  );
  if (replayed.data.gate_ran !== false || replayed.data.replayed_from === undefined) failures++;
  discern(['progress'], 0);

  title('6. Two agents at once: each effort gets its own branch and worktree, is proven, and lands');
  const docsEffort = JSON.parse(discern(['start', 'usage-docs', '--title', 'Document sum', '--json'], 0)) as {
    data: { path: string };
  };
  const codeEffort = JSON.parse(discern(['start', 'sum-zero', '--title', 'Export zero', '--json'], 0)) as {
    data: { path: string };
  };
  writeFileSync(
    join(docsEffort.data.path, 'docs', 'usage.md'),
    '# Using the example\n\nCall `sum` with an array of numbers; it returns their total.\n',
  );
  gitIn(docsEffort.data.path, 'add', '-A');
  gitIn(docsEffort.data.path, 'commit', '-q', '-m', 'docs: how to call sum');
  writeFileSync(
    join(codeEffort.data.path, 'src', 'sum.js'),
    'export function sum(values) {\n  return values.reduce((total, value) => total + value, 0);\n}\n\nexport const zero = 0;\n',
  );
  gitIn(codeEffort.data.path, 'add', '-A');
  gitIn(codeEffort.data.path, 'commit', '-q', '-m', 'sum: export zero');
  discern(['done'], 0, docsEffort.data.path);
  discern(['done'], 0, codeEffort.data.path);
  discern(['status'], 0);
  // A sibling waits for sum-zero to land instead of polling: its budget runs out first (exit 124), with a handle.
  const waited = JSON.parse(discern(['await', '--landed', 'sum-zero', '--timeout', '1', '--json'], 124)) as {
    data: { resume: string };
  };
  // Without the owner's authority nothing lands: the submission waits, and the owner is asked.
  discern(['accept', 'sum-zero', '--markdown'], 1);
  // The owner consents for the docs effort in the conversation: the trunk fast-forwards to it.
  const first = JSON.parse(discern(['accept', 'usage-docs', '--confirmed', '--json'], 0)) as {
    data: { landing: { fast_forward: boolean } };
  };
  // The owner consents to the other too. The trunk has moved, so it is composed, gated again, and landed. (An owner
  // at a terminal could grant it with `--grant` instead; that needs an interactive terminal, which a demo has not.)
  const second = JSON.parse(discern(['accept', 'sum-zero', '--confirmed', '--json'], 0)) as {
    data: { landing: { fast_forward: boolean }; proof_line: string };
  };
  process.stdout.write(
    `usage-docs landed by fast-forward: ${String(first.data.landing.fast_forward)}; sum-zero composed over the moved trunk: ${String(!second.data.landing.fast_forward)}.\n${second.data.proof_line}\n`,
  );
  if (!first.data.landing.fast_forward || second.data.landing.fast_forward) failures++;
  // The waiting sibling resumes its watch: sum-zero's last seen commit is on the trunk now.
  discern(['await', '--resume', waited.data.resume], 0);
  discern(['status'], 0);

  title('7. The bundled manual: search, then read a page');
  discern(['docs', '--search', 'connect an agent'], 0);
  discern(['docs', 'guides/connect-a-coding-agent', '--markdown'], 0);

  title('8. A repository without discern.toml: setup drafts one from its own files, proves it, and lands it');
  const fresh = join(work, 'fresh');
  cpSync(join(root, 'demo/example'), fresh, { recursive: true });
  rmSync(join(fresh, 'discern.toml'));
  gitIn(fresh, 'init', '-q', '-b', 'main');
  gitIn(fresh, 'add', '-A');
  gitIn(fresh, 'commit', '-q', '-m', 'a project without discern');
  // The draft (package.json's test script, the docs folder as a neutral scope) lands on a setup branch.
  discern(['setup', 'begin'], 0, fresh);
  discern(['setup', 'step', '2'], 0, fresh);
  // Until setup lands, the work loop says what to finish first.
  discern(['start', 'too-early'], 1, fresh);
  // setup done commits the agents' files for the draft, then runs the first gate on that commit.
  discern(['setup', 'done'], 0, fresh);
  discern(['setup', 'accept'], 0, fresh);
  // Everything refresh would write is already on the trunk: the plan is empty.
  const plan = JSON.parse(discern(['refresh', '--dry-run', '--json'], 0, fresh)) as { plan?: { steps: unknown[] } };
  process.stdout.write(`refresh --dry-run after setup: ${plan.plan?.steps.length ?? 0} file(s) to write.\n`);
  if ((plan.plan?.steps.length ?? 0) !== 0) failures++;

  title('9. The same verbs over MCP, from the same contract');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp'],
    cwd: project,
    env: { ...process.env } as Record<string, string>,
  });
  const client = new Client({ name: 'discern-demo', version: '1.0.0' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  process.stdout.write(`tools/list: ${tools.map((t) => t.name).join(', ')}\n`);
  const call = await client.callTool({ name: 'discern_doctor', arguments: { path: project } });
  const envelope = call.structuredContent as {
    ok: boolean;
    verb: string;
    data?: { checks: { name: string; status: string }[] };
  };
  process.stdout.write(
    `discern_doctor → isError ${String(call.isError)}, ok ${envelope.ok}; checks: ${(envelope.data?.checks ?? []).map((c) => `${c.name}=${c.status}`).join(', ')}\n`,
  );
  const bad = await client.callTool({ name: 'discern_doctor', arguments: { path: 'example' } });
  const badEnvelope = bad.structuredContent as { error: string; message: string };
  process.stdout.write(`discern_doctor with a relative path → ${badEnvelope.error}: ${badEnvelope.message}\n`);
  const page = await client.readResource({ uri: 'discern://docs/guides/connect-a-coding-agent' });
  process.stdout.write(
    `discern://docs/guides/connect-a-coding-agent → ${String((page.contents[0] as { text: string }).text.split('\n').find((l) => l.startsWith('# ')))}\n`,
  );
  await client.close();
  if (!envelope.ok || badEnvelope.error !== 'invalid_arguments') failures++;
} finally {
  rmSync(work, { recursive: true, force: true });
  rmSync(`${project}.worktrees`, { recursive: true, force: true });
}

title(
  failures === 0
    ? 'Demo finished: every step behaved as documented.'
    : `Demo finished with ${failures} unexpected result(s).`,
);
process.exitCode = failures === 0 ? 0 : 1;
