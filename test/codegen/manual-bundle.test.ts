// The manual bundle is built only from real page files inside docs/: a symbolic link (which could reach
// outside the manual) or a page without valid front matter stops generation, naming the file.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateAll } from '../../codegen/generate.js';
import { SpecError } from '../../codegen/spec/errors.js';
import { manualPages } from '../../src/engine/manual/bundle.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/scratch-repo.js';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function copy(): string {
  const root = tempDir('discern-manual-');
  dirs.push(root);
  for (const entry of ['spec', 'docs', 'package.json'])
    cpSync(join(REPO_ROOT, entry), join(root, entry), { recursive: true });
  return root;
}

async function problems(root: string): Promise<string> {
  try {
    await generateAll(root);
    return '';
  } catch (error) {
    if (error instanceof SpecError) return error.message;
    throw error;
  }
}

describe('manual bundle', () => {
  it('refuses a symbolic link among the pages', async () => {
    const root = copy();
    symlinkSync('/etc/hostname', join(root, 'docs/10-guides/escape.md'));
    assert.match(await problems(root), /docs\/10-guides\/escape\.md: manual pages may not be symbolic links/);
  });
  it('refuses a page whose id is not its slug', async () => {
    const root = copy();
    writeFileSync(
      join(root, 'docs/10-guides/extra.md'),
      '---\nid: other\ntitle: Extra\ndescription: A page with the wrong id.\norder: 99\n---\n\n# Extra\n',
    );
    assert.match(await problems(root), /docs\/10-guides\/extra\.md#\/id: id must equal the file's slug "extra"/);
  });
  it('refuses a page without front matter', async () => {
    const root = copy();
    writeFileSync(join(root, 'docs/10-guides/bare.md'), '# Bare\n');
    assert.match(await problems(root), /docs\/10-guides\/bare\.md: missing front matter/);
  });
  it('includes every hand-written page and the generated reference pages, and no decision records', async () => {
    const MANUAL = await manualPages();
    const targets = MANUAL.pages.map((p) => p.target);
    for (const t of [
      'start/overview',
      'guides/connect-a-coding-agent',
      'reference/tools',
      'reference/errors',
      'reference/commands',
      'verbs/doctor',
    ])
      assert.ok(targets.includes(t), t);
    assert.ok(!MANUAL.pages.some((p) => p.path.startsWith('decisions/')));
    assert.deepEqual(
      MANUAL.pages
        .filter((p) => p.generated)
        .map((p) => p.slug)
        .sort(),
      ['commands', 'errors', 'tools'],
    );
  });
});
