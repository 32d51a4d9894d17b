// Values from the configured env files never leave a job's output as they were printed
// (docs/decisions/0039-confinement-and-redaction.md): a job that echoes them, puts them in a JUnit failure
// message and in a DISCERN_PROGRESS failure, fails the gate — and the secret is nowhere in the --json result, the
// Markdown, `discern progress`, the MCP result, the files under .git/discern, or a Proof note; `***` is there
// instead. A short value (PORT=80) is left alone.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { connectStdio, type Connected } from '../helpers/mcp-client.js';
import { cleanEnv, scratchRepo, type ScratchRepo } from '../helpers/scratch-repo.js';

const TOKEN = 's3cr3t-Token-9x';
const PASSWORD = 'hunter2-Longer';
const LOCAL = 'only-in-env-local-77';

// The job reads the env files the way a project's own scripts do, then leaks them every way a job can.
const LEAK = `#!/bin/sh
. ./.env
. ./.env.local
echo "connecting with token=$API_TOKEN and password $DB_PASSWORD on port $PORT"
echo "DISCERN_PROGRESS {\\"units\\":{\\"kind\\":\\"tests\\",\\"completed\\":1,\\"total\\":2},\\"failure\\":{\\"name\\":\\"auth $API_TOKEN\\",\\"message\\":\\"rejected $DB_PASSWORD\\"}}"
echo "DISCERN_PROGRESS {\\"active\\":[\\"$LOCAL_VALUE\\"]}"
echo '<?xml version="1.0"?>'
echo "<testsuite name=\\"s\\" tests=\\"1\\" failures=\\"1\\"><testcase classname=\\"auth\\" name=\\"login\\" file=\\"src/a.ts\\" line=\\"3\\"><failure message=\\"token $API_TOKEN was refused\\">expected $DB_PASSWORD</failure></testcase></testsuite>"
printf 'split across two writes: %s' "\${API_TOKEN%???????}"
sleep 0.1
printf '%s\n' "\${API_TOKEN#????????}"
exit \${LEAK_EXIT:-1}
`;

const config = (exit: number): string => `[project]
name = "Leaky"

[repository]
trunk = "main"

[jobs]
test = "LEAK_EXIT=${exit} sh tools/leak.sh"
`;

let repo: ScratchRepo;
const secrets = [TOKEN, PASSWORD, LOCAL];

function assertClean(what: string, text: string): void {
  for (const secret of secrets) assert.ok(!text.includes(secret), `${what} shows ${secret}:\n${text.slice(0, 3000)}`);
}

/** Every file under the git directory's discern/ state: journal, outputs, records. */
function stateFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push(path);
    }
  };
  walk(join(root, '.git', 'discern'));
  return out;
}

before(() => {
  repo = scratchRepo({
    'discern.toml': config(1),
    'tools/leak.sh': LEAK,
    '.gitignore': '.env\n.env.local\n',
    'src/a.ts': 'export {};\n',
  });
  repo.write('.env', `# settings\nexport API_TOKEN="${TOKEN}"\nDB_PASSWORD=${PASSWORD} # the dev one\nPORT=80\n`);
  repo.write('.env.local', `LOCAL_VALUE='${LOCAL}'\n`);
});

describe("a failing gate whose job prints the env files' values", () => {
  let handle = '';

  it('--json: the diagnostics, steps and progress show *** where the values were', async () => {
    const run = await runCli(['done', '--json'], { cwd: repo.root, env: cleanEnv() });
    assertClean('done --json', run.stdout + run.stderr);
    const result = JSON.parse(run.stdout) as {
      ok: boolean;
      error?: string;
      data?: { handle?: string };
      diagnostics?: { message: string }[];
    };
    assert.equal(result.error, 'gate_failed', run.stdout.slice(0, 1000));
    const messages = (result.diagnostics ?? []).map((d) => d.message).join('\n');
    assert.match(messages, /\*\*\*/, `the JUnit failure is reported, masked: ${messages}`);
    handle = result.data?.handle ?? '';
    assert.ok(handle, 'the run has a handle');
  });

  it('--markdown and the human view: masked', async () => {
    const md = await runCli(['done', '--rerun', '--markdown'], { cwd: repo.root, env: cleanEnv() });
    assertClean('done --markdown', md.stdout + md.stderr);
    assert.match(md.stdout, /\*\*\*/);
    const human = await runCli(['done', '--rerun'], { cwd: repo.root, env: cleanEnv() });
    assertClean('done (human)', human.stdout + human.stderr);
  });

  it('discern progress <handle>: masked, in JSON and Markdown', async () => {
    for (const format of ['--json', '--markdown']) {
      const run = await runCli(['progress', handle, format], { cwd: repo.root, env: cleanEnv() });
      assertClean(`progress ${format}`, run.stdout + run.stderr);
    }
    const json = await runCli(['progress', handle, '--json'], { cwd: repo.root, env: cleanEnv() });
    assert.match(json.stdout, /\*\*\*/, 'the progress failure carries the mask');
  });

  it('over MCP: structuredContent and the Markdown are masked', async () => {
    let mcp: Connected | undefined;
    try {
      mcp = await connectStdio(repo.root);
      const result = await mcp.client.callTool({ name: 'discern_done', arguments: { rerun: true } });
      assertClean('discern_done over MCP', JSON.stringify(result));
      const progress = await mcp.client.callTool({ name: 'discern_progress', arguments: { handle } });
      assertClean('discern_progress over MCP', JSON.stringify(progress));
    } finally {
      await mcp?.client.close();
    }
  });

  it('the journal, the job output files and every other file under .git/discern: masked', () => {
    const files = stateFiles(repo.root);
    assert.ok(files.length > 0);
    let masked = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      assertClean(file, text);
      if (text.includes('***')) masked++;
    }
    assert.ok(masked > 0, 'the output files hold the mask');
    // The short value is not a secret: the port still reads as printed.
    const outputs = files
      .filter((f) => f.endsWith('.log'))
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    assert.match(outputs, /on port 80/);
    // The value written in two pieces, with a pause between, is still caught whole.
    assert.match(outputs, /split across two writes: \*\*\*$/m);
  });
});

describe('a passing gate whose job prints them', () => {
  it('the result, the gate-proof record and any Proof note carry no value', async () => {
    repo.write('discern.toml', config(0));
    repo.commit('the job passes');
    const run = await runCli(['done', '--json'], { cwd: repo.root, env: cleanEnv() });
    assertClean('done --json (green)', run.stdout + run.stderr);
    assert.equal((JSON.parse(run.stdout) as { ok: boolean }).ok, true, run.stdout.slice(0, 800));
    // done records Proof in the checkout's gate-proof marker (under .git/discern, read below); the git note is
    // written when the commit lands, from the same summary. Whatever notes exist are read too.
    const notes = repo.git('notes', '--ref=discern', 'list').trim().split('\n').filter(Boolean);
    for (const line of notes) assertClean('a Proof note', repo.git('cat-file', '-p', line.split(' ')[0] ?? ''));
    for (const file of stateFiles(repo.root)) assertClean(file, readFileSync(file, 'utf8'));
  });
});
