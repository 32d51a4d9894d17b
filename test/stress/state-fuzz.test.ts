// Every private state record discern keeps, corrupted every way a crash, a disk or a hand can: empty, torn,
// not an object, a required field missing, a field of the wrong type. Each corrupted repository is read by every
// verb that reads that record; none may crash or break its result contract (call() checks the schema), and the
// verbs that read the record say they skipped it. A printed seed replays a failure.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { VerbId } from '../../generated/registry.js';
import { STATE_VALIDATORS } from '../../generated/state-validators.js';
import type { StateKind } from '../../src/engine/state/state-record.js';
import { call } from '../helpers/drive.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { effort, trackedRepo, type Work } from '../helpers/efforts.js';
import type { ScratchRepo } from '../helpers/scratch-repo.js';
import { sized } from '../helpers/test-size.js';

const SEED = Number.parseInt(process.env['DISCERN_FUZZ_SEED'] ?? '', 10) || 20261202;
/** Corrupted repositories: 28 bounded, 240 full (test/helpers/test-size.ts); DISCERN_FUZZ_RUNS overrides. */
const RUNS = sized('DISCERN_FUZZ_RUNS', { bounded: 28, full: 240 });

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

interface Subject {
  kind: StateKind;
  file: string;
  /** The verbs that read this record, with their input and where they run. */
  readers: { verb: VerbId; input: Record<string, unknown>; at: string; reports: boolean }[];
}

let r: ScratchRepo;
let queued: Work;
let subjects: Subject[];

before(async () => {
  r = trackedRepo(repos);
  queued = await effort(r, 'queued', 'queued.txt', 'q\n');
  assert.equal((await call('accept', {}, queued.path)).error, 'awaiting_consent');
  const common = join(r.root, '.git');
  const grant = join(common, 'discern', 'grants', 'queued.json');
  mkdirSync(dirname(grant), { recursive: true });
  writeFileSync(
    grant,
    `${JSON.stringify({ format: 1, effort: 'queued', branch: 'agent/queued', granted_at: new Date().toISOString() })}\n`,
  );
  const composition = join(common, 'discern', 'compositions', 'queued.json');
  mkdirSync(dirname(composition), { recursive: true });
  const head = queued.git('rev-parse', 'HEAD').trim();
  writeFileSync(
    composition,
    `${JSON.stringify({
      format: 1,
      receipt: 'C-0000',
      effort: 'queued',
      branch: 'agent/queued',
      head,
      trunk_tip: r.git('rev-parse', 'main').trim(),
      commit: head,
      integration: { path: join(common, 'discern', 'integration', 'queued'), branch: 'discern/integration/queued' },
      questions: [],
      created_at: new Date().toISOString(),
    })}\n`,
  );
  // The records a proven effort leaves (its Proof marker, last run, evidence, the journal's operations), and
  // the rest copied from what the previous version wrote (test/fixtures/state), each where discern keeps it.
  const own = join(common, 'worktrees', 'queued', 'discern');
  const fixture = (kind: string, file: string): string =>
    readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'state', '0.1.0-0c6e7ff', kind, file), 'utf8');
  const place = (path: string, text: string): string => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    return path;
  };
  const evidence = join(common, 'discern', 'evidence', readdirSync(join(common, 'discern', 'evidence'))[0] ?? '');
  const operations = join(common, 'discern', 'operations');
  const operation = join(operations, readdirSync(operations).find((n) => /^R1-[^.]+\.json$/.test(n)) ?? '');
  const wait = await call('await', { landed: 'queued', timeout: 0 }, r.root);
  const resume = (wait.data as { resume?: string } | undefined)?.resume ?? '';
  const continuation = join(common, 'discern', 'continuations', `${resume}.json`);
  // An accepted setup gates nothing, so the other subjects' verbs answer as they would without it.
  const setupState = JSON.parse(fixture('setup', 'begun.json')) as Record<string, unknown>;
  const setup = place(
    join(common, 'discern', 'setup.json'),
    `${JSON.stringify({ ...setupState, phase: 'accepted', accepted: { commit: head, at: new Date().toISOString() } })}\n`,
  );
  const emergency = place(
    join(common, 'discern', 'emergency', 'E-628087d1ec5c.json'),
    fixture('emergency-transaction', 'completed.json'),
  );
  const questions = place(join(own, 'checkpoint-open-questions'), fixture('checkpoint-questions', 'declared-met.json'));
  const measurements = place(
    join(own, 'standard-measurements.json'),
    fixture('standard-measurements', 'coverage.json'),
  );
  const proposals = place(join(own, 'standard-limit-proposals.json'), fixture('standard-proposals', 'coverage.json'));
  // A landing of another effort left at its last step (improvement lists open transactions), and the refresh
  // ledger as this version writes it.
  const transaction = place(
    join(common, 'discern', 'acceptance', 'landing.json'),
    fixture('transaction', 'landing.json'),
  );
  const ledger = place(
    join(common, 'discern', 'refresh-ownership.json'),
    `${JSON.stringify({ format: 1, entries: { 'CLAUDE.md#region:instructions': ['0'.repeat(64)] } })}\n`,
  );
  const status = { verb: 'status' as const, input: {}, at: r.root, reports: true };
  // done rewrites what it reads (a new Proof marker, last run, evidence): always the last reader of a record.
  const done = { verb: 'done' as const, input: {}, at: queued.path, reports: false };
  const preview = { verb: 'accept' as const, input: { target: 'queued', dry_run: true }, at: r.root, reports: true };
  const improvement = { verb: 'improvement' as const, input: {}, at: r.root, reports: false };
  subjects = [
    { kind: 'proof-marker', file: join(own, 'gate-proof'), readers: [{ ...status, at: queued.path }, preview, done] },
    { kind: 'last-run', file: join(own, 'last-gate-run'), readers: [{ ...preview, reports: false }, done] },
    { kind: 'evidence', file: evidence, readers: [done] },
    {
      kind: 'operation',
      file: operation,
      readers: [
        { verb: 'progress', input: {}, at: queued.path, reports: false },
        { verb: 'status', input: {}, at: queued.path, reports: false },
      ],
    },
    {
      kind: 'continuation',
      file: continuation,
      readers: [{ verb: 'await', input: { resume, timeout: 0 }, at: r.root, reports: true }],
    },
    { kind: 'setup', file: setup, readers: [status, { verb: 'setupStep', input: {}, at: r.root, reports: false }] },
    { kind: 'emergency-transaction', file: emergency, readers: [status, { ...preview, reports: false }] },
    {
      kind: 'checkpoint-questions',
      file: questions,
      readers: [{ verb: 'checkpoints', input: {}, at: queued.path, reports: false }, done],
    },
    {
      kind: 'standard-measurements',
      file: measurements,
      readers: [{ verb: 'standards', input: { dry_run: true }, at: queued.path, reports: false }],
    },
    {
      kind: 'standard-proposals',
      file: proposals,
      readers: [{ verb: 'standards', input: { dry_run: true }, at: queued.path, reports: false }, done],
    },
    {
      kind: 'transaction',
      file: transaction,
      readers: [{ verb: 'improvement', input: {}, at: r.root, reports: true }],
    },
    {
      kind: 'refresh-ownership',
      file: ledger,
      readers: [{ verb: 'refresh', input: { dry_run: true }, at: r.root, reports: true }],
    },
    {
      kind: 'submission',
      file: join(common, 'discern', 'submissions', 'queued.json'),
      readers: [status, preview, improvement],
    },
    { kind: 'grant', file: grant, readers: [status, preview] },
    {
      kind: 'composition',
      file: composition,
      readers: [
        {
          verb: 'accept',
          input: { target: 'queued', composition_receipt: 'C-0000', dry_run: true },
          at: r.root,
          reports: false,
        },
      ],
    },
    {
      kind: 'task-record',
      file: join(common, 'worktrees', 'queued', 'discern', 'task-metadata.json'),
      readers: [
        status,
        preview,
        { verb: 'worktreeTeardown', input: { target: 'queued', dry_run: true }, at: r.root, reports: false },
      ],
    },
  ];
});

