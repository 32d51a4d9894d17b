// Property-based hostile input for what discern reads from a project's jobs: the DISCERN_PROGRESS and
// DISCERN_METRIC line protocols (alone and through the output capture, byte chunk by byte chunk), and the failed
// job's output as the diagnostics reader sees it — SARIF of every wrong shape, JUnit XML with doctypes, entity
// bombs and enormous attributes, invalid UTF-8, truncation, deep nesting. None of it may throw; a protocol line
// is used whole (and valid against the published schema) or not at all; a failed job always yields at least one
// diagnostic valid against the published schema, of bounded size. Seed printed; DISCERN_FUZZ_SEED overrides.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { diagnoseOutput } from '../../src/engine/diagnostics/index.js';
import { OutputCapture } from '../../src/engine/jobs/output-capture.js';
import { mergeProgress, emptyMergedProgress, MAX_MERGED_FAILURES } from '../../src/engine/jobs/progress-merge.js';
import { parseMetricLine, parseProgressLine } from '../../src/engine/jobs/protocol-lines.js';
import { readPublished, resultValidator } from '../helpers/published-schema.js';
import { hostileJunit, hostileSarif, metricLine, progressLine, withNoise } from './job-output-arbitraries.js';
import { sized } from '../helpers/test-size.js';

const SEED = Number.parseInt(process.env['DISCERN_FUZZ_SEED'] ?? '', 10) || 20261201;
/** Generated lines per reader: 50 bounded, 200 full (test/helpers/test-size.ts); DISCERN_FUZZ_RUNS overrides. */
const RUNS = sized('DISCERN_FUZZ_RUNS', { bounded: 50, full: 200 });
const OPTIONS = { seed: SEED, numRuns: RUNS, includeErrorInReport: true };

const dir = mkdtempSync(join(tmpdir(), 'discern-fuzz-output-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const progressSchema = new Ajv2020({ strict: false }).compile(readPublished('discern-progress-line.schema.json'));
const diagnosticSchema = resultValidator('DiscernDiagnostic');
const JOB = { tool: 'test', reproduce_cmd: 'npm test', cwd: '/work/project' };
/** A diagnostic points at the log; it does not carry it. Generous: a message is clipped at 2000 characters. */
const MAX_DIAGNOSTIC_CHARS = 16_384;

test(`DISCERN_PROGRESS lines are taken whole and valid, or not at all (seed ${SEED})`, () => {
  let taken = 0;
  fc.assert(
    fc.property(progressLine(), (line) => {
      const fact = parseProgressLine(line);
      if (fact === undefined) return;
      taken++;
      assert.ok(progressSchema(fact), `a taken progress line must be valid: ${line.slice(0, 300)}`);
      // Merging a taken fact never throws and keeps the bound on failures.
      let merged = emptyMergedProgress();
      for (let i = 0; i < 3; i++) merged = mergeProgress(merged, fact);
      assert.ok(merged.failures.length <= MAX_MERGED_FAILURES);
    }),
    OPTIONS,
  );
  console.log(`progress lines: ${RUNS} generated, ${taken} taken as valid`);
});

test(`DISCERN_METRIC lines yield a finite number for a well-formed name, or nothing (seed ${SEED})`, () => {
  let taken = 0;
  fc.assert(
    fc.property(metricLine(), (line) => {
      const metric = parseMetricLine(line);
      if (metric === undefined) return;
      taken++;
      assert.ok(Number.isFinite(metric.value), line);
      assert.match(metric.metric, /^[A-Za-z0-9_.:-]+$/);
    }),
    OPTIONS,
  );
  console.log(`metric lines: ${RUNS} generated, ${taken} taken`);
});

test(`the output capture keeps every byte and reads the protocols whatever the chunking (seed ${SEED})`, async () => {
  let n = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.oneof(progressLine(), metricLine(), fc.string({ unit: 'binary', maxLength: 200 })), {
        maxLength: 30,
      }),
      fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 4 }),
      fc.array(fc.nat({ max: 5000 }), { maxLength: 8 }),
      fc.boolean(),
      async (lines, junk, cuts, crlf) => {
        // Lines of text, raw bytes between them (invalid UTF-8, lone CRs, NULs), cut at arbitrary offsets.
        const parts: Buffer[] = [];
        lines.forEach((line, i) => {
          parts.push(Buffer.from(`${line}${crlf ? '\r\n' : '\n'}`, 'utf8'));
          const raw = junk[i % Math.max(1, junk.length)];
          if (raw !== undefined && i % 3 === 0) parts.push(Buffer.from(raw));
        });
        const bytes = Buffer.concat(parts);
        const path = join(dir, `capture-${n++}.log`);
        const capture = await OutputCapture.open(path, {});
        const [out, err] = [new PassThrough(), new PassThrough()];
        capture.attach(out, 'stdout');
        capture.attach(err, 'stderr');
        let at = 0;
        for (const cut of [...cuts.map((c) => c % (bytes.length + 1)).sort((a, b) => a - b), bytes.length]) {
          if (cut > at) (cut % 2 === 0 ? out : err).write(bytes.subarray(at, cut));
          at = Math.max(at, cut);
        }
        await new Promise((resolve) => setImmediate(resolve));
        await capture.finish();
        assert.equal(readFileSync(path).length, bytes.length, 'the output file holds every byte the job wrote');
        assert.equal(capture.outputCounts.bytes, bytes.length);
        for (const value of Object.values(capture.metrics)) assert.ok(Number.isFinite(value));
        const progress = capture.progress;
        assert.ok(progress.failures.length <= MAX_MERGED_FAILURES);
        for (const f of progress.failures) assert.equal(typeof f.name, 'string');
      },
    ),
    OPTIONS,
  );
});

