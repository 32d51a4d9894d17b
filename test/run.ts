// Runs every *.test.ts under test/ with node:test through tsx. Node 20's runner neither globs nor finds
// .ts files, so the list is collected here and passed explicitly.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readSize, type TestSize } from './helpers/test-size.js';

const root = fileURLToPath(new URL('..', import.meta.url));

function collect(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (name === 'fixtures' || name === 'node_modules') continue;
    if (statSync(full).isDirectory()) found.push(...collect(full));
    else if (name.endsWith('.test.ts')) found.push(full);
  }
  return found;
}

const filters = process.argv.slice(2);
const files = collect(join(root, 'test'))
  .map((f) => relative(root, f))
  .filter((f) => filters.length === 0 || filters.some((p) => f.includes(p)));
if (files.length === 0) {
  process.stderr.write(`no test files match ${filters.join(' ')}\n`);
  process.exit(1);
}
// DISCERN_TEST_SIZE is checked here, once, before any test file starts.
let size: TestSize;
try {
  size = readSize(process.env['DISCERN_TEST_SIZE']);
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}
process.stdout.write(
  size === 'full'
    ? `${files.length} test files, property suites at full size\n`
    : `${files.length} test files, property suites bounded (DISCERN_TEST_SIZE=full runs every case)\n`,
);
// NODE_EXTRA_CA_CERTS makes every Node process parse a CA bundle as it starts (about 40 ms each here), and the
// suite starts thousands of them (discern, its watchdog, Node jobs). No test talks TLS except npm's, so the
// bundle is passed aside under DISCERN_TEST_NODE_EXTRA_CA_CERTS and the packaging test gives it back to npm.
const env = { ...process.env };
const caCerts = env['NODE_EXTRA_CA_CERTS'];
if (caCerts !== undefined) {
  delete env['NODE_EXTRA_CA_CERTS'];
  env['DISCERN_TEST_NODE_EXTRA_CA_CERTS'] = caCerts;
}
// The discern key (docs/decisions/0050) lives under XDG_CONFIG_HOME: the suite's landings sign with a key of its
// own, made in a directory removed when the run ends, never with the key of the user who runs the tests.
const signingHome = mkdtempSync(join(tmpdir(), 'discern-test-config-'));
env['XDG_CONFIG_HOME'] = signingHome;
// Two files at a time: most tests wait on git and child processes, and Node 20's default on two cores is one.
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files],
  {
    cwd: root,
    env,
    stdio: 'inherit',
  },
);
rmSync(signingHome, { recursive: true, force: true });
process.exit(result.status ?? 1);
