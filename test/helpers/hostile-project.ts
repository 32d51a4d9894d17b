// The scene for hostile-input runs: one fresh parent directory holding a sane project, a broken project
// (malformed discern.toml, invalid UTF-8 in files, file names and map pages), a sentinel directory that no
// call may touch, and the HOME and TMPDIR the server gets. `fingerprint` hashes a tree (names, kinds, modes,
// contents, link targets) so "no file outside the project changed" is one comparison.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cleanEnv, configureTestRepo, tempDir } from './scratch-repo.js';
import { runCli } from './cli.js';

/** Text the sentinel holds: no answer may ever contain it. */
export const SENTINEL_SECRET = 'sentinel-secret-7f3a91';

/** The smallest project every verb can run in: one trivial job. */
export const HOSTILE_BASE_CONFIG = `[project]
name = "Hostile"

[repository]
trunk = "main"

[jobs]
test = "true"
`;

/** The base with a scope, a checkpoint and a standard, so the verbs that govern them have something to act on. */
export const HOSTILE_CONFIG = `${HOSTILE_BASE_CONFIG}
[scopes.api]
paths = ["api/**"]

[checkpoints.api-review]
scope = "api"
question = "Is the API change backwards compatible?"

[standards.cov]
direction = "up"
limit = 80
margin = 2
run = "echo 'DISCERN_METRIC cov 90'"
`;

// Unterminated string, a duplicate table and a stray byte: smol-toml stops at the first.
const BROKEN_CONFIG = `[project]\nname = "Broken\n\n[jobs]\ntest = "true"\n[jobs]\n\u0000 = 1\n`;

/** Bytes that are not UTF-8: a lone continuation byte, an overlong encoding, a truncated sequence. */
export const INVALID_UTF8 = Buffer.from([0x23, 0x20, 0x80, 0xc0, 0xaf, 0x0a, 0xe2, 0x82, 0x0a, 0xff, 0xfe, 0x0a]);

export interface HostileScene {
  parent: string;
  project: string;
  broken: string;
  sentinel: string;
  home: string;
  tmp: string;
}

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, { cwd, env: cleanEnv({ GIT_CONFIG_NOSYSTEM: '1' }), stdio: ['ignore', 'pipe', 'pipe'] });
}

function write(root: string, path: string, content: string | Buffer): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
}

function initRepo(root: string, files: Record<string, string | Buffer>): void {
  mkdirSync(root, { recursive: true });
  git(root, 'init', '-q', '-b', 'main');
  configureTestRepo(join(root, '.git'));
  for (const [path, content] of Object.entries(files)) write(root, path, content);
}

function commitAll(root: string, message: string): void {
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '--allow-empty', '-m', message);
}

