// Installs the JavaScript test runners and linters of tools/live-tools/ into the cache the live diagnostics
// tests read (test/helpers/live-tools.ts). Nothing to do when that lockfile is already installed; `npm ci`
// otherwise, into a temporary directory renamed into place, so an interrupted install never looks finished.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { LIVE_TOOLS_MANIFEST, liveToolsModules, liveToolsPrefix } from '../test/helpers/live-tools.js';

const prefix = liveToolsPrefix();
if (liveToolsModules() !== undefined) {
  process.stdout.write(`live tools: already installed in ${prefix}\n`);
  process.exit(0);
}
mkdirSync(dirname(prefix), { recursive: true });
const staging = mkdtempSync(`${prefix}.partial-`);
for (const file of ['package.json', 'package-lock.json'])
  copyFileSync(join(LIVE_TOOLS_MANIFEST, file), join(staging, file));
const started = Date.now();
// --ignore-scripts: every tool here ships JavaScript or a prebuilt binary package; none needs an install script.
const npm = spawnSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
  cwd: staging,
  stdio: ['ignore', 'inherit', 'inherit'],
});
if (npm.status !== 0) {
  rmSync(staging, { recursive: true, force: true });
  process.stderr.write(
    `live tools: npm ci failed (exit ${String(npm.status ?? npm.signal)}); the live tests will say so\n`,
  );
  process.exit(1);
}
if (existsSync(prefix)) rmSync(prefix, { recursive: true, force: true });
renameSync(staging, prefix);
process.stdout.write(`live tools: installed in ${prefix} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
