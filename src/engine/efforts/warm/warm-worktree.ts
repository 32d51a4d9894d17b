// A new worktree takes the main checkout's installed dependencies where they are the install it would make
// ([worktree] copy): the entries are read, planned (copy-plan.ts) and copied one by one (tree-copy.ts), each
// reported as a step. Nothing here fails the caller: an entry that is skipped or breaks off leaves nothing in
// place, and ensure, which runs next, installs it as it would have anyway.
import { lstat, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { DiscernConfig, DiscernStep, DiscernWorktreeCopy } from '../../../../generated/types.js';
import { git } from '../../git/git.js';
import { copyPatterns, type CopyEntry, type CopyPattern } from './copy-entries.js';
import { makeSparesInBackground, type SpareOrder } from './spare-background.js';
import { entryDigest, takeSpare } from './spare-pool.js';
import { copyFacts, expandPatterns, trackedFiles } from './copy-facts.js';
import { planCopies } from './copy-plan.js';
import { mibText } from '../../../core/units.js';
import { copyTree, type CopyProgress } from './tree-copy.js';
import type { GateListener } from '../../gate/events.js';

type Env = Readonly<Record<string, string | undefined>>;

export const DEFAULT_COPY_MAX_MIB = 2048;

export interface WarmRequest {
  config: DiscernConfig;
  mainRoot: string;
  /** The git common dir: where spare installs wait (spare-pool.ts). */
  commonDir: string;
  /** The new worktree's root. */
  target: string;
  /** The new worktree's git dir: the copy in progress is staged under it, out of the tree. */
  gitDir: string;
  /** The entries, when the caller has read them already (start plans with them); else read here. */
  patterns?: readonly CopyPattern[];
  /** The ensure commands that run next: one that deletes node_modules makes copying it pointless. */
  ensure: readonly string[];
  env: Env;
  signal?: AbortSignal;
  /** Told as each copy starts, advances and ends, as a producer of its own (a live row, an accept run's journal). */
  listener?: GateListener;
  /**
   * Leave making the spares to the caller (`spareOrder`), who starts it once its own work is done: a spare is a
   * copy of thousands of files, and made beside ensure or a gate it slows them on a machine with few cores.
   */
  deferSpares?: boolean;
}

export interface WarmResult {
  steps: DiscernStep[];
  copies: DiscernWorktreeCopy[];
  /** With deferSpares: what to hand to makeSparesInBackground when the caller is done. */
  spareOrder?: SpareOrder;
}

export async function warmWorktree(request: WarmRequest): Promise<WarmResult> {
  const patterns =
    request.patterns ??
    copyPatterns(
      request.config,
      request.config.worktree?.copy === undefined ? await trackedFiles(request.target, request.env) : [],
    );
  const entries = await expandPatterns(patterns, request.mainRoot);
  if (entries.length === 0) return { steps: [], copies: [] };
  const decisions = planCopies(await copyFacts(entries, request.mainRoot, request.target, request.env), request.ensure);
  const limitBytes = (request.config.worktree?.copy_max_mib ?? DEFAULT_COPY_MAX_MIB) * 1024 * 1024;
  const staging = await stagingRoot(request);
  // A copy a killed run left half done is this worktree's discern's own, and nothing reads it: gone first.
  await rm(staging, { recursive: true, force: true }).catch(() => undefined);
  const steps: DiscernStep[] = [];
  const copies: DiscernWorktreeCopy[] = [];
  const taken: CopyEntry[] = [];
  for (const [index, decision] of decisions.entries()) {
    const { path } = decision.entry;
    const label = `copy ${path} from the main checkout`;
    if (!decision.copy) {
      steps.push({
        kind: 'worktree-copy',
        label,
        disposition: 'skip',
        note: decision.reason,
        outcome: 'skipped',
        duration_s: 0,
      });
      copies.push({ path, outcome: 'skipped', reason: decision.reason });
      continue;
    }
    if (request.signal?.aborted === true) break;
    const began = performance.now();
    const tell = request.listener;
    const ended = (outcome: 'ok' | 'failed' | 'skipped', detail: string): void =>
      tell?.({ type: 'producer-end', label, outcome, durationMs: performance.now() - began, detail });
    tell?.({ type: 'producer-start', label, group: 'copy' });
    // A spare made in the background for these key files is renamed into place; else the copy is made now.
    const spare = await takeSpare(
      request.commonDir,
      decision.entry,
      await entryDigest(decision.entry, request.target),
      join(request.target, path),
    );
    if (spare !== undefined) {
      taken.push(decision.entry);
      steps.push({
        kind: 'worktree-copy',
        label,
        disposition: 'run',
        note: `${mibText(spare.bytes)} in ${spare.files} files, a spare made ${spare.made_at} renamed into place`,
        outcome: 'ok',
        duration_s: Math.round((performance.now() - began) / 1000),
      });
      copies.push({ path, outcome: 'copied', method: 'spare', bytes: spare.bytes, files: spare.files });
      ended('ok', `${mibText(spare.bytes)}, a spare renamed into place`);
      continue;
    }
    const copied = await copyTree({
      source: join(request.mainRoot, path),
      target: join(request.target, path),
      staging: join(staging, String(index)),
      mainRoot: request.mainRoot,
      limitBytes,
      env: request.env,
      ...(request.signal ? { signal: request.signal } : {}),
      ...(tell ? { onProgress: (p: CopyProgress) => tell(copyProgress(label, p)) } : {}),
    });
    const duration_s = Math.round((performance.now() - began) / 1000);
    if (copied.ok) {
      taken.push(decision.entry);
      const how = copied.method === 'clone' ? 'cloned (copy-on-write)' : 'copied';
      const linked = copied.linked > 0 ? `, ${copied.linked} pnpm store files linked` : '';
      steps.push({
        kind: 'worktree-copy',
        label,
        disposition: 'run',
        note: `${mibText(copied.bytes)} in ${copied.files} files, ${how}${linked}`,
        outcome: 'ok',
        duration_s,
      });
      copies.push({
        path,
        outcome: 'copied',
        method: copied.method,
        bytes: copied.bytes,
        files: copied.files,
        ...(copied.linked > 0 ? { linked: copied.linked } : {}),
      });
      ended('ok', `${mibText(copied.bytes)} ${how}`);
      continue;
    }
    const reason = copied.skipped
      ? `not copied: ${copied.reason}; ensure installs it`
      : `the copy broke off (${copied.reason}) and was removed; ensure installs it`;
    steps.push({
      kind: 'worktree-copy',
      label,
      disposition: copied.skipped ? 'skip' : 'run',
      note: reason,
      outcome: copied.skipped ? 'skipped' : 'failed',
      duration_s,
    });
    copies.push({ path, outcome: copied.skipped ? 'skipped' : 'failed', reason });
    ended(copied.skipped ? 'skipped' : 'failed', reason);
  }
  await rm(staging, { recursive: true, force: true }).catch(() => undefined);
  // The next worktree should not wait for a copy either: a spare of each entry taken is made in the background.
  if (request.signal?.aborted === true || taken.length === 0) return { steps, copies };
  const order: SpareOrder = { commonDir: request.commonDir, mainRoot: request.mainRoot, entries: taken, limitBytes };
  if (request.deferSpares === true) return { steps, copies, spareOrder: order };
  makeSparesInBackground(order, request.env);
  return { steps, copies };
}

/** A copy's advance as a producer's progress: files done of the files walked, and the bytes so far. */
function copyProgress(label: string, p: CopyProgress): Parameters<GateListener>[0] {
  return {
    type: 'producer-progress',
    label,
    fact: {
      units: { kind: 'files', completed: p.files, total: p.totalFiles },
      results: { MiB: Math.round(p.bytes / (1024 * 1024)) },
    },
  };
}

/** The copies to keep in the task record: those now in place. */
export function recordedCopies(
  copies: readonly DiscernWorktreeCopy[],
): { path: string; bytes: number; files: number; method: 'clone' | 'copy' | 'spare' }[] {
  return copies.flatMap((c) =>
    c.outcome === 'copied' && c.method !== undefined
      ? [{ path: c.path, bytes: c.bytes ?? 0, files: c.files ?? 0, method: c.method }]
      : [],
  );
}

/** The entries for a commit not yet checked out: its tracked files read from the object store. */
export async function copyPatternsAt(
  config: DiscernConfig,
  commit: string,
  cwd: string,
  env: Env,
): Promise<CopyPattern[]> {
  if (config.worktree?.copy !== undefined) return copyPatterns(config, []);
  const listed = await git(['ls-tree', '-r', '--name-only', '-z', commit], { cwd, env });
  return copyPatterns(config, listed.code === 0 ? listed.stdout.split('\0').filter((p) => p !== '') : []);
}

/** Under the worktree's git dir when that is on the worktree's filesystem (a rename cannot cross one), else in it. */
async function stagingRoot(request: WarmRequest): Promise<string> {
  const [admin, tree] = await Promise.all([
    lstat(request.gitDir).catch(() => undefined),
    lstat(request.target).catch(() => undefined),
  ]);
  return admin !== undefined && tree !== undefined && admin.dev === tree.dev
    ? join(request.gitDir, 'discern', 'copying')
    : join(request.target, '.discern-copying');
}
