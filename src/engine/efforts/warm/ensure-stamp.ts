// Whether an ensure made only of package-manager installs would change anything. After [repository] ensure
// passes in the main checkout, discern stamps what that install was converged to: the ensure commands, every
// copy entry's key files (lockfiles, package.json files, settings, patches) and the package manager's own record
// of what it installed (node_modules/.package-lock.json and its kin). A checkout whose digest equals the stamp
// holds that same converged install — the main checkout after a landing that changed none of it, or an
// integration worktree whose node_modules was copied from it — and its ensure is skipped and reported so.
//
// Only installs qualify, and only where the install is all they do: no install hook of the project's own
// (`prepare`, `postinstall`…, which may read any file), and an install record present to compare. Then
// `npm install` reads nothing but the files in the digest. Any other command (a build, a codegen, a script) may
// read anything, and runs every time (docs/decisions/0053-warm-worktrees.md).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DiscernConfig } from '../../../../generated/types.js';
import { writeFileAtomic } from '../../state/atomic-write.js';
import { copyPatterns } from './copy-entries.js';
import { expandPatterns, trackedFiles } from './copy-facts.js';
import { entryDigest } from './spare-pool.js';

const STAMP_FORMAT = 1;

/** What each package manager writes into node_modules as the record of the install it made. */
const INSTALL_RECORDS = ['.package-lock.json', '.modules.yaml', '.yarn-state.yml', '.yarn-integrity'];

/** `npm install`, `pnpm install`, `yarn` / `yarn install`, `bun install`, with options only (no package names). */
const INSTALL =
  /^\s*(?:npm\s+(?:install|i)|pnpm\s+(?:install|i)|yarn(?:\s+install)?|bun\s+(?:install|i))((?:\s+--?[\w-]+(?:=\S+)?)*)\s*$/;

export function installOnly(commands: readonly string[]): boolean {
  return commands.length > 0 && commands.every((c) => INSTALL.test(c));
}

export interface EnsureStamp {
  format: typeof STAMP_FORMAT;
  /** The checkout the install was converged in. */
  root: string;
  digest: string;
  at: string;
}

function stampPath(commonDir: string): string {
  return join(commonDir, 'discern', 'ensure-stamp.json');
}

/**
 * The digest of a checkout's install as ensure would converge it, or undefined when ensure is not install-only
 * (then nothing may be skipped).
 */
export async function installDigest(
  root: string,
  config: DiscernConfig,
  commands: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<string | undefined> {
  if (!installOnly(commands)) return undefined;
  // The default entries come from the checkout's tracked package.json files; configured ones are as written.
  const tracked = config.worktree?.copy === undefined ? await trackedFiles(root, env) : [];
  const entries = await expandPatterns(copyPatterns(config, tracked), root);
  const [first] = entries;
  if (first === undefined) return undefined;
  // Nothing installed to judge (yarn's Plug'n'Play keeps no node_modules; a copy that did not happen): ensure runs.
  if (!(await hasInstallRecord(join(root, first.path)))) return undefined;
  // The project's own install hooks (a `prepare` that builds, a `postinstall` that generates) read any file.
  if (await runsOwnScripts(root, entries)) return undefined;
  const hash = createHash('sha256').update(`${STAMP_FORMAT}\0${commands.join('\0')}\0`);
  for (const entry of [...entries].sort((a, b) => a.path.localeCompare(b.path))) {
    hash.update(`${entry.path}\0${await entryDigest(entry, root)}\0`);
    for (const name of INSTALL_RECORDS) {
      const bytes = await readFile(join(root, entry.path, name)).catch(() => undefined);
      hash.update(`${name}\0${bytes === undefined ? 'absent' : `${bytes.length}\0`}`);
      if (bytes !== undefined) hash.update(bytes);
    }
  }
  return hash.digest('hex');
}

/** What npm, pnpm and yarn run of the project's own package.json on an install with no arguments. */
const INSTALL_HOOKS = ['preinstall', 'install', 'postinstall', 'prepublish', 'preprepare', 'prepare', 'postprepare'];

async function runsOwnScripts(root: string, entries: readonly { key: readonly string[] }[]): Promise<boolean> {
  const manifests = new Set(
    entries.flatMap((e) => e.key.filter((k) => k === 'package.json' || k.endsWith('/package.json'))),
  );
  for (const manifest of manifests) {
    const text = await readFile(join(root, manifest), 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    try {
      const scripts = (JSON.parse(text) as { scripts?: Record<string, unknown> }).scripts ?? {};
      if (INSTALL_HOOKS.some((hook) => Object.hasOwn(scripts, hook))) return true;
    } catch {
      return true; // a manifest npm cannot read either: let ensure say so
    }
  }
  return false;
}

async function hasInstallRecord(dir: string): Promise<boolean> {
  for (const name of INSTALL_RECORDS)
    if (
      await readFile(join(dir, name)).then(
        () => true,
        () => false,
      )
    )
      return true;
  return false;
}

export async function readEnsureStamp(commonDir: string): Promise<EnsureStamp | undefined> {
  try {
    const value = JSON.parse(await readFile(stampPath(commonDir), 'utf8')) as Partial<EnsureStamp>;
    if (value.format !== STAMP_FORMAT || typeof value.root !== 'string' || typeof value.digest !== 'string')
      return undefined;
    return { format: STAMP_FORMAT, root: value.root, digest: value.digest, at: String(value.at ?? '') };
  } catch {
    return undefined;
  }
}

/** Best effort: a stamp that cannot be written only means the next ensure runs. */
export async function writeEnsureStamp(commonDir: string, root: string, digest: string): Promise<void> {
  const stamp: EnsureStamp = { format: STAMP_FORMAT, root, digest, at: new Date().toISOString() };
  await writeFileAtomic(stampPath(commonDir), `${JSON.stringify(stamp)}\n`).catch(() => undefined);
}

/**
 * Why `root`'s ensure has nothing to do: its install digest equals the stamp `source` was converged to. Undefined
 * when it must run (no stamp, another source, a different install, or ensure is not install-only).
 */
export async function convergedReason(
  commonDir: string,
  source: string,
  root: string,
  digest: string | undefined,
): Promise<string | undefined> {
  if (digest === undefined) return undefined;
  const stamp = await readEnsureStamp(commonDir);
  if (stamp === undefined || stamp.root !== source || stamp.digest !== digest) return undefined;
  return root === source
    ? `the lockfiles, manifests and installed packages are those the last ensure here converged (${stamp.at})`
    : `its packages were copied from the main checkout, whose last ensure converged these same lockfiles and manifests (${stamp.at})`;
}
