// Installs a kit of tools the tests run into the cache they read (test/helpers/live-tools.ts): `live-tools` (the
// default: the JavaScript test runners and linters of the live diagnostics tests) or `agent-clis` (the coding
// agents' own CLIs). Nothing to do when that lockfile is already installed; `npm ci` otherwise, into a temporary
// directory renamed into place, so an interrupted install never looks finished.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { toolKitManifest, toolKitModules, toolKitPrefix, type ToolKit } from '../test/helpers/live-tools.js';

const kit: ToolKit = process.argv[2] === 'agent-clis' ? 'agent-clis' : 'live-tools';
const prefix = toolKitPrefix(kit);
if (toolKitModules(kit) !== undefined) {
  process.stdout.write(`${kit}: already installed in ${prefix}\n`);
  process.exit(0);
}
mkdirSync(dirname(prefix), { recursive: true });
const staging = mkdtempSync(`${prefix}.partial-`);
for (const file of ['package.json', 'package-lock.json'])
  copyFileSync(join(toolKitManifest(kit), file), join(staging, file));
const started = Date.now();
// --ignore-scripts for live-tools: every tool there ships JavaScript or a prebuilt binary package. The agents'
// CLIs put their native binary in place with their own install script (Claude Code's install.cjs), so it runs.
const scripts = kit === 'live-tools' ? ['--ignore-scripts'] : [];
const npm = spawnSync('npm', ['ci', ...scripts, '--no-audit', '--no-fund', '--loglevel=error'], {
  cwd: staging,
  stdio: ['ignore', 'inherit', 'inherit'],
});
if (npm.status !== 0) {
  rmSync(staging, { recursive: true, force: true });
  process.stderr.write(
    `${kit}: npm ci failed (exit ${String(npm.status ?? npm.signal)}); the tests that need it will say so\n`,
  );
  process.exit(1);
}
if (existsSync(prefix)) rmSync(prefix, { recursive: true, force: true });
renameSync(staging, prefix);
process.stdout.write(`${kit}: installed in ${prefix} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
