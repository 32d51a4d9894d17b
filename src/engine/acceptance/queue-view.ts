// The landing queue as status, accept and a dry run show it: every recorded submission with its authority
// (the owner's grant, standing scopes covering the change, or awaiting the owner) and whether it can land now.
import type { DiscernConfig } from '../../../generated/types.js';
import { git } from '../git/git.js';
import { readWorkingState } from '../git/porcelain-status.js';
import type { CompiledScope } from '../scopes/index.js';
import { decideAuthority } from './authority.js';
import { CONSENT_SOURCES } from '../../../generated/consent-sources.js';
import type { Effort } from './efforts.js';
import { orderQueue, type QueueFacts, type QueueRow } from './queue.js';
import {
  grants,
  submissions,
  unhonouredRecords,
  type AcceptancePaths,
  type Submission,
  type UnhonouredRecord,
} from './records.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Paths the effort changes since its merge-base with the trunk (renames count both sides). */
export async function changedPaths(run: { cwd: string; env: Env }, trunk: string, head: string): Promise<string[]> {
  const base = await git(['merge-base', `refs/heads/${trunk}`, head], run);
  if (base.code !== 0) return [];
  const diff = await git(['diff', '--name-only', '-z', '--no-renames', base.stdout.trim(), head, '--'], run);
  return diff.stdout.split('\0').filter((p) => p.length > 0);
}

export async function queueRows(
  paths: AcceptancePaths,
  efforts: readonly Effort[],
  scopes: readonly CompiledScope[],
  config: DiscernConfig,
  trunk: string,
  run: { cwd: string; env: Env },
  extra?: Submission,
): Promise<QueueRow[]> {
  const all = await submissions.all(paths);
  if (extra && !all.some((s) => s.effort === extra.effort)) all.push(extra);
  // Grant and submission files an earlier discern wrote (no MAC), or copied or edited ones, are shown in their
  // rows with the command that replaces them, and never honoured: such a submission's row always waits.
  const notHonoured = await unhonouredRecords(paths);
  const unsealedSubmissions = new Set<string>();
  for (const { record, value } of notHonoured) {
    if (record.kind !== 'submission' || all.some((s) => s.effort === record.effort)) continue;
    all.push(value as Submission);
    unsealedSubmissions.add(record.effort);
  }
  const rows: { submission: Submission; facts: QueueFacts }[] = [];
  for (const submission of all) {
    const notes: UnhonouredRecord[] = notHonoured
      .map((u) => u.record)
      .filter(
        (u) => u.effort === submission.effort && (u.kind === 'grant' || unsealedSubmissions.has(submission.effort)),
      );
    const granted = await grants.read(paths, submission.effort);
    const grant = granted?.branch === submission.branch ? granted : undefined;
    const changed = await changedPaths(run, trunk, submission.head);
    const verdict = decideAuthority({
      confirmed: false,
      ...(grant ? { grant } : {}),
      preAuthorized: config.acceptance?.pre_authorized ?? [],
      scopes,
      changed,
    });
    const effort = efforts.find((e) => e.id === submission.effort);
    let waiting: string | undefined;
    let red: QueueFacts['red'];
    if (effort === undefined) waiting = 'its worktree is gone';
    else {
      const state = await readWorkingState(effort.path, run.env).catch(() => undefined);
      if (state === undefined) waiting = 'its worktree cannot be read';
      else if (state.head !== submission.head) waiting = 'its HEAD moved since it was submitted';
      else if (state.changed > 0) waiting = 'its worktree has uncommitted changes';
      else if (submission.last_failure?.head === submission.head) {
        const failure = submission.last_failure;
        waiting =
          failure.composed_with !== undefined
            ? `the gate failed on it composed with ${trunk} at ${failure.composed_with.slice(0, 12)}: change the work (a new head), or accept it again once ${trunk} has what it needs`
            : `its last landing attempt failed: ${failure.reason}`;
        if (failure.composed_with !== undefined)
          red = {
            composedWith: failure.composed_with,
            failures: failure.failures ?? [],
            ...(failure.handle !== undefined ? { handle: failure.handle } : {}),
          };
      } else if (verdict.queue === 'awaiting-owner') waiting = "the owner's consent";
    }
    const oldSubmission = notes.find((u) => u.kind === 'submission');
    const oldGrant = notes.find((u) => u.kind === 'grant');
    if (oldSubmission)
      waiting = `its submission was ${oldSubmission.message}: re-submit with \`${oldSubmission.command}\``;
    else if (oldGrant && waiting === "the owner's consent")
      waiting = `the owner's consent (its grant was ${oldGrant.message}: re-grant with \`${oldGrant.command}\`)`;
    rows.push({
      submission,
      facts: {
        authority: verdict.queue,
        ...(verdict.consent && CONSENT_SOURCES[verdict.consent.source].queue_source
          ? { authoritySource: CONSENT_SOURCES[verdict.consent.source].queue_source }
          : {}),
        ...(grant ? { grantedAt: grant.granted_at } : {}),
        ...(waiting !== undefined ? { waiting } : {}),
        ...(notes.length > 0 ? { unhonoured: notes } : {}),
        ...(red !== undefined && oldSubmission === undefined ? { red } : {}),
      },
    });
  }
  return orderQueue(rows);
}
