// The code cache in dist/code-cache/ (docs/decisions/0042): the built discern runs a few representative calls in a
// scratch repository with DISCERN_CODE_CACHE_WRITE=1, and its bin writes, for every bundle file the call loaded,
// the bytecode V8 compiled for it. The calls run one after another and each starts from the cache the previous
// ones left, so a file's cache holds every function any of them ran. A call that fails fails the build: the
// bundle it trains is broken.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { cachedDataVersionTag } from 'node:v8';

const CONFIG = `[project]\nname = "code-cache"\n\n[jobs.check]\nstage = "check"\nrun = "true"\n\n[jobs.unit]\nstage = "test"\nrun = "true"\n`;

/** What an MCP client says first, then a few calls, then end of input (the server exits on it). */
const MCP_SESSION = [
  {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'build', version: '0' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 1, method: 'tools/list' },
  { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'discern_status', arguments: {} } },
  {
    jsonrpc: '2.0',
    id: 3,
    method: 'tools/call',
    params: { name: 'discern_docs', arguments: { target: 'verbs/done' } },
  },
  { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'discern_done', arguments: {} } },
  { jsonrpc: '2.0', id: 5, method: 'resources/list' },
]
  .map((message) => JSON.stringify(message))
  .join('\n');

/** The calls, most common first; `input` is what the call reads on stdin. */
const CALLS: { args: string[]; input?: string }[] = [
  { args: ['--version'] },
  { args: ['status', '--json'] },
  { args: ['done', '--json'] },
  { args: ['done', '--rerun', '--json'] },
  { args: ['done', '--json'] },
  { args: ['test', '--json'] },
  { args: ['docs', '--search', 'exit codes', '--json'] },
  { args: ['coupling', '--json'] },
  { args: ['status'] },
  { args: ['status', '--markdown'] },
  { args: ['help'] },
  { args: ['mcp'], input: `${MCP_SESSION}\n` },
];

export function trainCodeCache(dist: string): void {
  const scratch = mkdtempSync(join(tmpdir(), 'discern-code-cache-'));
  try {
    const repo = join(scratch, 'repo');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HOME: scratch,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: join(scratch, 'gitconfig'),
      GIT_AUTHOR_NAME: 'build',
      GIT_AUTHOR_EMAIL: 'build@example.invalid',
      GIT_COMMITTER_NAME: 'build',
      GIT_COMMITTER_EMAIL: 'build@example.invalid',
      NO_COLOR: '1',
    };
    // The build may itself run under git (a hook running `npm install`) or with discern's own settings: none of
    // that may reach the scratch repository or the calls trained in it.
    for (const name of Object.keys(env))
      if (/^(GIT_|DISCERN_)/.test(name) && !/^GIT_(AUTHOR|COMMITTER|CONFIG_NOSYSTEM|CONFIG_GLOBAL)/.test(name))
        delete env[name];
    const git = (...args: string[]): void => {
      const result = spawnSync('git', args, { cwd: repo, env, encoding: 'utf8' });
      if (result.status !== 0) throw new Error(`code cache: git ${args.join(' ')} failed: ${result.stderr}`);
    };
    writeFileSync(join(scratch, 'gitconfig'), '');
    const init = spawnSync('git', ['init', '-q', '-b', 'main', repo], { env, encoding: 'utf8' });
    if (init.status !== 0) throw new Error(`code cache: git init failed: ${init.stderr}`);
    writeFileSync(join(repo, 'discern.toml'), CONFIG);
    writeFileSync(join(repo, 'README.md'), '# code cache\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'start');
    for (const call of CALLS) {
      const result = spawnSync(process.execPath, [join(dist, 'discern.js'), ...call.args], {
        cwd: repo,
        env: { ...env, DISCERN_CODE_CACHE_WRITE: '1' },
        input: call.input ?? '',
        encoding: 'utf8',
        timeout: 60_000,
      });
      // Exit 0 or 1 (a verdict, e.g. done refusing on the trunk); a crash, grammar error or timeout is the bundle's.
      if (result.status !== 0 && result.status !== 1) {
        throw new Error(
          `code cache: discern ${call.args.join(' ')} exited ${String(result.status ?? result.signal)}: ${result.stderr}`,
        );
      }
    }
    if (readdirSync(join(dist, 'code-cache')).length === 0) throw new Error('code cache: no file was written');
    // Which V8 made the cache (its version and flags, as V8 itself checks them) and which build it is for: bin.cts
    // uses this cache only under the same tag, and keys a user's own cache for any other V8 by both (0056).
    const made = { v8_tag: String(cachedDataVersionTag()), build: buildIdentity(dist) };
    writeFileSync(join(dist, 'code-cache', 'build.json'), `${JSON.stringify(made)}\n`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * The build's identity: a digest of every file bundled into dist/ (names and contents), so a user's cache made for
 * one build is never handed to another. V8 checks a cache against its source only by length.
 */
function buildIdentity(dist: string): string {
  const hash = createHash('sha256');
  const files = readdirSync(dist, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.js') && !relative(dist, e.parentPath).startsWith('code-cache'))
    .map((e) => relative(dist, join(e.parentPath, e.name)))
    .sort();
  for (const file of files)
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(dist, file)))
      .update('\0');
  return hash.digest('hex').slice(0, 16);
}