/** A corruption of one record's text, by its parsed value when it has one. */
const corruption = fc.oneof(
  fc.constant({ name: 'empty', apply: (): string => '' }),
  fc.integer({ min: 1, max: 60 }).map((n) => ({ name: `torn after ${n} bytes`, apply: (t: string) => t.slice(0, n) })),
  fc.constantFrom('null', '[]', '"text"', '42', '{}').map((v) => ({ name: `replaced by ${v}`, apply: () => v })),
  fc.nat(20).map((i) => ({
    name: `field #${i} removed`,
    apply: (t: string) => {
      const value = JSON.parse(t) as Record<string, unknown>;
      const key = Object.keys(value)[i % Object.keys(value).length] as string;
      delete value[key];
      return JSON.stringify(value);
    },
  })),
  fc.tuple(fc.nat(20), fc.constantFrom<unknown>(null, 7, -1, true, [], {}, '', 'x'.repeat(5000))).map(([i, v]) => ({
    name: `field #${i} set to ${JSON.stringify(v).slice(0, 20)}`,
    apply: (t: string) => {
      const value = JSON.parse(t) as Record<string, unknown>;
      const key = Object.keys(value)[i % Object.keys(value).length] as string;
      value[key] = v;
      return JSON.stringify(value);
    },
  })),
);

describe('state records, corrupted', () => {
  it('every state record kind in spec/state/ is corrupted here', () => {
    assert.deepEqual([...new Set(subjects.map((s) => s.kind))].sort(), Object.keys(STATE_VALIDATORS).sort());
  });

  it(`no verb that reads a corrupted record crashes (${RUNS} corruptions, seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(), corruption, async (pick, c) => {
        const subject = subjects[pick % subjects.length] as Subject;
        const original = readFileSync(subject.file, 'utf8');
        const corrupted = c.apply(original);
        writeFileSync(subject.file, corrupted);
        try {
          for (const reader of subject.readers) {
            const result = await call(reader.verb, reader.input, reader.at);
            const what = `${subject.kind} ${c.name}: ${reader.verb} answered ${JSON.stringify(result).slice(0, 600)}`;
            assert.notEqual(result.error, 'internal_error', what);
            // A corruption that still fits the schema (a field set to a value of its own type) is no corruption.
            if (reader.reports && corrupted !== original && !(await stillValid(subject.kind, corrupted)))
              assert.ok(
                result.advisories?.some(
                  (a) => a.kind === 'state-record-skipped' && a.evidence.join(' ').includes(subject.file),
                ),
                what,
              );
          }
        } finally {
          writeFileSync(subject.file, original);
        }
      }),
      { seed: SEED, numRuns: RUNS, includeErrorInReport: true },
    );
  });
});

async function stillValid(kind: StateKind, text: string): Promise<boolean> {
  const validate = await STATE_VALIDATORS[kind]();
  try {
    return validate(JSON.parse(text));
  } catch {
    return false;
  }
}
