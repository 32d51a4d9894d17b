// How each known job (format, build, lint, typecheck, test, smoke) is accounted for: configured under its own
// name, provided by a custom job (`[jobs.<name>] provides`), or declared not to apply (`[assurance]
// not_applicable`). Every reader that asks "does this project have its test?" asks here, so a provider counts
// everywhere at once. The rules the schema cannot state are here too: one job per known name, and a provider's
// stage is the stage of what it provides. Pure.
import type { DiscernConfig, DiscernConfigKnownJobName } from '../../../generated/types.js';
import { commandList } from './commands.js';
import { KNOWN_JOB_STAGES } from './jobs.js';

export type KnownJobName = DiscernConfigKnownJobName;

export const KNOWN_JOB_NAMES: readonly KnownJobName[] = ['format', 'build', 'lint', 'typecheck', 'test', 'smoke'];

export interface KnownJobAccount {
  name: KnownJobName;
  /** A job with at least one command runs for it (its own, or its provider's). */
  wired: boolean;
  /** The custom job that provides it. */
  provided_by?: string;
  /** Configured with nothing to run (`:` or an empty list): a deliberate "nothing here". */
  empty: boolean;
  /** Listed in [assurance] not_applicable. */
  not_applicable: boolean;
}

/** Each known name, in the order above, with how the configuration accounts for it. */
export function knownJobAccounts(config: DiscernConfig): KnownJobAccount[] {
  const jobs = config.jobs ?? {};
  const notApplicable = new Set(config.assurance?.not_applicable ?? []);
  const providers = providersOf(config);
  return KNOWN_JOB_NAMES.map((name) => {
    const provider = providers.get(name)?.[0];
    const value = provider !== undefined ? jobs[provider] : jobs[name];
    const configured = value !== undefined;
    const run = value === undefined ? undefined : typeof value === 'string' || Array.isArray(value) ? value : value.run;
    const commands = commandList(run);
    return {
      name,
      wired: commands.length > 0,
      ...(provider !== undefined ? { provided_by: provider } : {}),
      empty: configured && commands.length === 0,
      not_applicable: notApplicable.has(name),
    };
  });
}

/** Whether the configuration says something of the name: a job for it (even an empty one), or not_applicable. */
export function accountedFor(account: KnownJobAccount): boolean {
  return account.wired || account.empty || account.not_applicable;
}

/** The known names each custom job provides, by name, in file order. */
function providersOf(config: DiscernConfig): Map<KnownJobName, string[]> {
  const providers = new Map<KnownJobName, string[]>();
  for (const [job, value] of Object.entries(config.jobs ?? {})) {
    if (value === undefined || typeof value !== 'object' || Array.isArray(value) || !('stage' in value)) continue;
    for (const name of value.provides ?? []) providers.set(name, [...(providers.get(name) ?? []), job]);
  }
  return providers;
}

/** What the schema cannot say about job accounting, each at the key to change. */
export interface AccountingIssue {
  keys: string[];
  message: string;
}

export function jobAccountingIssues(config: DiscernConfig): AccountingIssue[] {
  const jobs = config.jobs ?? {};
  const issues: AccountingIssue[] = [];
  const providedBy = new Map<string, string>();
  for (const [job, value] of Object.entries(jobs)) {
    if (value === undefined || typeof value !== 'object' || Array.isArray(value) || !('stage' in value)) continue;
    (value.provides ?? []).forEach((name, index) => {
      const keys = ['jobs', job, 'provides', String(index)];
      const stage = KNOWN_JOB_STAGES[name];
      if (jobs[name] !== undefined)
        issues.push({
          keys,
          message: `names ${name}, which \`jobs.${name}\` also configures: one job is the project's ${name}, so remove one of the two`,
        });
      else if (providedBy.has(name))
        issues.push({
          keys,
          message: `names ${name}, which \`jobs.${providedBy.get(name) ?? ''}.provides\` names too: only one job can provide ${name}`,
        });
      else if (stage !== value.stage)
        issues.push({
          keys,
          message: `names ${name}, a ${stage ?? ''}-stage job, but \`jobs.${job}.stage\` is ${value.stage}: a job provides only known jobs of its own stage`,
        });
      if (!providedBy.has(name)) providedBy.set(name, job);
    });
  }
  (config.assurance?.not_applicable ?? []).forEach((name, index) => {
    const keys = ['assurance', 'not_applicable', String(index)];
    const provider = providedBy.get(name);
    if (jobs[name] !== undefined)
      issues.push({
        keys,
        message: `names ${name}, which \`jobs.${name}\` configures: a job that is configured applies, so remove one of the two`,
      });
    else if (provider !== undefined)
      issues.push({
        keys,
        message: `names ${name}, which \`jobs.${provider}.provides\` provides: a job that is provided applies, so remove one of the two`,
      });
  });
  return issues;
}

/** status's setup_unfinished rows: each known job, whether it is wired and how it is accounted for. */
export function knownJobsReport(config: DiscernConfig): {
  known_jobs: { name: string; wired: boolean; provided_by?: string; not_applicable?: boolean }[];
  assurance?: { not_applicable: string[] };
} {
  const notApplicable = config.assurance?.not_applicable;
  return {
    known_jobs: knownJobAccounts(config).map((a) => ({
      name: a.name,
      wired: a.wired,
      ...(a.provided_by !== undefined ? { provided_by: a.provided_by } : {}),
      ...(a.not_applicable ? { not_applicable: true } : {}),
    })),
    ...(notApplicable !== undefined ? { assurance: { not_applicable: [...notApplicable] } } : {}),
  };
}
