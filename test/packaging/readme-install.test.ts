// The README's install, run as written (docs/decisions/0054): its commands, read from the README's "Install"
// block, in a copy of this checkout, with npm's global prefix pointed at an empty directory. The packed build
// (`prepack`) is what gets installed; then `discern` from that prefix, in a directory unrelated to the checkout,
// answers --version, and `discern mcp` answers the SDK's client with a tool call in a scratch repository.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { REPO_ROOT } from '../helpers/cli.js';
import { npmEnv } from '../helpers/npm-env.js';
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
