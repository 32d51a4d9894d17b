// `discern verify` on a landed commit against `node -e 0`, budget ≤ 2.5× (without NODE_EXTRA_CA_CERTS): the
// commit, its note, the trunk's allowed signers and the predecessor's policy read by one `git cat-file --batch`,
// the SSHSIG signature checked in-process. The fixture lands one effort through discern itself, signed with a key
// made for the run under its own XDG_CONFIG_HOME, and commits that key's signer line on the trunk.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measure } from './rounds.js';
import { timeCommand } from './processes.js';
import type { GateBenchResult } from './gate.js';

const identity = ['-c', 'user.name=bench', '-c', 'user.email=bench@discern.invalid', '-c', 'core.hooksPath=/dev/null'];

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', [...identity, ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
}

function discern(bin: string, cwd: string, ...args: string[]): string {
  return execFileSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
}

/** A repository whose trunk holds one landed, signed commit and the signer line that trusts its key. */
export function landedRepository(bin: string): { root: string; landed: string } {
  const root = join(tmpdir(), 'discern-bench-verify');
  rmSync(root, { recursive: true, force: true });
  rmSync(`${root}.worktrees`, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'discern.toml'), '[project]\nname = "bench"\n\n[jobs]\ntest = "true"\n');
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'config', 'user.email', 'bench@discern.invalid');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'bench');
  discern(bin, root, 'start', 'work', '--json');
  const effort = `${root}.worktrees/work`;
  writeFileSync(join(effort, 'change.txt'), 'changed\n');
  git(effort, 'add', '-A');
  git(effort, 'commit', '-q', '-m', 'the change');
  discern(bin, effort, 'done', '--json');
  discern(bin, root, 'accept', 'work', '--confirmed', '--json');
  const landed = git(root, 'rev-parse', 'main').trim();
  mkdirSync(join(root, 'discern'), { recursive: true });
  writeFileSync(join(root, 'discern', 'allowed_signers'), discern(bin, root, 'verify', '--signer-line'));
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'trust the bench key');
  return { root, landed };
}

export async function verifyBench(options: { bin: string; rounds: number }): Promise<GateBenchResult> {
  const { root, landed } = landedRepository(options.bin);
  const call = [options.bin, 'verify', landed, '--json'];
  // A result that did not verify would measure a refusal: the fixture must verify first.
  execFileSync(process.execPath, call, { cwd: root, stdio: 'ignore' });
  const results = await measure(
    [
      { name: 'node -e 0 (floor)', run: () => timeCommand(process.execPath, ['-e', '0'], root) },
      { name: 'discern verify <landed commit> --json', run: () => timeCommand(process.execPath, call, root) },
    ],
    options.rounds,
    2,
  );
  const floor = results[0]?.median ?? NaN;
  return {
    title: 'Verifying a landed commit: signature, signer, commit, tree and policy (ratio: × node -e 0)',
    rows: results.map((r, i) => ({
      name: r.name,
      median: r.median,
      min: r.min,
      ratio: r.median / floor,
      ...(i === 1 ? { budget: 2.5 } : {}),
    })),
    notes: [],
  };
}
