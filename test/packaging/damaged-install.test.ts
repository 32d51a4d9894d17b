// A damaged install: a copy of the built dist/ with one of its bundled parts deleted, run as a real child process.
// The manual gone answers no_docs; the built-in instruction and skill templates gone answer templates_not_found —
// each with the missing file in the message and the registered next action (reinstall, then the same call again),
// exit 1, never internal_error. Needs dist/: `npm test` builds first.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, onlyJson, runCli, type CliRun } from '../helpers/cli.js';
import { assertPublishedResult } from '../helpers/published-schema.js';
import { scratchRepo, tempDir } from '../helpers/scratch-repo.js';

/** A copy of dist/ whose chunk named `prefix-<hash>.js` is deleted; returns its entry and the deleted file. */
function damagedCopy(prefix: string): { entry: string; missing: string } {
  const pkg = tempDir('discern-damaged-');
  cpSync(join(REPO_ROOT, 'dist'), join(pkg, 'dist'), { recursive: true });
  writeFileSync(join(pkg, 'package.json'), '{"name":"discern","type":"module"}\n');
  const chunks = join(pkg, 'dist', 'chunks');
  const name = readdirSync(chunks).find((f) => f.startsWith(`${prefix}-`) && f.endsWith('.js'));
  assert.ok(name, `dist/chunks has a ${prefix} chunk`);
  const missing = join(chunks, name);
  rmSync(missing);
  return { entry: join(pkg, 'dist', 'discern.js'), missing };
}

function refused(run: CliRun, slug: string, missing: string, rerun: string): void {
  assert.equal(run.code, 1, run.stderr);
  assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
  const result = onlyJson(run) as { ok: boolean; error?: string; message?: string; hints?: string[] };
  assertPublishedResult(result);
  assert.equal(result.ok, false);
  assert.equal(result.error, slug);
  assert.ok(result.message?.includes(`${missing} is missing`), result.message);
  assert.equal(
    result.hints?.at(-1),
    `discern's install is damaged (${missing} is missing): reinstall discern (in its source checkout, \`npm run build\`), then run \`${rerun}\` again.`,
  );
}

describe('a damaged install', () => {
  assert.ok(existsSync(join(REPO_ROOT, 'dist', 'discern.js')), 'dist/ is missing: run `npm run build`');

  it('without the manual, docs answers no_docs: the index, a page and a search', async () => {
    const pages = damagedCopy('manual-pages');
    const cwd = tempDir('discern-damaged-cwd-');
    refused(await runCli(['docs', '--json'], { cwd, entry: pages.entry }), 'no_docs', pages.missing, 'discern docs');
    refused(
      await runCli(['docs', 'setup', '--json'], { cwd, entry: pages.entry }),
      'no_docs',
      pages.missing,
      'discern docs "setup"',
    );
    const bare = await runCli(['docs'], { cwd, entry: pages.entry });
    assert.equal(bare.code, 1);
    assert.match(bare.stdout, /discern docs: failed \(`no_docs`\)/);

    const index = damagedCopy('manual-index');
    refused(
      await runCli(['docs', '--search', 'proof', '--json'], { cwd, entry: index.entry }),
      'no_docs',
      index.missing,
      'discern docs --search "proof"',
    );
    // Reading a page needs only the pages: it still works.
    const page = onlyJson(await runCli(['docs', 'setup', '--json'], { cwd, entry: index.entry }));
    assert.equal(page.ok, true);
  });

  it('without the built-in templates, refresh and the skills verbs answer templates_not_found', async () => {
    const { entry, missing } = damagedCopy('agent-assets');
    const r = scratchRepo({ 'discern.toml': '[project]\nname = "damaged"\nagents = ["claude_code"]\n' });
    const cwd = r.root;
    refused(await runCli(['refresh', '--json'], { cwd, entry }), 'templates_not_found', missing, 'discern refresh');
    refused(
      await runCli(['refresh', '--dry-run', '--json'], { cwd, entry }),
      'templates_not_found',
      missing,
      'discern refresh --dry-run',
    );
    refused(
      await runCli(['skills', 'list', '--json'], { cwd, entry }),
      'templates_not_found',
      missing,
      'discern skills list',
    );
    refused(
      await runCli(['skills', 'eject', 'discern-land-change', '--json'], { cwd, entry }),
      'templates_not_found',
      missing,
      'discern skills eject discern-land-change',
    );
    assert.ok(!existsSync(join(r.root, 'CLAUDE.md')), 'nothing was written');
    assert.ok(!existsSync(join(r.root, '.claude')), 'nothing was written');
  });
});
