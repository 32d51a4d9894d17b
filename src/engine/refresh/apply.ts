// The thin executor of a refresh (or uninstall) plan. It first probes every target: if any cannot be written
// it refuses, naming the exact path, before anything is written. Then it writes the targets in plan order, each
// by temp file and rename, after checking the file still holds what the plan read (a file changed since is not
// overwritten), all under the project's edit lock so no other discern edit lands between the check and the write. A failure part-way stops there and says what completed; everything written is correct on its
// own, so running refresh again finishes the rest.
import { faultRequested } from '../faults.js';
import { withEditLock } from '../state/edit-lock.js';
import { ledgerPath, recordOwned } from './ownership.js';
import { currentText, digestOf, removeProjectFile, writeDenied, writeProjectFile } from './files.js';
import type { RefreshPlan, RefreshTarget } from './plan.js';

export interface ApplyOptions {
  env?: Readonly<Record<string, string | undefined>>;
  /** The git common dir: the writes happen under the project's edit lock there. */
  commonDir: string;
}

export type ProbeResult = { ok: true } | { ok: false; path: string; reason: string };

export type RefreshApplied =
  | { ok: true; written: RefreshTarget[] }
  | { ok: false; reason: 'write_denied'; path: string; message: string }
  | {
      ok: false;
      reason: 'partial';
      written: RefreshTarget[];
      failed: RefreshTarget;
      message: string;
      remaining: RefreshTarget[];
    };

/** Whether every target can be written; the first that cannot, with why. */
export async function probeTargets(plan: Pick<RefreshPlan, 'root' | 'targets'>): Promise<ProbeResult> {
  for (const target of plan.targets) {
    const denied = await writeDenied(plan.root, target.path);
    if (denied !== undefined) return { ok: false, path: target.path, reason: denied };
  }
  return { ok: true };
}

type Applicable = Pick<RefreshPlan, 'root' | 'targets'> & Partial<Pick<RefreshPlan, 'held'>>;

/** Writes the plan's targets; refuses before any write when one of them cannot be written. */
export async function applyRefresh(plan: Applicable, options: ApplyOptions): Promise<RefreshApplied> {
  return withEditLock(options.commonDir, () => applyLocked(plan, options));
}

async function applyLocked(plan: Applicable, options: ApplyOptions): Promise<RefreshApplied> {
  const env = options.env ?? process.env;
  const probe = await probeTargets(plan);
  if (!probe.ok)
    return { ok: false, reason: 'write_denied', path: probe.path, message: `${probe.reason}; nothing was written.` };
  // Parts already as refresh writes them are discern's text too: recorded, so a later hand edit of a part that
  // an earlier discern wrote (no record yet) is told apart from it.
  try {
    await recordOwned(options.commonDir, plan.held ?? []);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      reason: 'write_denied',
      path: ledgerPath(options.commonDir),
      message: `${why}; nothing was written.`,
    };
  }
  const written: RefreshTarget[] = [];
  for (const [index, target] of plan.targets.entries()) {
    try {
      if (faultRequested(env, `refresh:write:${target.path}`))
        throw new Error(`fault injected at refresh:write:${target.path} (DISCERN_FAULT)`);
      const now = await currentText(plan.root, target.path);
      if (digestOf(now) !== target.before)
        throw new Error(`${target.path} changed after the plan was made, so it was not overwritten`);
      if (target.content === undefined) await removeProjectFile(plan.root, target.path);
      else await writeProjectFile(plan.root, target.path, target.content, target.mode);
      written.push(target);
      // Recorded as each file is written, so a stop part-way leaves the ledger true to what was written.
      if (target.content !== undefined) await recordOwned(options.commonDir, target.owns);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return {
        ok: false,
        reason: 'partial',
        written,
        failed: target,
        message,
        remaining: plan.targets.slice(index + 1),
      };
    }
  }
  return { ok: true, written };
}
