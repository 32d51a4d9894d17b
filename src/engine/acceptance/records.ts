// What acceptance keeps under the git common dir, so it outlives the worktree it describes: submissions (the
// landing queue), the owner's effort grants, and acceptance transactions (an interrupted landing is finished
// or rolled back by the next call). One JSON file per effort in each directory, written atomically.
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { DiscernAcceptanceStep, DiscernProofSummary } from '../../../generated/types.js';
import { readJsonFile, writeFileAtomic } from '../state/atomic-write.js';

export const RECORD_FORMAT = 1;

export interface Submission {
  format: typeof RECORD_FORMAT;
  submission_id: string;
  effort: string;
  branch: string;
  path: string;
  head: string;
  submitted_at: string;
  /** A walk tried to land this exact head and could not: the walk skips it until the head changes. */
  last_failure?: { head: string; reason: string; at: string };
}

export interface Grant {
  format: typeof RECORD_FORMAT;
  effort: string;
  branch: string;
  granted_at: string;
}

/** The named steps of a landing, in order (spec/vocabularies.yaml acceptance_step); the file says how far it got. */
export type TransactionStep = DiscernAcceptanceStep;

export interface Transaction {
  format: typeof RECORD_FORMAT;
  effort: string;
  branch: string;
  path: string;
  head: string;
  trunk: string;
  /** The trunk's tip when the landing began: the compare-and-swap base. */
  trunk_before: string;
  /** The commit that lands: head (fast-forward) or the composed merge. */
  landing?: string;
  integration?: { path: string; branch: string };
  step: TransactionStep;
  started_at: string;
  consent: { source: string; scopes?: string[] };
  proof_line?: string;
  /** The Proof of the landing commit, kept so a resumed landing can write its note. */
  proof?: DiscernProofSummary;
  /** The owner's variances for unmet stop checkpoints, for the landing's Proof note. */
  variances?: { checkpoint: string; definition_hash: string; subject: string; why: string }[];
}

export interface AcceptancePaths {
  submissions: string;
  grants: string;
  transactions: string;
  integration: string;
}

export function acceptancePaths(commonDir: string): AcceptancePaths {
  const root = join(commonDir, 'discern');
  return {
    submissions: join(root, 'submissions'),
    grants: join(root, 'grants'),
    transactions: join(root, 'acceptance'),
    integration: join(root, 'integration'),
  };
}

function fileFor(dir: string, effort: string): string {
  return join(dir, `${effort}.json`);
}

async function readOne<T extends { format: number }>(dir: string, effort: string): Promise<T | undefined> {
  const read = await readJsonFile<T>(fileFor(dir, effort));
  return read.ok && typeof read.value === 'object' && read.value !== null && read.value.format === RECORD_FORMAT
    ? read.value
    : undefined;
}

async function readAll<T extends { format: number }>(dir: string): Promise<T[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const out: T[] = [];
  for (const name of names.filter((n) => n.endsWith('.json')).sort()) {
    const value = await readOne<T>(dir, name.slice(0, -'.json'.length));
    if (value !== undefined) out.push(value);
  }
  return out;
}

function write(dir: string, effort: string, value: object): Promise<void> {
  return writeFileAtomic(fileFor(dir, effort), `${JSON.stringify(value, null, 2)}\n`);
}

function remove(dir: string, effort: string): Promise<void> {
  return rm(fileFor(dir, effort), { force: true });
}

export const submissions = {
  read: (paths: AcceptancePaths, effort: string) => readOne<Submission>(paths.submissions, effort),
  all: (paths: AcceptancePaths) => readAll<Submission>(paths.submissions),
  write: (paths: AcceptancePaths, s: Submission) => write(paths.submissions, s.effort, s),
  remove: (paths: AcceptancePaths, effort: string) => remove(paths.submissions, effort),
};

export const grants = {
  read: (paths: AcceptancePaths, effort: string) => readOne<Grant>(paths.grants, effort),
  all: (paths: AcceptancePaths) => readAll<Grant>(paths.grants),
  write: (paths: AcceptancePaths, g: Grant) => write(paths.grants, g.effort, g),
  remove: (paths: AcceptancePaths, effort: string) => remove(paths.grants, effort),
};

export const transactions = {
  read: (paths: AcceptancePaths, effort: string) => readOne<Transaction>(paths.transactions, effort),
  all: (paths: AcceptancePaths) => readAll<Transaction>(paths.transactions),
  write: (paths: AcceptancePaths, t: Transaction) => write(paths.transactions, t.effort, t),
  remove: (paths: AcceptancePaths, effort: string) => remove(paths.transactions, effort),
};
