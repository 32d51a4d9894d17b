// The README's install, run as written (docs/decisions/0054): its commands, read from the README's "Install"
// block, in a copy of this checkout, with npm's global prefix pointed at an empty directory. The packed build
// (`prepack`) is what gets installed; then `discern` from that prefix, in a directory unrelated to the checkout,
// answers --version, and `discern mcp` answers the SDK's client with a tool call in a scratch repository. Last,
// a project is set up with it (setup begin, done, accept), refresh wires three agents, and the agents' own CLIs
// (Claude Code, Codex, Gemini CLI, from tools/agent-clis/) list its server, offline, in a folder they trust.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { REPO_ROOT } from '../helpers/cli.js';
import { npmEnv } from '../helpers/npm-env.js';
import { toolKitModules } from '../helpers/live-tools.js';
import { cleanEnv, scratchRepo, tempDir } from '../helpers/scratch-repo.js';

const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };

/** The first ```sh block under the README's "## Install" heading: the commands a reader copies. */
function readmeInstall(): string {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const section = readme.split(/^## /m).find((s) => s.startsWith('Install\n'));
  assert.ok(section !== undefined, 'the README has an Install section');
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(block !== undefined, 'the Install section has a sh block');
  return block.trim();
}

/** The checkout as it is, tracked and new files alike (not what is ignored: no node_modules, no dist/). */
function copyCheckout(to: string): void {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  })
    .split('\0')
    .filter((f) => f !== '' && existsSync(join(REPO_ROOT, f)));
  for (const file of files) {
    mkdirSync(dirname(join(to, file)), { recursive: true });
    copyFileSync(join(REPO_ROOT, file), join(to, file));
  }
}

let prefix: string;
let bin: string;
let installMs = 0;

before(() => {
  const work = tempDir('discern-readme-install-');
  const clone = join(work, 'discern');
  prefix = join(work, 'prefix');
  mkdirSync(prefix);
  copyCheckout(clone);
  const started = performance.now();
  const result = spawnSync('sh', ['-c', readmeInstall()], {
    cwd: clone,
    // The locked packages are in the cache already (this checkout was installed from it): no registry round trips.
    env: npmEnv({ npm_config_prefix: prefix, npm_config_prefer_offline: 'true' }),
    encoding: 'utf8',
    timeout: 600_000,
  });
  installMs = performance.now() - started;
  assert.equal(result.status, 0, `the README's install failed:\n${result.stdout}${result.stderr}`);
  bin = join(prefix, 'bin', 'discern');
});

describe("the README's install, as written", () => {
  it('installs discern-cli alone into the prefix, with `discern` on its bin', (t) => {
    t.diagnostic(`npm ci && npm pack && npm install -g: ${(installMs / 1000).toFixed(1)} s`);
    const installed = readdirSync(join(prefix, 'lib', 'node_modules')).filter((n) => !n.startsWith('.'));
    assert.deepEqual(installed, [manifest.name]);
    assert.ok(existsSync(bin), bin);
  });

  it('answers --version from a directory that has nothing to do with the checkout', () => {
    const elsewhere = tempDir('discern-elsewhere-');
    const out = execFileSync(bin, ['--version'], { cwd: elsewhere, env: cleanEnv(), encoding: 'utf8' });
    assert.equal(out.trim(), `discern ${manifest.version}`);
  });

  let client: Client | undefined;
  after(async () => {
    await client?.close();
  });

  it('serves MCP from the prefix: initialize, tools/list and discern_status in a scratch repository', async () => {
    const repo = scratchRepo();
    client = new Client({ name: 'discern-readme-install-test', version: '0.0.0' });
    await client.connect(
      new StdioClientTransport({ command: bin, args: ['mcp'], cwd: repo.root, env: cleanEnv(), stderr: 'pipe' }),
    );
    assert.equal(client.getServerVersion()?.version, manifest.version);
    const { tools } = await client.listTools();
    assert.ok(tools.some((tool) => tool.name === 'discern_status'));
    const result = (await client.callTool({ name: 'discern_status', arguments: {} })) as {
      structuredContent?: Record<string, unknown>;
    };
    assert.equal(result.structuredContent?.['verb'], 'status', JSON.stringify(result));
  });
});

