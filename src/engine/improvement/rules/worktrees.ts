// The worktrees category: no worktree git still lists is broken, no effort sits unlanded for weeks, and the
// landing queue moves (no interrupted landing, no submission waiting for days).
import type { Category, Rule } from '../types.js';
import { count, daysBetween, listed, verdict } from '../verdict.js';

/** An effort branch untouched this long and not on the trunk is probably forgotten. */
export const STALE_EFFORT_DAYS = 14;
/** A submission waiting this long is waiting for someone who does not know. */
export const WAITING_SUBMISSION_DAYS = 3;

const healthy: Rule = {
  id: 'worktrees.healthy',
  title: 'No worktree git lists is broken',
  severity: 3,
  kind: 'fix',
  evaluate(facts) {
    const w = facts.worktrees;
    const broken = w.linked.filter((l) => l.broken !== undefined);
    const read = ['git worktree list'];
    const counts = {
      linked: w.linked.length,
      broken: broken.length,
      locked: w.linked.filter((l) => l.locked !== undefined).length,
    };
    if (broken.length === 0)
      return verdict('pass', `${count(w.linked.length, 'linked worktree')}, none broken.`, { read, counts });
    return verdict(
      'fail',
      `${count(broken.length, 'broken worktree')}: ${listed(
        broken.map((b) => `${b.path} (${b.broken ?? ''})`),
        2,
      )}.`,
      {
        read,
        counts,
        fix: 'Run `discern worktree prune` to forget worktrees whose directories are gone.',
        against: broken[0]?.path ?? '',
      },
    );
  },
};

const staleEfforts: Rule = {
  id: 'worktrees.stale-efforts',
  title: `No effort sits unlanded for more than ${STALE_EFFORT_DAYS} days`,
  severity: 2,
  kind: 'review',
  evaluate(facts) {
    const w = facts.worktrees;
    const prefix = facts.config.repository?.branch_prefix ?? 'agent/';
    const read = [`branches under ${prefix} not merged into ${facts.trunk}`];
    const aged = w.unlanded
      .map((b) => ({ ...b, days: daysBetween(b.committed_at * 1000, facts.now) }))
      .filter((b) => b.days > STALE_EFFORT_DAYS)
      .sort((a, b) => b.days - a.days || (a.branch < b.branch ? -1 : 1));
    const counts = { unlanded: w.unlanded.length, stale: aged.length };
    if (aged.length === 0)
      return verdict(
        'pass',
        `${count(w.unlanded.length, 'unlanded effort branch', 'unlanded effort branches')}, none older than ${STALE_EFFORT_DAYS} days.`,
        { read, counts },
      );
    const first = aged[0]?.branch ?? '';
    const id = first.startsWith(prefix) ? first.slice(prefix.length) : first;
    return verdict(
      aged.length * 2 > w.unlanded.length ? 'fail' : 'partial',
      `${count(aged.length, 'effort branch', 'effort branches')} unlanded and untouched for over ${STALE_EFFORT_DAYS} days: ${listed(aged.map((b) => `${b.branch} (${b.days} days)`))}.`,
      {
        read,
        counts,
        reviews: aged.map((b) => ({
          subject: `branch ${b.branch}`,
          reason: `last commit ${b.days} days ago, not on ${facts.trunk}`,
        })),
        fix: `Decide on ${first}: land it (\`discern accept ${id}\`) or drop it (\`discern worktree drop ${id}\`).`,
        against: first,
      },
    );
  },
};

const queue: Rule = {
  id: 'worktrees.queue',
  title: 'The landing queue moves: no interrupted landing, no submission waiting for days',
  severity: 2,
  kind: 'review',
  evaluate(facts) {
    const w = facts.worktrees;
    const read = ['<git-common-dir>/discern/submissions', '<git-common-dir>/discern/acceptance'];
    const interrupted = w.accept_running ? [] : w.transactions;
    const waiting = w.submissions
      .map((s) => ({ ...s, days: daysBetween(Date.parse(s.submitted_at), facts.now) }))
      .filter((s) => s.days >= WAITING_SUBMISSION_DAYS || s.failure !== undefined);
    const counts = { submissions: w.submissions.length, waiting: waiting.length, interrupted: interrupted.length };
    const reviews = [
      ...interrupted.map((t) => ({
        subject: `landing of ${t.effort}`,
        reason: `began ${t.started_at} and stopped at ${t.step}`,
      })),
      ...waiting.map((s) => ({
        subject: `submission ${s.effort}`,
        reason: s.failure !== undefined ? `its last landing attempt failed: ${s.failure}` : `waiting ${s.days} days`,
      })),
    ];
    if (interrupted.length > 0) {
      const t = interrupted[0];
      return verdict(
        'fail',
        `${count(interrupted.length, 'landing')} began and did not finish: ${listed(interrupted.map((x) => `${x.effort} (stopped at ${x.step})`))}.`,
        {
          read,
          counts,
          reviews,
          fix: `Run \`discern accept ${t?.effort ?? ''}\` again: the next call finishes or rolls back an interrupted landing.`,
          against: t?.effort ?? '',
        },
      );
    }
    if (waiting.length > 0) {
      const s = waiting[0];
      return verdict(
        'partial',
        `${count(waiting.length, 'submission')} stuck: ${listed(waiting.map((x) => (x.failure !== undefined ? `${x.effort} (failed: ${x.failure})` : `${x.effort} (${x.days} days)`)))}.`,
        {
          read,
          counts,
          reviews,
          fix: `Read the queue with \`discern accept --dry-run\`, then land ${s?.effort ?? 'it'} or tell its author why not.`,
          against: s?.effort ?? '',
        },
      );
    }
    return verdict(
      'pass',
      `${count(w.submissions.length, 'submission')} queued, none waiting ${WAITING_SUBMISSION_DAYS} days or more; no interrupted landing.`,
      { read, counts },
    );
  },
};

export const WORKTREES: Category = {
  name: 'worktrees',
  title: 'Worktrees and landing',
  weight: 1,
  rules: [healthy, staleEfforts, queue],
};
