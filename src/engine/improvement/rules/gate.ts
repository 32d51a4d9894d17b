// The gate category: whether the gate checks what a project needs checked, is green on this commit, bounds
// its jobs, tells code from neutral paths, and mostly passes when it runs.
import { DEFAULT_GATE_TIMEOUT_S } from '../../config/gate-settings.js';
import { accountedFor, knownJobAccounts, type KnownJobName } from '../../config/job-accounting.js';
import { configuredJobs, KNOWN_JOB_STAGES, type JobStage } from '../../config/jobs.js';
import type { Category, Facts, Rule, Verdict } from '../types.js';
import { count, listed, verdict } from '../verdict.js';

/** The known jobs every project is asked about: formatting, lint, type checking and tests. */
const EXPECTED: readonly { name: KnownJobName; stage: JobStage }[] = [
  { name: 'format', stage: 'fix' },
  { name: 'lint', stage: 'check' },
  { name: 'typecheck', stage: 'check' },
  { name: 'test', stage: 'test' },
];

/** A job past this share of its timeout is one slow day from being killed. */
const NEAR_TIMEOUT = 0.5;
/** The journal keeps 7 days; past this failure share the gate is more often red than a working loop allows. */
const FAILURE_SHARE_PARTIAL = 0.25;
const FAILURE_SHARE_FAIL = 0.5;
const GATE_VERBS = new Set(['done', 'prepare', 'test']);
/** Fewer finished runs than this are not a trend: at worst partial (gate.green-head judges the last one). */
const TREND_RUNS = 4;

export interface StageCoverage {
  configured: string[];
  declared: string[];
  /** Known names a custom job provides (`provides`), as "test (by pytest)". */
  custom: string[];
  missing: string[];
  /** For a missing name, a custom job of its stage that could say `provides` for it. */
  candidates: Map<string, string>;
}

/** Which of the expected jobs the configuration accounts for, and how (job-accounting.ts). Pure. */
export function stageCoverage(facts: Facts): StageCoverage {
  const accounts = knownJobAccounts(facts.config);
  const coverage: StageCoverage = { configured: [], declared: [], custom: [], missing: [], candidates: new Map() };
  for (const expected of EXPECTED) {
    const account = accounts.find((a) => a.name === expected.name);
    if (account === undefined || !accountedFor(account)) {
      coverage.missing.push(expected.name);
      // A custom job of the same stage may be this job under another name; it counts once it says so.
      const candidate = configuredJobs(facts.config).find(
        (j) => j.stage === expected.stage && KNOWN_JOB_STAGES[j.name] === undefined && j.commands.length > 0,
      );
      if (candidate !== undefined) coverage.candidates.set(expected.name, candidate.name);
    } else if (account.provided_by !== undefined && account.wired)
      coverage.custom.push(`${expected.name} (by ${account.provided_by})`);
    else if (account.wired) coverage.configured.push(expected.name);
    // An empty or ':' command, or [assurance] not_applicable: a deliberate declaration.
    else coverage.declared.push(expected.name);
  }
  return coverage;
}

const stages: Rule = {
  id: 'gate.stages',
  title: 'The gate formats, lints, type-checks and tests, or says which of them do not apply',
  severity: 3,
  kind: 'decide',
  evaluate(facts) {
    const c = stageCoverage(facts);
    const covered = EXPECTED.length - c.missing.length;
    const how = [
      c.configured.length > 0 ? `configured: ${c.configured.join(', ')}` : undefined,
      c.declared.length > 0 ? `declared not to apply: ${c.declared.join(', ')}` : undefined,
      c.custom.length > 0 ? `provided by custom jobs: ${c.custom.join(', ')}` : undefined,
      c.missing.length > 0 ? `missing: ${c.missing.join(', ')}` : undefined,
    ].filter(Boolean);
    const status = c.missing.length === 0 ? 'pass' : covered >= 2 ? 'partial' : 'fail';
    const first = c.missing[0] ?? 'test';
    const add = `Add the missing job${c.missing.length === 1 ? '' : 's'} (${c.missing.join(', ')}) with \`discern config set-job ${first} "<command>"\`, or list ${c.missing.length === 1 ? 'it' : 'those that do not apply'} in [assurance] not_applicable.`;
    // A custom job of a missing job's stage is named first: it may be that job under another name.
    const named = c.missing.find((m) => c.candidates.has(m));
    const fix =
      named !== undefined
        ? `If the custom job ${c.candidates.get(named) ?? ''} is the project's ${named}, say so with \`provides = ["${named}"]\` under [jobs.${c.candidates.get(named) ?? ''}]. ${add}`
        : add;
    return verdict(status, `${covered} of ${EXPECTED.length} expected jobs covered (${how.join('; ')}).`, {
      read: [`${facts.configFile} [jobs] and [assurance]`],
      counts: { covered, missing: c.missing.length },
      fix,
      against: facts.configFile,
    });
  },
};

