// The logbook's one hook: invoke() calls record() with every result of a project verb, whatever its surface,
// so no verb writes to the logbook itself (docs/decisions/0026). Loaded only after a call resolved a project
// whose discern.toml does not say `[project] logbook = false`: --version, help and calls outside a project
// never load it and never write.
import type { DiscernResult } from '../../../generated/types.js';
import { appendLine } from './append.js';
import { eventFrom, serialize } from './event.js';
import { identify } from './identity.js';
import type { LogbookPaths } from './paths.js';
import type { TreeLook } from './tree-probe.js';
import type { CheckoutStatus } from '../git/checkout-status.js';

export interface Recording {
  result: DiscernResult;
  surface: 'cli' | 'mcp';
  env: Readonly<Record<string, string | undefined>>;
  client?: string;
  root: string;
  /** Where this checkout's repository keeps its logbook. */
  paths: LogbookPaths;
  /** Date.now() when the call began. */
  startedAt: number;
  /** The look at the checkout taken as a gate-running call began (see tree-probe.ts). */
  before?: Promise<TreeLook | undefined>;
  /** The strict status the verb read after its last jobs, when it read one (git/checkout-status.ts). */
  after?: CheckoutStatus;
}

/** Appends the call's event. Never throws, and a failure to append changes nothing about the call. */
export async function record(recording: Recording): Promise<void> {
  const finishedAt = Date.now();
  try {
    const { result } = recording;
    const before = recording.before ? await recording.before : undefined;
    const ranJobs = (result.steps ?? []).some(
      (s) => s.disposition === 'run' && (s.kind === 'job' || s.kind === 'scope-gate' || s.kind === 'standard'),
    );
    // The second look only for a gate run that ran jobs from a clean checkout (a tree is recorded only when both
    // looks saw it clean); its module is loaded already (the first look's). The status the verb read after its
    // last jobs is that look when it has one: nothing it did since touches the tree (docs/decisions/0043).
    let tree: { head: string; tree: string } | undefined;
    if (before?.clean && ranJobs) {
      const { lookAtTree, lookAfter, stableTree } = await import('./tree-probe.js');
      const after = recording.after
        ? lookAfter(before, recording.after)
        : await lookAtTree(recording.root, recording.env);
      tree = stableTree(before, after);
    }
    const event = eventFrom({
      result,
      surface: recording.surface,
      identity: identify(recording.surface, recording.env, recording.client),
      startedAt: recording.startedAt,
      finishedAt,
      ...(tree ? { tree } : {}),
    });
    await appendLine(recording.paths, serialize(event), new Date(finishedAt));
  } catch {
    // Advisory: nothing a logbook write can do may reach the caller.
  }
}
