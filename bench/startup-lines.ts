// Start-up on the Node line that runs this script, for each build of dist/ named (docs/decisions/0056):
// `status --json`, `done --json` reusing current Proof, `docs --search` and an MCP spawn → tools/list, as
// ratios of `node -e 0` measured in the same interleaved rounds. Run it under each line's node, without
// NODE_EXTRA_CA_CERTS, with the builds to compare:
//   env -u NODE_EXTRA_CA_CERTS <node> --import tsx bench/startup-lines.ts [--rounds N] <label>=<dist/discern.js>...
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { timeCommand, timeMcpToolsList } from './processes.js';
import { measure, type Case } from './rounds.js';

const args = process.argv.slice(2);
const roundsAt = args.indexOf('--rounds');
const rounds = roundsAt === -1 ? 11 : Number(args[roundsAt + 1]);
const builds = args
  .filter((a, k) => a.includes('=') && args[k - 1] !== '--rounds')
  .map((a) => a.split('=') as [string, string]);
if (builds.length === 0) throw new Error('name at least one build: <label>=<path to dist/discern.js>');

const node = process.execPath;
const repo = mkdtempSync(join(tmpdir(), 'discern-startup-'));
// A build whose V8 is not this Node's writes its code cache on the first call (docs/decisions/0056): into a
// directory of this run's, filled by the warm-up rounds, so the rounds measure what a user's later calls cost.
const userCache = mkdtempSync(join(tmpdir(), 'discern-startup-cache-'));
process.env['DISCERN_CODE_CACHE'] = userCache;
const git = (...a: string[]): void => void execFileSync('git', a, { cwd: repo, stdio: 'ignore' });
git('init', '-q', '-b', 'main');
git('config', 'user.email', 'bench@example.invalid');
git('config', 'user.name', 'bench');
writeFileSync(join(repo, 'discern.toml'), '[project]\nname = "startup"\n\n[jobs]\ntest = "true"\n');
git('add', '-A');
git('commit', '-q', '-m', 'start');
// done's reuse path needs current Proof for HEAD: one green run per build makes it.
for (const [, bin] of builds) execFileSync(node, [bin, 'done', '--json'], { cwd: repo, stdio: 'ignore' });

/**
 * The least any status can do, as a script: load node:child_process and node:crypto, run the one git status status
 * runs, MAC a record and print. What discern adds to a status call is the distance from this row.
 */
const STATUS_FLOOR = `
const { execFile } = require('node:child_process');
const { createHmac } = require('node:crypto');
const record = require('node:fs').readFileSync('discern.toml');
execFile('git', ['status', '--porcelain=v2', '-z', '--branch', '--untracked-files=all'], (error, out) => {
  const mac = createHmac('sha256', 'key').update(record).digest('hex');
  process.stdout.write(JSON.stringify({ ok: !error, bytes: out.length, mac }) + '\\n');
});`;

const cases: Case[] = [
  { name: 'node -e 0', run: () => timeCommand(node, ['-e', '0'], repo) },
  { name: 'floor: git status + MAC (no discern)', run: () => timeCommand(node, ['-e', STATUS_FLOOR], repo) },
];
for (const [label, bin] of builds) {
  cases.push(
    { name: `${label}: status --json`, run: () => timeCommand(node, [bin, 'status', '--json'], repo) },
    { name: `${label}: done --json (reuse)`, run: () => timeCommand(node, [bin, 'done', '--json'], repo) },
    {
      name: `${label}: docs --search`,
      run: () => timeCommand(node, [bin, 'docs', '--search', 'exit codes', '--json'], repo),
    },
    { name: `${label}: mcp → tools/list`, run: () => timeMcpToolsList(bin, repo) },
  );
}
const results = await measure(cases, rounds, 2);
const floor = results[0]?.median ?? NaN;
process.stdout.write(
  `Node ${process.versions.node}, ${rounds} rounds, NODE_EXTRA_CA_CERTS ${process.env['NODE_EXTRA_CA_CERTS'] ? 'set' : 'not set'}\n\n| case | median ms | × node -e 0 |\n| --- | --- | --- |\n`,
);
for (const r of results)
  process.stdout.write(`| ${r.name} | ${r.median.toFixed(1)} | ${(r.median / floor).toFixed(2)} |\n`);
rmSync(repo, { recursive: true, force: true });
rmSync(userCache, { recursive: true, force: true });
