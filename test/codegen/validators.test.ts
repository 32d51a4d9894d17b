// The standalone validators are plain ES modules: they import under plain Node (no tsx, no bundler) and
// agree with the published schema on what they accept.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { REPO_ROOT } from '../helpers/cli.js';
import { validateInput as validateDocsInput } from '../../generated/validators/docs-input.js';
import { validateResult as validateDocsResult } from '../../generated/validators/docs-result.js';
import { validateConfig } from '../../generated/validators/config.js';

describe('generated validators', () => {
  it('every module imports under plain node ESM', () => {
    const modules = readdirSync(`${REPO_ROOT}generated/validators`).filter((f) => f.endsWith('.js'));
    assert.ok(modules.length >= 7);
    const script = `const names = ${JSON.stringify(modules)};
      for (const n of names) { const m = await import('./generated/validators/' + n); const fns = Object.values(m).filter((v) => typeof v === 'function'); if (fns.length === 0) throw new Error(n + ' exports no validator'); }
      console.log('imported ' + names.length);`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, new RegExp(`imported ${modules.length}`));
  });
  it('input validators are strict', () => {
    assert.equal(validateDocsInput({ search: 'x' }), true);
    assert.equal(validateDocsInput({ search: 'x', extra: 1 }), false);
    assert.equal(validateDocsInput({ search: 5 }), false);
    assert.equal(validateDocsInput({ search: '' }), false);
  });
  it('result validators enforce the structural states', () => {
    assert.equal(validateDocsResult({ ok: true, verb: 'docs' }), true);
    assert.equal(validateDocsResult({ ok: true, verb: 'docs', error: 'internal_error' }), false, 'ok forbids error');
    assert.equal(validateDocsResult({ ok: false, verb: 'docs' }), false, 'a failure needs error, message and a hint');
    assert.equal(
      validateDocsResult({ ok: false, verb: 'docs', error: 'unknown_target', message: 'm', hints: [] }),
      false,
      'at least one hint',
    );
    assert.equal(
      validateDocsResult({ ok: false, verb: 'docs', error: 'unknown_target', message: 'm', hints: ['next'] }),
      true,
    );
    assert.equal(
      validateDocsResult({ ok: false, verb: 'docs', error: 'some_future_slug', message: 'm', hints: ['next'] }),
      true,
      'error slugs are an open vocabulary',
    );
    const plan = { title: 't', details: [], steps: [] };
    const step = { kind: 'job', label: 'l', disposition: 'run', outcome: 'ok' };
    assert.equal(
      validateDocsResult({ ok: true, verb: 'docs', plan, steps: [step] }),
      false,
      'plan and steps never coexist',
    );
    assert.equal(
      validateDocsResult({ ok: true, verb: 'docs', dry_run: true, steps: [step] }),
      false,
      'a preview has no steps',
    );
    assert.equal(
      validateDocsResult({ ok: true, verb: 'docs', steps: [{ ...step, outcome: 'done' }] }),
      false,
      'step outcome is a closed vocabulary',
    );
    assert.equal(validateDocsResult({ ok: true, verb: 'doctor' }), false, 'verb is fixed');
  });
  it('the config validator refuses unknown keys everywhere', () => {
    assert.equal(
      validateConfig({ project: { name: 'x' }, jobs: { test: 'npm test', e2e: { stage: 'test', run: ['a', 'b'] } } }),
      true,
    );
    assert.equal(validateConfig({ projects: {} }), false);
    assert.equal(validateConfig({ project: { nmae: 'x' } }), false);
    assert.equal(validateConfig({ jobs: { test: { run: 'x', timeout: 5 } } }), true);
    assert.equal(validateConfig({ jobs: { test: { run: 'x', stream: true } } }), false);
    assert.equal(
      validateConfig({ gate: { timeout: 5, fail_fast: false, concurrency: 2, concurrent_test_runs: 1 } }),
      true,
    );
    assert.equal(validateConfig({ gate: { concurrency: 0 } }), false);
    assert.equal(
      validateConfig({ standards: { cov: { direction: 'up', limit: 80, run: 'x', per: { lines: 'src' } } } }),
      true,
    );
    assert.equal(validateConfig({ standards: { cov: { direction: 'sideways', limit: 80, run: 'x' } } }), false);
    assert.equal(validateConfig({ jobs: { e2e: 'x' } }), false, 'a custom job needs a stage');
  });
});
