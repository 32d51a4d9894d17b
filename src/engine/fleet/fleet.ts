// The fleet: the repository's worktrees with the state an agent needs to coordinate — branch, clean or not,
// distance from the trunk, broken or locked. The main checkout (a bare repository has none) and the caller's
// checkout are always in it; other worktrees are in it when their branch carries the effort prefix, or always
// with `all`.
import { existsSync } from 'node:fs';
import type { DiscernStatusFleetRow } from '../../../generated/types.js';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { git } from '../git/git.js';
import { readWorkingState, type WorkingState } from '../git/porcelain-status.js';
import { trunkDistance, type TrunkDistance } from '../git/trunk-distance.js';
import { listWorktrees, type WorktreeRecord } from '../git/worktree-list.js';
import { mapLimited } from '../process/limit.js';

/** One worktree's row, as the status contract publishes it. */
export type FleetRow = DiscernStatusFleetRow;

export interface FleetOptions {
  root: string;
  currentRoot: string;
  /** The repository's common git directory, and whether the caller is in the main checkout. */
  commonDir: string;
  location: 'main' | 'worktree';
  trunk: string;
  branchPrefix: string;
  all: boolean;
  shallow: boolean;
  /** The caller's own state, read by the caller at the same time as the fleet: not read twice. */
  current: Promise<{ state: WorkingState; distance: TrunkDistance }>;
  env: Readonly<Record<string, string | undefined>>;
  signal?: AbortSignal;
}

const GIT_CONCURRENCY = 4;

export async function readFleet(options: FleetOptions): Promise<FleetRow[]> {
  const all = await worktreeRecords(options);
  // git lists the main worktree first. A bare repository's first record is the repository itself, which has
  // no working tree: then there is no main row, and every other record is a linked worktree.
  const mainPath = all[0]?.bare === false ? all[0].path : undefined;
  const records = all.filter((r) => !r.bare);
  const selected = records.filter(
    (r) =>
      r.path === mainPath ||
      r.path === options.currentRoot ||
      options.all ||
      (r.branch ?? '').startsWith(options.branchPrefix),
  );
  const rows = await mapLimited(selected, GIT_CONCURRENCY, (record) =>
    fleetRow(record, record.path === mainPath, options),
  );
  // Recent activity only orders rows beyond main and here: with fewer rows there is nothing to order by it.
  const activity =
    rows.length > 2
      ? await commitTimes(
          options.root,
          rows.map((r) => r.head ?? null),
          options.env,
          options.signal,
        )
      : new Map<string, number>();
  return rows.sort((a, b) => rank(a, b, activity));
}

/**
 * A main checkout with no linked worktrees (the common case) needs no `git worktree list`: the fleet is the
 * checkout itself. Anything else asks git.
 */
async function worktreeRecords(options: FleetOptions): Promise<WorktreeRecord[]> {
  if (options.root === options.currentRoot && options.location === 'main') {
    const linked = await readdir(join(options.commonDir, 'worktrees')).catch(() => [] as string[]);
    if (linked.length === 0) {
      const { state } = await options.current;
      return [
        { path: options.root, head: state.head, branch: state.branch, bare: false, locked: null, prunable: null },
      ];
    }
  }
  return listWorktrees(options.root, options.env, options.signal);
}

async function fleetRow(record: WorktreeRecord, isMain: boolean, options: FleetOptions): Promise<FleetRow> {
  const base = {
    path: record.path,
    is_main: isMain,
    is_current: record.path === options.currentRoot,
    branch: record.branch,
    head: record.head,
  };
  const locked = record.locked ? { locked: true, reason: record.locked } : {};
  if (record.prunable || !existsSync(record.path)) {
    return { ...base, broken: true, reason: record.prunable ?? 'the worktree directory is missing' };
  }
  if (base.is_current) {
    const { state, distance } = await options.current;
    return {
      ...base,
      clean: state.changed === 0,
      changed_files: state.changed,
      ahead: distance.ahead,
      behind: distance.behind,
      ...locked,
    };
  }
  try {
    const state = await readWorkingState(record.path, options.env, options.signal);
    const distance = await trunkDistance(record.path, options.trunk, {
      shallow: options.shallow,
      env: options.env,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return {
      ...base,
      clean: state.changed === 0,
      changed_files: state.changed,
      ahead: distance.ahead,
      behind: distance.behind,
      ...locked,
    };
  } catch (error) {
    return { ...base, broken: true, reason: error instanceof Error ? error.message : String(error) };
  }
}

/** Commit time (seconds) of each worktree's HEAD, read in one git call. */
async function commitTimes(
  root: string,
  heads: (string | null)[],
  env: Readonly<Record<string, string | undefined>>,
  signal?: AbortSignal,
): Promise<Map<string, number>> {
  const oids = [...new Set(heads.filter((h): h is string => h !== null))];
  if (oids.length === 0) return new Map();
  // `git log --no-walk` reads just these commits; `git show -s` costs far more on a large tree.
  const result = await git(['log', '--no-walk=unsorted', '--format=%H %ct', ...oids], {
    cwd: root,
    env,
    ...(signal ? { signal } : {}),
  });
  const times = new Map<string, number>();
  for (const line of result.stdout.split('\n')) {
    const [oid, time] = line.split(' ');
    if (oid && time) times.set(oid, Number(time));
  }
  return times;
}

/** Main first, then the caller's checkout, then what needs attention (broken, then dirty), then recent activity, then path. */
function rank(a: FleetRow, b: FleetRow, activity: Map<string, number>): number {
  const key = (r: FleetRow): number[] => [
    r.is_main ? 0 : 1,
    r.is_current ? 0 : 1,
    r.broken ? 0 : 1,
    r.clean === false ? 0 : 1,
  ];
  const ka = key(a);
  const kb = key(b);
  for (let i = 0; i < ka.length; i++) if ((ka[i] ?? 0) !== (kb[i] ?? 0)) return (ka[i] ?? 0) - (kb[i] ?? 0);
  const ta = a.head ? (activity.get(a.head) ?? 0) : 0;
  const tb = b.head ? (activity.get(b.head) ?? 0) : 0;
  if (ta !== tb) return tb - ta;
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}