/** The project's commands with the prefix's discern first on the PATH, as a teammate's shell has it. */
function withPrefix(extra: Record<string, string> = {}): Record<string, string> {
  const env = cleanEnv(extra);
  return { ...env, PATH: `${join(prefix, 'bin')}:${env['PATH'] ?? ''}` };
}

function run(cwd: string, args: string[], env: Record<string, string> = withPrefix()): Record<string, unknown> {
  const result = spawnSync(bin, [...args, '--json'], { cwd, env, encoding: 'utf8' });
  const parsed = JSON.parse(result.stdout) as Record<string, unknown>;
  assert.equal(parsed['ok'], true, `discern ${args.join(' ')}: ${result.stdout}${result.stderr}`);
  return parsed;
}

/** Whether this machine can run a command without a network (a network namespace of its own). */
function offlineWorks(): boolean {
  return spawnSync('unshare', ['-n', 'true']).status === 0;
}

describe("the agents' own CLIs list the server of a project set up from the prefix", () => {
  it('setup begin … accept, refresh for Claude Code, Codex and Gemini CLI, then `<agent> mcp list`', (t) => {
    const modules = toolKitModules('agent-clis');
    if (modules === undefined) {
      const why = "the agents' CLIs are not installed (npx tsx tools/live-tools.ts agent-clis)";
      if (process.env['CI'] === 'true') assert.fail(`${why}; CI must run them`);
      t.skip(why);
      return;
    }
    const repo = scratchRepo({
      'package.json': '{ "name": "wired", "private": true, "scripts": { "test": "node -e 0" } }\n',
    });
    run(repo.root, ['setup', 'begin']);
    run(repo.root, ['setup', 'done']);
    run(repo.root, ['setup', 'accept']);
    // The owner adds Gemini CLI to the agents setup chose, and refresh wires it beside the others.
    const config = readFileSync(join(repo.root, 'discern.toml'), 'utf8');
    const agents = /^agents = \[.*\]$/m;
    writeFileSync(
      join(repo.root, 'discern.toml'),
      agents.test(config)
        ? config.replace(agents, 'agents = ["claude_code", "codex", "gemini"]')
        : config.replace(/^\[project\]$/m, '[project]\nagents = ["claude_code", "codex", "gemini"]'),
    );
    repo.commit('add Gemini CLI');
    run(repo.root, ['refresh']);
    repo.commit('wire Gemini CLI');

    // Each agent's trust step, as the person takes it: Claude Code's approval of the project's server, Gemini
    // CLI's trusted folder, Codex's trusted project. Their homes are fresh: nothing else is configured.
    const home = tempDir('discern-agent-home-');
    writeFileSync(join(repo.root, '.claude', 'settings.local.json'), '{ "enabledMcpjsonServers": ["discern"] }\n');
    mkdirSync(join(home, '.gemini'));
    writeFileSync(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [repo.root]: 'TRUST_FOLDER' }));
    mkdirSync(join(home, 'codex'));
    writeFileSync(join(home, 'codex', 'config.toml'), `[projects."${repo.root}"]\ntrust_level = "trusted"\n`);
    const env = withPrefix({ HOME: home, CODEX_HOME: join(home, 'codex') });
    const offline = offlineWorks();
    t.diagnostic(
      offline
        ? 'offline: each CLI runs in a network namespace of its own'
        : 'unshare -n is not available here: the CLIs run with the network',
    );
    const list = (cli: string): string => {
      const command = join(modules, '.bin', cli);
      const result = offline
        ? spawnSync('unshare', ['-n', command, 'mcp', 'list'], {
            cwd: repo.root,
            env,
            encoding: 'utf8',
            timeout: 120_000,
          })
        : spawnSync(command, ['mcp', 'list'], { cwd: repo.root, env, encoding: 'utf8', timeout: 120_000 });
      return `${result.stdout}${result.stderr}`;
    };
    // Claude Code and Gemini CLI start the server and say it connected; Codex lists it as enabled.
    assert.match(list('claude'), /^discern: discern mcp - ✔ Connected$/m);
    assert.match(list('gemini'), /✓ discern: discern mcp \(stdio\) - Connected/);
    assert.match(list('codex'), /^discern\s+discern\s+mcp\s+.*\benabled\b/m);
  });
});