const greenHead: Rule = {
  id: 'gate.green-head',
  title: 'The last gate run on this commit was green',
  severity: 3,
  kind: 'fix',
  evaluate(facts) {
    const { proof, lastRun } = facts.gate;
    const head = facts.head.commit;
    const read = facts.gate.read;
    const fix = 'Run `discern done` on the committed tip (MCP: discern_done) and fix what it reports.';
    if (head === null)
      return verdict('fail', 'HEAD has no commit yet, so nothing can be proven.', {
        read,
        fix: 'Commit the project, then run `discern done`.',
      });
    const short = head.slice(0, 12);
    if (lastRun && lastRun.commit === head && lastRun.verdict === 'red') {
      return verdict(
        'fail',
        `The last gate run on HEAD ${short} (${lastRun.at}) was red${lastRun.failed_stage ? ` at stage ${lastRun.failed_stage}` : ''}.`,
        { read, fix, against: 'HEAD' },
      );
    }
    if (proof.state === 'present' && proof.commit === head) {
      if (proof.current_config === false)
        return verdict(
          'partial',
          `Proof for HEAD ${short} was recorded under another discern.toml or discern version, so it no longer stands.`,
          { read, fix, against: 'HEAD' },
        );
      if (!facts.head.clean)
        return verdict(
          'partial',
          `Proof for HEAD ${short} was recorded (${proof.recorded_at ?? 'time unknown'}), but the worktree has uncommitted changes since.`,
          { read, fix: 'Commit or discard the uncommitted changes, then run `discern done`.', against: 'HEAD' },
        );
      return verdict('pass', `Proof for HEAD ${short} was recorded at ${proof.recorded_at ?? 'an unknown time'}.`, {
        read,
      });
    }
    if (lastRun && lastRun.commit === head && lastRun.verdict === 'green')
      return verdict('pass', `The last gate run on HEAD ${short} (${lastRun.at}) was green.`, { read });
    if (proof.state === 'unreadable')
      return verdict('fail', 'The Proof marker cannot be read, so no green run on HEAD is known.', { read, fix });
    // A landing's gate ran where accept ran it (the effort's worktree, or an integration worktree for a composed
    // commit): its Proof note on HEAD is that run, though this checkout's marker knows nothing of it.
    const landing = facts.gate.landing;
    if (landing !== undefined && landing.commit === head)
      return verdict('pass', `HEAD ${short} is a landing, and its Proof note records the gate run: ${landing.line}`, {
        read,
      });
    const older =
      proof.state === 'present'
        ? `Proof is for an older commit (${(proof.commit ?? '').slice(0, 12)}, ${proof.recorded_at ?? ''})`
        : lastRun
          ? `the last run was on an older commit (${lastRun.commit.slice(0, 12)}, ${lastRun.verdict})`
          : undefined;
    if (older) return verdict('partial', `No gate run on HEAD ${short}: ${older}.`, { read, fix, against: 'HEAD' });
    return verdict('fail', `No gate run is recorded in this checkout (HEAD ${short}).`, { read, fix, against: 'HEAD' });
  },
};

const timeouts: Rule = {
  id: 'gate.timeouts',
  title: 'Every job has a bounded timeout with room to spare',
  severity: 2,
  kind: 'fix',
  evaluate(facts) {
    const jobs = configuredJobs(facts.config).filter((j) => j.commands.length > 0);
    const gateTimeout = facts.config.gate?.timeout ?? DEFAULT_GATE_TIMEOUT_S;
    const durations = new Map((facts.gate.proof.producers ?? []).map((p) => [p.label, p.duration_ms]));
    const unbounded: string[] = [];
    const near: string[] = [];
    for (const job of jobs) {
      const limit = job.timeout ?? gateTimeout;
      if (limit === 0) {
        unbounded.push(job.name);
        continue;
      }
      const took = durations.get(job.name);
      if (took !== undefined && took / 1000 > limit * NEAR_TIMEOUT)
        near.push(`${job.name} took ${Math.round(took / 1000)} s of ${limit} s`);
    }
    const read = [
      `${facts.configFile} [jobs] and [gate] timeout`,
      ...(durations.size > 0 ? ['durations in the Proof marker'] : []),
    ];
    const counts = { jobs: jobs.length, unbounded: unbounded.length, near_timeout: near.length, timed: durations.size };
    const problems = [
      unbounded.length > 0 ? `no timeout: ${unbounded.join(', ')}` : undefined,
      near.length > 0 ? `over half their timeout: ${listed(near)}` : undefined,
    ].filter(Boolean);
    if (jobs.length === 0)
      return verdict('fail', 'No job is configured, so the gate runs nothing.', {
        read,
        counts,
        fix: "Configure the gate's jobs first (`gate.stages`).",
        against: facts.configFile,
      });
    const durationNote =
      durations.size > 0 ? ` against the durations of the last Proof` : ' (no recorded durations yet)';
    if (problems.length === 0)
      return verdict(
        'pass',
        `${count(jobs.length, 'job')} bounded by ${gateTimeout} s or their own timeout${durationNote}.`,
        { read, counts },
      );
    const culprit = unbounded[0] ?? near[0]?.split(' ')[0] ?? '';
    return verdict(unbounded.length === jobs.length ? 'fail' : 'partial', `${problems.join('; ')}.`, {
      read,
      counts,
      fix: `Give ${culprit} a timeout with room to spare: in discern.toml write \`${culprit} = { run = "…", timeout = <seconds> }\` under [jobs] (0 means no limit, so a hung job never stops).`,
      against: facts.configFile,
    });
  },
};