export function hostileScene(): HostileScene {
  const parent = tempDir('discern-hostile-');
  const scene: HostileScene = {
    parent,
    project: join(parent, 'project'),
    broken: join(parent, 'broken'),
    sentinel: join(parent, 'sentinel'),
    home: join(parent, 'home'),
    tmp: join(parent, 'tmp'),
  };
  for (const dir of [scene.sentinel, scene.home, scene.tmp]) mkdirSync(dir, { recursive: true });
  write(scene.sentinel, 'secret.txt', `${SENTINEL_SECRET}\n`);
  write(scene.sentinel, 'discern.toml', `[project]\nname = "${SENTINEL_SECRET}"\n`);
  write(scene.home, '.gitconfig', '[user]\n\tname = home\n');

  initRepo(scene.project, {
    'README.md': '# hostile\n',
    'discern.toml': HOSTILE_CONFIG,
    'api/v1.txt': 'one\n',
    'src/a.txt': 'a\n',
    'discern/map/10-guide/start.md': '# Start here\n\nThe project in one page.\n',
  });
  // Names that lead out of the project: a link to the sentinel, and a map page that is a link to its secret.
  symlinkSync(scene.sentinel, join(scene.project, 'escape'));
  symlinkSync(join(scene.sentinel, 'secret.txt'), join(scene.project, 'discern/map/10-guide/leak.md'));
  commitAll(scene.project, 'initial');
  write(scene.project, 'api/v1.txt', 'two\n');
  commitAll(scene.project, 'api change');

  initRepo(scene.broken, {
    'README.md': INVALID_UTF8,
    'discern.toml': BROKEN_CONFIG,
    'discern/map/10-guide/bad.md': Buffer.concat([
      Buffer.from('---\ntitle: "\u202e'),
      INVALID_UTF8,
      Buffer.from('\n---\n'),
    ]),
    'discern/map/bad\u0001region/page.md': INVALID_UTF8,
    'src/utf16.txt': Buffer.from('\ufeffhello', 'utf16le'),
  });
  // A file name that is not UTF-8 either (Linux allows any bytes but / and NUL).
  writeFileSync(
    Buffer.concat([Buffer.from(`${scene.broken}/`), Buffer.from([0x6e, 0xff, 0x2e, 0x74, 0x78, 0x74])]),
    INVALID_UTF8,
  );
  symlinkSync('/etc/passwd', join(scene.broken, 'passwd-link'));
  commitAll(scene.broken, 'broken');
  // And the working tree adds more: a discern.toml that is not UTF-8 at all.
  writeFileSync(join(scene.broken, 'discern.toml'), Buffer.concat([Buffer.from(BROKEN_CONFIG), INVALID_UTF8]));
  return scene;
}

/** One hash over a tree: every entry's path, kind, mode and content (or link target). */
export function fingerprint(root: string, skip: ReadonlySet<string> = new Set()): string {
  const hash = createHash('sha256');
  const walk = (dir: string, rel: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const relative = rel ? `${rel}/${name}` : name;
      if (skip.has(relative)) continue;
      const stat = lstatSync(path);
      hash.update(`${relative}\0${stat.mode}\0`);
      if (stat.isSymbolicLink()) hash.update(readlinkSync(path));
      else if (stat.isDirectory()) walk(path, relative);
      else hash.update(readFileSync(path));
      hash.update('\0');
    }
  };
  walk(root, '');
  return hash.digest('hex');
}

/** The entries of a tree, for a readable difference when fingerprints disagree. */
export function listing(root: string, skip: ReadonlySet<string> = new Set()): string[] {
  const out: string[] = [];
  const walk = (dir: string, rel: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const relative = rel ? `${rel}/${name}` : name;
      if (skip.has(relative)) continue;
      const stat = lstatSync(join(dir, name));
      out.push(`${relative} ${stat.size}`);
      if (stat.isDirectory() && !stat.isSymbolicLink()) walk(join(dir, name), relative);
    }
  };
  walk(root, '');
  return out;
}

/**
 * Two efforts the generated calls can name: fuzz-a changes the API (so its checkpoint question fires) and is
 * not proven; fuzz-b changes a source file and is proven, so accept, await and update meet real efforts.
 */
export async function seedEfforts(scene: HostileScene, env: Record<string, string>): Promise<void> {
  const cli = async (args: string[], cwd: string): Promise<void> => {
    const run = await runCli([...args, '--json'], { cwd, env: cleanEnv(env) });
    if (run.code !== 0) throw new Error(`discern ${args.join(' ')} failed: ${run.stdout}${run.stderr}`);
  };
  for (const [name, file] of [
    ['fuzz-a', 'api/v2.txt'],
    ['fuzz-b', 'src/b.txt'],
  ] as const) {
    await cli(['start', name], scene.project);
    const worktree = `${scene.project}.worktrees/${name}`;
    write(worktree, file, `${name}\n`);
    commitAll(worktree, `${name} changes ${file}`);
  }
  await cli(['done'], `${scene.project}.worktrees/fuzz-b`);
}
