// Scratch git repositories in temp dirs for tests: real git, an identity set per repository (a clean CI machine
// has none), trunk "main" regardless of the machine's init.defaultBranch.
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface ScratchRepo {
  root: string;
  git(...args: string[]): string;
  write(path: string, text: string): void;
  commit(message: string): void;
  cleanup(): void;
}

const created: string[] = [];
// Each test file runs in its own process: whatever it created in the temp dir goes when it exits, cleaned up
// by the test or not (a test that fails half-way leaves nothing behind either).
process.once('exit', () => {
  for (const dir of created) {
    try {
      rmSync(dir, { recursive: true, force: true });
      // Efforts' worktrees go to a sibling directory by default ([worktree] root).
      rmSync(`${dir}.worktrees`, { recursive: true, force: true });
    } catch {
      // A directory a test made unwritable, or still in use: the OS temp dir is cleared eventually.
    }
  }
});

export function tempDir(prefix = 'discern-test-'): string {
  // realpath: macOS-style /tmp symlinks would otherwise make git report a different root than we created.
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  created.push(dir);
  return dir;
}

/**
 * The code cache the suite's discern processes keep (docs/decisions/0056): one directory for every test of this
 * user, so a Node line other than the build's fills it once, and the user's own cache directory is left alone.
 */
const SUITE_CODE_CACHE = join(tmpdir(), `discern-test-code-cache-${process.getuid?.() ?? 'user'}`);

export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith('GIT_') && !k.startsWith('DISCERN_')) env[k] = v;
  return { ...env, DISCERN_CODE_CACHE: SUITE_CODE_CACHE, ...extra };
}

// A test repository's own settings, appended to the .git/config `git init` just wrote (three `git config`
// processes fewer per repository). Auto maintenance is off: git would otherwise start `git maintenance run
// --auto` after every commit, about one process in ten of the suite's, and no test is about it.
const TEST_REPO_CONFIG = `[user]
\tname = discern test
\temail = test@discern.invalid
[commit]
\tgpgsign = false
[maintenance]
\tauto = false
[gc]
\tauto = 0
`;

/** Gives a repository `git init` just made the suite's identity and settings. */
export function configureTestRepo(gitDir: string): void {
  appendFileSync(join(gitDir, 'config'), TEST_REPO_CONFIG);
}

export function scratchRepo(files: Record<string, string> = {}, options: { commit?: boolean } = {}): ScratchRepo {
  const root = tempDir();
  const git = (...args: string[]): string =>
    execFileSync('git', args, {
      cwd: root,
      env: cleanEnv({ GIT_CONFIG_NOSYSTEM: '1' }),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  git('init', '-q', '-b', 'main');
  configureTestRepo(join(root, '.git'));
  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  const commit = (message: string): void => {
    git('add', '-A');
    git('commit', '-q', '--allow-empty', '-m', message);
  };
  write('README.md', '# scratch\n');
  for (const [path, text] of Object.entries(files)) write(path, text);
  if (options.commit !== false) commit('initial');
  return {
    root,
    git,
    write,
    commit,
    cleanup: () => {
      rmSync(root, { recursive: true, force: true });
      rmSync(`${root}.worktrees`, { recursive: true, force: true });
    },
  };
}

export const MINIMAL_CONFIG = `[project]
name = "Scratch"

[repository]
trunk = "main"

[jobs]
test = "git --version"
`;
