// Which ignored directories a new worktree may take from the main checkout, and the files that decide whether the
// main checkout's copy is the install the new worktree would make. `[worktree] copy` names them; omitted, each
// ecosystem's default applies (docs/decisions/0053-warm-worktrees.md says why only Node has one). Pure.
import { posix } from 'node:path';
import type { DiscernConfig } from '../../../../generated/types.js';

export interface CopyEntry {
  /** The directory, relative to the checkout (a configured `*` segment already expanded). */
  path: string;
  /** Files whose content must be the same in both checkouts. */
  key: string[];
}

/** A configured entry as written: its path may hold `*` segments. */
export interface CopyPattern {
  path: string;
  key: string[];
}

// What an npm, pnpm, yarn or bun install reads besides the package.json files: the lockfile and the package
// manager's settings. Patches (patch-package, pnpm and yarn patches) change installed files, so they key it too.
const NODE_LOCKFILES = [
  'package-lock.json',
  'npm-shrinkwrap.json',
  'pnpm-lock.yaml',
  'yarn.lock',
  'bun.lock',
  'bun.lockb',
];
const NODE_SETTINGS = ['.npmrc', '.yarnrc', '.yarnrc.yml', 'pnpm-workspace.yaml', '.pnpmfile.cjs'];
const NODE_PATCHES = /^(?:patches|\.yarn\/patches)\//;

/**
 * The configured patterns, or the defaults read from the new worktree's tracked files. Node: node_modules beside
 * each tracked package.json, keyed by every package.json, the lockfiles, the settings and the patches. Python's
 * virtualenvs and Rust's target hold absolute paths and Go keeps its caches outside the tree: no default.
 */
export function copyPatterns(config: DiscernConfig, tracked: readonly string[]): CopyPattern[] {
  const configured = config.worktree?.copy;
  if (configured !== undefined) return configured.map((entry) => ({ path: entry.path, key: [...entry.key] }));
  const manifests = tracked.filter((file) => posix.basename(file) === 'package.json');
  if (manifests.length === 0) return [];
  const lockfiles = tracked.filter((file) => NODE_LOCKFILES.includes(file));
  const key = [
    // A tracked lockfile pins the install. Without one, a lockfile only one checkout has (an ignored one the
    // owner's install wrote) means the two resolved on their own: every name keys it; absent from both, it matches.
    ...(lockfiles.length > 0 ? lockfiles : NODE_LOCKFILES),
    ...manifests,
    ...tracked.filter((file) => NODE_SETTINGS.includes(file) || NODE_PATCHES.test(file)),
  ];
  return manifests
    .map((manifest) => posix.join(posix.dirname(manifest), 'node_modules'))
    .sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b))
    .map((path) => ({ path, key }));
}

/** The words of an ensure command that throws node_modules away before it installs (`npm ci` and its aliases). */
export function discardsNodeModules(command: string): boolean {
  return /^\s*(?:\S*\/)?npm\s+(?:ci|clean-install|ic|install-clean|isntall-clean)(?:\s|$)/.test(command);
}
