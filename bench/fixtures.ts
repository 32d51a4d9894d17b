// Repositories for the orientation benchmarks, built once and reused (they live in the OS temp dir, keyed by a
// version of this recipe): N tracked files in 100 folders, one commit, then 200 files changed in the working
// tree; and a shallow clone of the 20k one with the same 200 changes.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RECIPE = 'v1';
const CHANGED = 200;
const CONFIG = `[project]
name = "bench"

[jobs]
lint = "git --version"
test = "git --version"

[scopes.docs]
paths = ["docs/**", "*.md"]
neutral = true

[scopes.core]
paths = ["d0/**", "d1/**", "d2/**"]
`;

function git(cwd: string, ...args: string[]): void {
  execFileSync(
    'git',
    ['-c', 'user.name=bench', '-c', 'user.email=bench@discern.invalid', '-c', 'core.hooksPath=/dev/null', ...args],
    { cwd, stdio: 'ignore', maxBuffer: 1 << 28 },
  );
}

function changeFiles(root: string): void {
  for (let i = 0; i < CHANGED; i++)
    writeFileSync(join(root, `d${i % 100}`, `f${Math.floor(i / 100)}.txt`), `changed ${i}\n`);
}

export function benchRepository(files: number): string {
  const root = join(tmpdir(), `discern-bench-${RECIPE}-${files}`);
  if (existsSync(join(root, '.ready'))) return root;
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  for (let d = 0; d < 100; d++) {
    const dir = join(root, `d${d}`);
    mkdirSync(dir);
    for (let f = 0; f < files / 100; f++) writeFileSync(join(dir, `f${f}.txt`), `file ${d}/${f}\n`);
  }
  writeFileSync(join(root, 'discern.toml'), CONFIG);
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'bench fixture');
  changeFiles(root);
  writeFileSync(join(root, '.git', 'info', 'exclude'), '.ready\n');
  writeFileSync(join(root, '.ready'), '');
  return root;
}

export function shallowClone(of: string): string {
  const root = `${of}-shallow`;
  if (existsSync(join(root, '.ready'))) return root;
  rmSync(root, { recursive: true, force: true });
  execFileSync('git', ['clone', '-q', '--depth', '1', `file://${of}`, root], { stdio: 'ignore' });
  changeFiles(root);
  writeFileSync(join(root, '.git', 'info', 'exclude'), '.ready\n');
  writeFileSync(join(root, '.ready'), '');
  return root;
}
