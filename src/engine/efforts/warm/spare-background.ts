// Spares are made after the call that needed one has answered, by a detached discern of their own: the caller's
// result never waits for the copy, and a CLI call's shell gets its prompt back at once. The child is this same
// executable with DISCERN_WARM_SPARE naming the work (surfaces/cli/main.ts reads it before anything else), so it
// runs the very copy code start uses. It is started only when discern runs as its executable (the CLI or the MCP
// server); a verb called in-process has no executable to start, and makes none.
import type { CopyEntry } from './copy-entries.js';

type Env = Readonly<Record<string, string | undefined>>;

let executable: string | undefined;

/** The discern executable's path, as the entry was started with it. */
export function setSpareExecutable(path: string | undefined): void {
  executable = path;
}

export interface SpareOrder {
  commonDir: string;
  mainRoot: string;
  entries: CopyEntry[];
  limitBytes: number;
  /** Delete the installs set aside in the trash (trash.ts) too. */
  emptyTrash?: boolean;
}

export function makeSparesInBackground(order: SpareOrder, env: Env): boolean {
  if (executable === undefined || (order.entries.length === 0 && order.emptyTrash !== true)) return false;
  if (env['DISCERN_WARM_SPARES'] === 'off' && order.emptyTrash !== true) return false;
  const work: SpareOrder = env['DISCERN_WARM_SPARES'] === 'off' ? { ...order, entries: [] } : order;
  try {
    // node:child_process loads when a spare is ordered, not with every call that records the executable.
    const { spawn } = process.getBuiltinModule('node:child_process');
    const child = spawn(process.execPath, [executable], {
      cwd: order.mainRoot,
      detached: true,
      stdio: 'ignore',
      env: { ...env, DISCERN_WARM_SPARE: JSON.stringify(work) },
    });
    child.on('error', () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}

/** The child's side: reads the order and makes each spare. */
export async function makeOrderedSpares(text: string, env: Env): Promise<number> {
  const { makeSpare } = await import('./spare-pool.js');
  let order: SpareOrder;
  try {
    order = JSON.parse(text) as SpareOrder;
  } catch {
    return 2;
  }
  if (!Array.isArray(order.entries) || typeof order.commonDir !== 'string' || typeof order.mainRoot !== 'string')
    return 2;
  for (const entry of order.entries)
    await makeSpare(order.commonDir, entry, {
      source: `${order.mainRoot}/${entry.path}`,
      mainRoot: order.mainRoot,
      limitBytes: order.limitBytes,
      env,
    }).catch(() => undefined);
  if (order.emptyTrash === true) {
    const { emptyTrash } = await import('./trash-dir.js');
    await emptyTrash(order.commonDir);
  }
  return 0;
}