async function diagnosed(content: string | Buffer, name: string): Promise<Awaited<ReturnType<typeof diagnoseOutput>>> {
  const path = join(dir, name);
  writeFileSync(path, content);
  const diagnosis = await diagnoseOutput({ ...JOB, output_path: path });
  assert.ok(diagnosis.diagnostics.length >= 1, 'a failed job always has at least one diagnostic');
  assert.ok(diagnosis.total >= diagnosis.diagnostics.length);
  for (const d of diagnosis.diagnostics) {
    assert.ok(
      diagnosticSchema(d),
      `diagnostic does not match the published schema: ${JSON.stringify(diagnosticSchema.errors)}`,
    );
    assert.ok(
      JSON.stringify(d).length <= MAX_DIAGNOSTIC_CHARS,
      `a diagnostic of ${JSON.stringify(d).length} characters`,
    );
    assert.equal(d.tool, JOB.tool);
    assert.equal(d.reproduce_cmd, JOB.reproduce_cmd);
  }
  return diagnosis;
}

test(`hostile SARIF never breaks the diagnostics reader (seed ${SEED})`, async () => {
  const formats = new Map<string, number>();
  let n = 0;
  await fc.assert(
    fc.asyncProperty(withNoise(hostileSarif()), async (content) => {
      const diagnosis = await diagnosed(content, `sarif-${n++}.log`);
      formats.set(diagnosis.format, (formats.get(diagnosis.format) ?? 0) + 1);
    }),
    OPTIONS,
  );
  console.log(`SARIF: ${RUNS} generated, read as ${JSON.stringify(Object.fromEntries(formats))}`);
});

test(`hostile JUnit XML never breaks the diagnostics reader (seed ${SEED})`, async () => {
  const formats = new Map<string, number>();
  let n = 0;
  await fc.assert(
    fc.asyncProperty(withNoise(hostileJunit()), async (content) => {
      const diagnosis = await diagnosed(content, `junit-${n++}.log`);
      formats.set(diagnosis.format, (formats.get(diagnosis.format) ?? 0) + 1);
    }),
    OPTIONS,
  );
  console.log(`JUnit: ${RUNS} generated, read as ${JSON.stringify(Object.fromEntries(formats))}`);
});

test('named regressions: inputs that once broke a reader', async () => {
  await diagnosed(Buffer.from([0xff, 0xfe, 0x00, 0xc3]), 'regression-bytes.log');
  // A megabyte rule id or test name went into the diagnostic whole (50 of them: a 50 MB result).
  const sarif = await diagnosed(
    JSON.stringify({
      version: '2.1.0',
      runs: [{ results: [{ ruleId: 'R'.repeat(1_000_000), message: { text: 'm' } }] }],
    }),
    'regression-rule.log',
  );
  assert.equal(sarif.format, 'sarif');
  const junit = await diagnosed(
    `<testsuite name="s"><testcase name="${'n'.repeat(1_000_000)}" file="${'/a'.repeat(5_000)}"><failure message="m"/></testcase></testsuite>`,
    'regression-name.log',
  );
  assert.equal(junit.format, 'junit');
  assert.equal(junit.diagnostics[0]?.file, undefined, 'a 10 000-character "path" names no file');
  // A long run of name characters inside a tag made the attribute scan quadratic: minutes for 200 KB.
  const long = await diagnosed(
    `<testsuite ${'a'.repeat(2_000_000)}><testcase name="t"><failure message="m"/></testcase></testsuite>`,
    'regression-attr.log',
  );
  assert.equal(long.format, 'junit');
});
