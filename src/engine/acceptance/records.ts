// What acceptance keeps under the git common dir, so it outlives the worktree it describes: submissions (the
// landing queue), the owner's effort grants, and acceptance transactions (an interrupted landing is finished
// or rolled back by the next call). One JSON file per effort in each directory, written atomically.
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { StateGrant, StateRecords, StateSubmission, StateTransaction } from '../../../generated/state-types.js';
import type { DiscernAcceptanceStep, DiscernUnhonouredRecord } from '../../../generated/types.js';
import { isTempName, readJsonFile } from '../state/atomic-write.js';
import { existingRepositoryKey } from '../state/repository-key.js';
import { checkStateValue, sealedRecordOrUndefined } from '../state/state-record.js';
import { sealHolds, writeSealed } from '../state/seal.js';

export const RECORD_FORMAT = 1;

/** The records' shapes are spec/state/{submission,grant,transaction}.schema.json. */
export type Submission = StateSubmission;
export type Grant = StateGrant;
export type Transaction = StateTransaction;
/** What a landing's Proof note records as completed, decided before the trunk moves. */
export type CompletionRecord = NonNullable<StateTransaction['completion_facts']>;

/** The named steps of a landing, in order (spec/vocabularies.yaml acceptance_step); the file says how far it got. */
export type TransactionStep = DiscernAcceptanceStep;

export interface AcceptancePaths {
  /** The git common dir: the records seal under its repository key. */
  commonDir: string;
  submissions: string;
  grants: string;
  transactions: string;
  integration: string;
}

export function acceptancePaths(commonDir: string): AcceptancePaths {
  const root = join(commonDir, 'discern');
  return {
    commonDir,
    submissions: join(root, 'submissions'),
    grants: join(root, 'grants'),
    transactions: join(root, 'acceptance'),
    integration: join(root, 'integration'),
  };
}

function fileFor(dir: string, effort: string): string {
  return join(dir, `${effort}.json`);
}

type Kind = 'submission' | 'grant' | 'transaction';

/**
 * One record through the sealed reader: a damaged, hand-written or copied one reads as absent, and the call's
 * result says so. A transaction is read even unsealed: its recovery only completes or rolls back what it names,
 * checked against git, and never starts a landing.
 */
function readOne<K extends Kind>(
  kind: K,
  paths: AcceptancePaths,
  dir: string,
  effort: string,
): Promise<StateRecords[K] | undefined> {
  return sealedRecordOrUndefined(
    kind,
    fileFor(dir, effort),
    paths.commonDir,
    kind === 'transaction' ? { unsealed: 'honour' } : {},
  );
}

async function readAll<K extends Kind>(kind: K, paths: AcceptancePaths, dir: string): Promise<StateRecords[K][]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const out: StateRecords[K][] = [];
  for (const name of names.filter((n) => n.endsWith('.json') && !isTempName(n)).sort()) {
    const value = await readOne(kind, paths, dir, name.slice(0, -'.json'.length));
    if (value !== undefined) out.push(value);
  }
  return out;
}

function write(kind: Kind, paths: AcceptancePaths, dir: string, effort: string, value: object): Promise<void> {
  return writeSealed(kind, fileFor(dir, effort), value, paths.commonDir);
}

function remove(dir: string, effort: string): Promise<void> {
  return rm(fileFor(dir, effort), { force: true });
}

export const submissions = {
  read: (paths: AcceptancePaths, effort: string) => readOne('submission', paths, paths.submissions, effort),
  all: (paths: AcceptancePaths) => readAll('submission', paths, paths.submissions),
  write: (paths: AcceptancePaths, s: Submission) => write('submission', paths, paths.submissions, s.effort, s),
  remove: (paths: AcceptancePaths, effort: string) => remove(paths.submissions, effort),
};

export const grants = {
  read: (paths: AcceptancePaths, effort: string) => readOne('grant', paths, paths.grants, effort),
  all: (paths: AcceptancePaths) => readAll('grant', paths, paths.grants),
  write: (paths: AcceptancePaths, g: Grant) => write('grant', paths, paths.grants, g.effort, g),
  remove: (paths: AcceptancePaths, effort: string) => remove(paths.grants, effort),
};

export const transactions = {
  read: (paths: AcceptancePaths, effort: string) => readOne('transaction', paths, paths.transactions, effort),
  all: (paths: AcceptancePaths) => readAll('transaction', paths, paths.transactions),
  write: (paths: AcceptancePaths, t: Transaction) => write('transaction', paths, paths.transactions, t.effort, t),
  remove: (paths: AcceptancePaths, effort: string) => remove(paths.transactions, effort),
};

export type UnhonouredRecord = DiscernUnhonouredRecord;

/** The one command that replaces an unhonoured record with an honoured one. */
export function unhonouredCommand(kind: UnhonouredRecord['kind'], effort: string): string {
  return kind === 'grant' ? `discern accept ${effort} --grant` : `discern accept ${effort} --action queue`;
}

/**
 * The grant and submission files on disk that the sealed reader does not honour: each has the shape of its kind
 * but no MAC (an earlier discern wrote it, before records were sealed) or one that does not hold (copied or
 * edited). Listed so status, the queue and the desk can say so with the command that fixes it; never honoured
 * here. A file that is not such a record at all is left to the state-record-skipped advisory.
 */
export async function unhonoured(paths: AcceptancePaths): Promise<UnhonouredRecord[]> {
  return (await unhonouredRecords(paths)).map((r) => r.record);
}

/** unhonoured() with each file's content, for the queue's rows (read, shown, never honoured). */
export async function unhonouredRecords(
  paths: AcceptancePaths,
): Promise<{ record: UnhonouredRecord; value: Grant | Submission }[]> {
  const key = await existingRepositoryKey(paths.commonDir);
  const out: { record: UnhonouredRecord; value: Grant | Submission }[] = [];
  for (const [kind, dir] of [
    ['grant', paths.grants],
    ['submission', paths.submissions],
  ] as const) {
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names.filter((n) => n.endsWith('.json') && !isTempName(n)).sort()) {
      const path = join(dir, name);
      const read = await readJsonFile(path);
      if (!read.ok) continue;
      const checked = await checkStateValue(kind, read.value, path);
      if (!checked.ok) continue;
      if (key !== undefined && sealHolds(kind, checked.value, key)) continue;
      const effort = checked.value.effort;
      const unsealed = (checked.value as { mac?: unknown }).mac === undefined;
      out.push({
        record: {
          kind,
          effort,
          path,
          why: unsealed ? 'unsealed' : 'seal_broken',
          message: unsealed
            ? 'written by an earlier discern, not honoured'
            : 'its seal does not hold (copied or edited), not honoured',
          command: unhonouredCommand(kind, effort),
        },
        value: checked.value,
      });
    }
  }
  return out;
}
