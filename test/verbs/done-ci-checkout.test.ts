// `discern done --ci` on a checkout made the way hosted CI makes one (actions/checkout): a fresh repository that
// fetched the branches as remote-tracking refs only, HEAD detached at the commit under test, no local trunk.
// Green and red runs through the real CLI with GITHUB_ACTIONS set: the result, SARIF 2.1.0 valid against the
// OASIS schema, one annotation per diagnostic on stderr, the step summary. A shallow fetch that does not reach
// the merge-base and a checkout without the trunk are refused with what to fetch.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import AjvDraft04Module from 'ajv-draft-04';
import { runCli, onlyJson } from '../helpers/cli.js';
import { cleanEnv, scratchRepo, tempDir, type ScratchRepo } from '../helpers/scratch-repo.js';

const require = createRequire(import.meta.url);
// A CommonJS default export: its class is the module's `default` under Node's interop.
type Validator = ((data: unknown) => boolean) & { errors?: unknown };
const AjvDraft04 = (
  AjvDraft04Module as unknown as { default: new (options: object) => { compile(schema: object): Validator } }
).default;
const SARIF_SCHEMA = require('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json') as object;

/** A type check that fails, in tsc's own format, while the file `bad` exists. */
const CHECK = `const fs = require('fs');
if (fs.existsSync('bad')) {
  console.log('src/a.ts(3,5): error TS2322: Type string is not assignable to type number.');
  process.exit(2);
}
`;

let origin: ScratchRepo;
after(() => origin.cleanup());
before(() => {
  origin = scratchRepo({
    'discern.toml': '[project]\nname = "hosted"\n\n[jobs]\ntypecheck = "node check.js"\n',
    'check.js': CHECK,
  });
  origin.git('checkout', '-q', '-b', 'feature');
  origin.write('src/a.ts', 'export const a = 1;\n');
  origin.commit('a good change');
  origin.git('checkout', '-q', '-b', 'broken');
  origin.write('bad', '');
  origin.commit('a bad change');
  origin.git('checkout', '-q', 'main');
  // The trunk moves on after the branches left it, as it does while a pull request waits.
  origin.write('NEWS.md', 'later\n');
  origin.commit('the trunk moves');
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: cleanEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** What actions/checkout does: init, add the remote, fetch (all branches, or some at a depth), detach. */
function ciCheckout(branch: string, fetch: { depth?: number; refs?: string[] } = {}): string {
  const dir = tempDir('discern-ci-');
  git(dir, 'init', '-q');
  git(dir, 'remote', 'add', 'origin', `file://${origin.root}`);
  const refs = (fetch.refs ?? ['*']).map((b) => `+refs/heads/${b}:refs/remotes/origin/${b}`);
  git(dir, 'fetch', '-q', '--no-tags', ...(fetch.depth ? [`--depth=${fetch.depth}`] : []), 'origin', ...refs);
  git(dir, 'checkout', '-q', '--detach', `refs/remotes/origin/${branch}`);
  return dir;
}

async function doneCi(cwd: string, extra: string[] = []) {
  const summary = join(tempDir('discern-ci-summary-'), 'summary.md');
  const run = await runCli(['done', '--ci', '--json', '--sarif', 'out/discern.sarif', ...extra], {
    cwd,
    env: cleanEnv({ GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary }),
  });
  return { run, result: onlyJson(run), summary };
}

function validSarif(path: string): { runs: { results: Record<string, unknown>[] }[] } {
  const document = JSON.parse(readFileSync(path, 'utf8')) as { runs: { results: Record<string, unknown>[] }[] };
  // The OASIS schema is draft-04, and one of its patterns is not valid as a Unicode regular expression.
  const ajv = new AjvDraft04({ allErrors: true, strict: false, unicodeRegExp: false });
  const validate = ajv.compile(SARIF_SCHEMA);
  assert.ok(validate(document), JSON.stringify(validate.errors, null, 2));
  return document;
}

describe('done --ci on a hosted-CI checkout', () => {
  it('green: detached, no local trunk, the fetched origin/main stands in; SARIF with no results, a summary', async () => {
    const dir = ciCheckout('feature');
    assert.throws(() => git(dir, 'rev-parse', '--verify', '-q', 'refs/heads/main'));
    const { run, result, summary } = await doneCi(dir);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(result['ok'], true);
    assert.equal((result['data'] as { mode: string }).mode, 'report');
    assert.deepEqual(validSarif(join(dir, 'out/discern.sarif')).runs[0]?.results, []);
    assert.match(readFileSync(summary, 'utf8'), /^# discern done/);
    assert.doesNotMatch(run.stderr, /::error/);
  });

  it('red: gate_failed, each diagnostic in SARIF with its location and as an annotation', async () => {
    const dir = ciCheckout('broken');
    const { run, result, summary } = await doneCi(dir);
    assert.equal(run.code, 1);
    assert.equal(result['error'], 'gate_failed');
    const [only] = validSarif(join(dir, 'out/discern.sarif')).runs[0]?.results ?? [];
    assert.deepEqual(only, {
      ruleId: 'typecheck/TS2322',
      level: 'error',
      message: { text: 'Type string is not assignable to type number. (reproduce: node check.js)' },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: 'src/a.ts', uriBaseId: '%SRCROOT%' },
            region: { startLine: 3, startColumn: 5 },
          },
        },
      ],
    });
    assert.match(
      run.stderr,
      /^::error file=src\/a\.ts,line=3,col=5,title=typecheck\/TS2322::Type string is not assignable to type number\. \(reproduce: node check\.js\)$/m,
    );
    assert.match(readFileSync(summary, 'utf8'), /gate_failed|failed/);
  });

  it('a shallow fetch that does not reach the merge-base is refused, naming the fetch depth to use', async () => {
    const dir = ciCheckout('feature', { depth: 1 });
    const { run, result } = await doneCi(dir);
    assert.equal(run.code, 1);
    assert.equal(result['error'], 'precondition_failed');
    assert.match(String(result['message']), /shallow .* does not reach the commit where HEAD left origin\/main/);
    assert.match(String(result['message']), /`fetch-depth: 0`/);
    assert.ok(!existsSync(join(dir, 'out/discern.sarif')) || validSarif(join(dir, 'out/discern.sarif')));
  });

  it('no trunk fetched: no_trunk saying what to fetch; without --ci, the hint names --ci', async () => {
    const dir = ciCheckout('feature', { refs: ['feature'] });
    const { result } = await doneCi(dir);
    assert.equal(result['error'], 'no_trunk');
    assert.match(String(result['message']), /git fetch origin main/);
    const full = ciCheckout('feature');
    const strict = onlyJson(await runCli(['done', '--json'], { cwd: full }));
    assert.equal(strict['error'], 'no_trunk');
    assert.match(String(strict['message']), /discern done --ci/);
  });

  it('a SARIF file that cannot be written is write_denied before anything runs', async () => {
    const dir = ciCheckout('feature');
    const run = await runCli(['done', '--ci', '--json', '--sarif', '.'], { cwd: dir });
    const result = onlyJson(run);
    assert.equal(result['error'], 'write_denied');
    assert.match(String(result['message']), /cannot be written: it is a directory\. Nothing ran\./);
    assert.equal(run.stderr, '');
  });

  it('DISCERN_TRUNK=origin/main names the fetched trunk itself', async () => {
    const dir = ciCheckout('feature');
    const run = await runCli(['done', '--ci', '--json'], { cwd: dir, env: cleanEnv({ DISCERN_TRUNK: 'origin/main' }) });
    assert.equal(onlyJson(run)['ok'], true, run.stdout);
  });
});
