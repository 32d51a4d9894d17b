// [gate] stream: the CLI's done, prepare and test write each job's lines to stderr as they arrive, prefixed with the
// job's label, masked like the output file, whole lines only; stdout keeps exactly one result. Without the key
// stderr has none of them, and over MCP nothing is streamed.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { onlyJson, runCli } from '../helpers/cli.js';
import { cleanupGate, gateRepo } from '../helpers/gate-repo.js';
import { connectStdio } from '../helpers/mcp-client.js';
import { cleanEnv } from '../helpers/scratch-repo.js';

after(cleanupGate);

const SECRET = 'tok-4f9a-Stream-Secret';
const LINES = 40;

// Two jobs of one parallel stage, each writing every line in two pieces with a pause between them, so a line of
// one job would be cut by the other's if lines were not kept whole.
const chatty = (name: string): string =>
  `i=1; while [ $i -le ${LINES} ]; do printf '${name}-line-%s ' $i; sleep 0.005; printf 'end\\n'; i=$((i+1)); done`;

const JOBS = `[jobs]
lint = "${chatty('lint')}; echo 'lint says hello on stderr' >&2; sh tools/hostile.sh"
test = ". ./.env; echo \\"using token $API_TOKEN\\"; ${chatty('test')}"
`;

function project(stream: boolean | undefined) {
  const gate = `[gate]\nconcurrency = 2\n${stream === undefined ? '' : `stream = ${stream}\n`}`;
  const r = gateRepo(`${gate}\n${JOBS}`, {
    '.gitignore': '.env\n',
    // A bell and a colour sequence: shown in caret notation, never obeyed.
    'tools/hostile.sh': "printf 'bell\\007 esc\\033[31mred\\n'\n",
  });
  r.write('.env', `API_TOKEN=${SECRET}\n`);
  return r;
}

/** stderr's lines that carry a job's prefix (`lint │ …`, `test │ …`). */
function jobLines(stderr: string): string[] {
  return stderr.split('\n').filter((l) => /^(lint|test) +[│|] /.test(l));
}

function expectedJobLines(): string[] {
  const out: string[] = [];
  for (const name of ['lint', 'test']) for (let i = 1; i <= LINES; i++) out.push(`${name} │ ${name}-line-${i} end`);
  return out;
}

describe('[gate] stream = true', () => {
  it('done --json writes every job line to stderr under its label, secrets masked, stdout one JSON envelope', async () => {
    const r = project(true);
    const run = await runCli(['done', '--json'], { cwd: r.root, env: cleanEnv({ LANG: 'C.UTF-8' }) });
    const envelope = onlyJson(run);
    assert.equal(envelope['ok'], true, run.stdout);
    assert.equal(run.code, 0);
    const streamed = jobLines(run.stderr);
    // Every chatty line arrived whole, in its job's order.
    for (const name of ['lint', 'test']) {
      const own = streamed.filter((l) => l.startsWith(`${name} `) && l.includes('-line-'));
      assert.deepEqual(
        own,
        expectedJobLines().filter((l) => l.startsWith(`${name} `)),
        run.stderr,
      );
    }
    assert.ok(streamed.includes('lint │ lint says hello on stderr'), run.stderr);
    assert.ok(streamed.includes('test │ using token ***'), run.stderr);
    assert.ok(streamed.includes('lint │ bell^G esc^[[31mred'), run.stderr);
    assert.ok(!run.stderr.includes('\x1b') && !run.stderr.includes('\x07'), JSON.stringify(run.stderr));
    assert.ok(!(run.stdout + run.stderr).includes(SECRET), 'the secret is masked everywhere');
    // Nothing but job lines was added: a --json run narrates nothing else on stderr.
    assert.deepEqual(
      run.stderr.split('\n').filter((l) => l !== '' && !jobLines(l).length),
      [],
      run.stderr,
    );
  });

  it('test in the human format: the job lines go to stderr between the progress lines, stdout keeps the result', async () => {
    const r = project(true);
    const run = await runCli(['test', '--plain'], { cwd: r.root, env: cleanEnv() });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(jobLines(run.stderr).includes('test | test-line-1 end'), run.stderr);
    assert.ok(jobLines(run.stderr).includes('test | using token ***'), run.stderr);
    assert.ok(!run.stdout.includes('-line-'), run.stdout);
    assert.ok(!(run.stdout + run.stderr).includes(SECRET));
  });

  it('prepare --markdown and a standards measurement stream too; the Markdown result stays on stdout alone', async () => {
    const r = project(true);
    const prepare = await runCli(['prepare', '--markdown'], { cwd: r.root, env: cleanEnv({ LANG: 'C.UTF-8' }) });
    assert.equal(prepare.code, 0, prepare.stdout);
    assert.ok(jobLines(prepare.stderr).includes('lint │ lint-line-1 end'), prepare.stderr);
    assert.match(prepare.stdout, /^# discern prepare/);
    assert.ok(!prepare.stdout.includes('│ lint-line'), prepare.stdout);

    const s = gateRepo(
      '[gate]\nstream = true\n\n[standards.cov]\ndirection = "up"\nlimit = 10\nrun = "echo measuring; echo DISCERN_METRIC cov 50"\n',
    );
    const measured = await runCli(['standards', '--json'], { cwd: s.root, env: cleanEnv({ LANG: 'C.UTF-8' }) });
    assert.equal(onlyJson(measured)['ok'], true, measured.stdout);
    assert.ok(measured.stderr.split('\n').includes('standard:cov │ measuring'), measured.stderr);
  });

  it('over MCP nothing is streamed: the server writes no job line to its stderr', async () => {
    const r = project(true);
    const mcp = await connectStdio(r.root);
    try {
      const result = await mcp.client.callTool({ name: 'discern_done', arguments: {} });
      assert.equal((result.structuredContent as { ok?: boolean } | undefined)?.ok, true);
      assert.deepEqual(jobLines(mcp.stderr()), [], mcp.stderr());
    } finally {
      await mcp.client.close();
    }
  });
});

describe('[gate] stream unset', () => {
  it('done --json leaves stderr without any of the job lines', async () => {
    const r = project(undefined);
    const run = await runCli(['done', '--json'], { cwd: r.root, env: cleanEnv({ LANG: 'C.UTF-8' }) });
    assert.equal(onlyJson(run)['ok'], true, run.stdout);
    assert.deepEqual(jobLines(run.stderr), [], run.stderr);
    assert.ok(!run.stderr.includes('-line-'), run.stderr);
  });
});