const scopes: Rule = {
  id: 'gate.scopes',
  title: 'Scopes tell code from neutral paths',
  severity: 1,
  kind: 'decide',
  evaluate(facts) {
    const all = Object.entries(facts.config.scopes ?? {}).filter(([, s]) => s !== undefined);
    const neutral = all.filter(([, s]) => s?.neutral === true).map(([n]) => n);
    const code = all.filter(([, s]) => s?.neutral !== true).map(([n]) => n);
    const gated = all.filter(([, s]) => s?.gate !== undefined).map(([n]) => n);
    const read = [`${facts.configFile} [scopes]`];
    const counts = { scopes: all.length, neutral: neutral.length, code: code.length, scope_gates: gated.length };
    const fix =
      neutral.length === 0
        ? 'Declare the paths that need no gate, e.g. `discern config set scopes.docs.paths \'["docs/**", "*.md"]\'` and `discern config set scopes.docs.neutral true`.'
        : 'Name the code areas too, e.g. `discern config set scopes.src.paths \'["src/**"]\'`, so impact and landing authority can tell them apart.';
    if (all.length === 0)
      return verdict(
        'fail',
        'No [scopes]: every change counts as code, so a documentation change needs the full gate and the owner.',
        { read, counts, fix, against: facts.configFile },
      );
    const detail = `${count(all.length, 'scope')}: neutral ${neutral.length > 0 ? neutral.join(', ') : 'none'}; code ${code.length > 0 ? code.join(', ') : 'none'}${gated.length > 0 ? `; with their own gate: ${gated.join(', ')}` : ''}.`;
    return verdict(neutral.length > 0 && code.length > 0 ? 'pass' : 'partial', detail, {
      read,
      counts,
      fix,
      against: facts.configFile,
    });
  },
};

const journal: Rule = {
  id: 'gate.journal',
  title: 'Recent gate runs mostly pass and none died unfinished',
  severity: 1,
  kind: 'review',
  evaluate(facts) {
    const ops = facts.gate.operations.filter((o) => GATE_VERBS.has(o.verb));
    const finished = ops.filter((o) => o.outcome !== undefined);
    const failed = finished.filter((o) => o.outcome === 'failed');
    const abandoned = ops.filter((o) => o.abandoned);
    const read = ['the operations journal (last 7 days)'];
    const counts = { runs: ops.length, finished: finished.length, failed: failed.length, abandoned: abandoned.length };
    if (ops.length === 0) return verdict('pass', "No gate runs in the journal's window (7 days).", { read, counts });
    const share = finished.length === 0 ? 0 : failed.length / finished.length;
    const reviews = [
      ...abandoned.slice(0, 3).map((o) => ({
        subject: `${o.verb} ${o.handle}`,
        reason: `started ${o.started_at} and its process died before it finished`,
      })),
      ...failed
        .slice(-3)
        .map((o) => ({ subject: `${o.verb} ${o.handle}`, reason: `failed (started ${o.started_at})` })),
    ];
    const detail = `${failed.length} of ${count(finished.length, 'finished gate run')} failed${abandoned.length > 0 ? `; ${abandoned.length} died unfinished` : ''}.`;
    const handle = (abandoned[0] ?? failed[failed.length - 1])?.handle ?? '';
    const status: Verdict['status'] =
      share > FAILURE_SHARE_FAIL && finished.length >= TREND_RUNS
        ? 'fail'
        : share > FAILURE_SHARE_PARTIAL || abandoned.length > 0
          ? 'partial'
          : 'pass';
    return verdict(status, detail, {
      read,
      counts,
      reviews: status === 'pass' ? [] : reviews,
      fix: `Read what keeps failing with \`discern progress ${handle}\` and fix its cause (a flaky test, a slow job, a missing tool).`,
      against: handle,
    });
  },
};

export const GATE: Category = {
  name: 'gate',
  title: 'Gate',
  weight: 3,
  rules: [stages, greenHead, timeouts, scopes, journal],
};
