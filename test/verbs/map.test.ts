// map on real scratch repositories: the index with regions and freshness facts, pages by every target form,
// region indexes, search (publish: false included) and scoped search, refusals, and a map folder that is
// missing or tries to leave the project — every result validated against the published schema.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { DiscernMapData } from '../../generated/types.js';
import { renderMarkdown } from '../../src/render/markdown/index.js';
import { assertDriven, call } from '../helpers/drive.js';
import { scratchRepo, tempDir, type ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
const dirs: string[] = [];
after(() => {
  repos.forEach((r) => r.cleanup());
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

const MAP = {
  'discern.toml': '[project]\nname = "mapped"\n',
  'src/core.ts': 'export const v = 1;\n',
  'src/util.ts': 'export const u = 1;\n',
  'discern/map/10-architecture/README.md':
    '---\ntitle: Architecture\ndescription: How the parts fit together.\n---\n\n# Architecture\n\nThe core is [core](../../../src/core.ts); helpers live in `src/util.ts`.\n',
  'discern/map/10-architecture/data-flow.md': '# Data flow\n\nRequests enter through the router and reach the core.\n',
  'discern/map/20-operations/releases.md':
    '---\ntitle: Releases\naliases: [shipping]\n---\n\n# Releases\n\nWe cut a release every Friday.\n',
  'discern/map/20-operations/notes.md':
    '---\ntitle: Internal notes\npublish: false\n---\n\nThe pager rotation is private.\n',
  'discern/map/glossary.md': '# Glossary\n\nTerms used across the project.\n',
};

function repo(files: Record<string, string> = MAP): ScratchRepo {
  const r = scratchRepo(files);
  repos.push(r);
  return r;
}
async function mapData(target: string, input: Record<string, unknown> = {}): Promise<DiscernMapData> {
  const result = await call('map', input, target);
  assert.ok(result.ok, JSON.stringify(result));
  assert.ok(result.verb === 'map' && result.data);
  return result.data as DiscernMapData;
}

describe('map', () => {
  it('indexes every page with regions, titles and freshness facts', async () => {
    const r = repo();
    r.write('src/core.ts', 'export const v = 2;\n');
    r.commit('the core moves on after the map was written');
    const d = await mapData(r.root);
    assert.ok('regions' in d);
    assert.equal(d.map_dir, 'discern/map');
    assert.equal(d.count, 5);
    assert.deepEqual(
      d.docs.map((p) => p.target),
      ['glossary', 'architecture/README', 'architecture/data-flow', 'operations/notes', 'operations/releases'],
    );
    const architecture = d.regions.find((x) => x.name === 'architecture');
    assert.equal(architecture?.title, 'Architecture');
    assert.equal(architecture?.description, 'How the parts fit together.');
    assert.equal(architecture?.cited_files, 2);
    assert.equal(architecture?.code_changes_since, 1);
    assert.match(architecture?.pages_changed_at ?? '', /^\d{4}-\d\d-\d\dT/);
    const operations = d.regions.find((x) => x.name === 'operations');
    assert.deepEqual([operations?.cited_files, operations?.code_changes_since], [0, undefined]);
    assert.equal(d.docs.find((p) => p.target === 'operations/notes')?.publish, false);
  });
  it('freshness counts neither merge commits nor edits to other map pages', async () => {
    const r = repo({
      'discern.toml': '[project]\nname = "fresh"\n',
      'src/a.ts': 'one\ntwo\nthree\nfour\nfive\n',
      'discern/map/10-core/README.md': '# Core\n\nSee `src/a.ts` and the [glossary](../glossary.md), and [b](b.md).\n',
      'discern/map/10-core/b.md': '# B\n\nMore.\n',
      'discern/map/glossary.md': '# Glossary\n',
    });
    // Both sides change the cited file, so the merge differs from each parent and git log would list it too.
    r.git('checkout', '-q', '-b', 'side');
    r.write('src/a.ts', 'one\ntwo\nthree\nfour\nFIVE\n');
    r.commit('side edits a');
    r.git('checkout', '-q', 'main');
    r.write('src/a.ts', 'ONE\ntwo\nthree\nfour\nfive\n');
    r.commit('main edits a');
    r.git('merge', '-q', '--no-ff', '-m', 'merge side', 'side');
    r.write('discern/map/glossary.md', '# Glossary\n\nA new term.\n');
    r.commit('the glossary grows');
    const d = await mapData(r.root);
    assert.ok('regions' in d);
    const core = d.regions.find((x) => x.name === 'core');
    assert.deepEqual([core?.cited_files, core?.code_changes_since], [1, 2]);
  });
  it("warns when cited code changed since a region's pages", async () => {
    const r = repo();
    r.write('src/util.ts', 'changed');
    r.commit('util moves on');
    const result = await call('map', {}, r.root);
    assert.ok(result.hints?.some((h) => h.includes('may be out of date')));
  });
  it('orders the index: pages outside regions, then regions by folder; in a region its overview, then order, then path', async () => {
    const r = repo({
      'discern.toml': '[project]\nname = "ordered"\n',
      'discern/map/b.md': '---\norder: 1\n---\n# B\n',
      'discern/map/a.md': '# A\n',
      'discern/map/20-late/x.md': '# X\n',
      'discern/map/10-early/z.md': '---\norder: 1\n---\n# Z\n',
      'discern/map/10-early/y.md': '# Y\n',
      'discern/map/10-early/index.md': '---\norder: 50\n---\n# Early\n',
      'discern/map/10-early/deeper/README.md': '# Deeper readme is an ordinary page\n',
    });
    const d = await mapData(r.root);
    assert.ok('docs' in d);
    assert.deepEqual(
      d.docs.map((p) => p.path),
      [
        'b.md',
        'a.md',
        '10-early/index.md',
        '10-early/z.md',
        '10-early/deeper/README.md',
        '10-early/y.md',
        '20-late/x.md',
      ],
    );
  });
  it('uncommitted pages have no change time', async () => {
    const r = repo();
    r.write('discern/map/30-new/page.md', '# New\n\nfresh\n');
    const d = await mapData(r.root);
    assert.ok('regions' in d);
    const region = d.regions.find((x) => x.name === 'new');
    assert.equal(region?.pages_changed_at, undefined);
  });
  it('reads one page by target, path, slug and with the map dir in front, verbatim', async () => {
    const r = repo();
    for (const target of [
      'operations/releases',
      '20-operations/releases.md',
      'releases',
      'discern/map/20-operations/releases.md',
      'OPERATIONS/Releases',
    ]) {
      const d = await mapData(r.root, { target });
      assert.ok('doc' in d, target);
      assert.equal(d.doc.content, '\n# Releases\n\nWe cut a release every Friday.\n');
    }
  });
  it("a region name gives that region's index", async () => {
    const d = await mapData(repo().root, { target: 'architecture' });
    assert.ok('docs' in d && 'map_dir' in d);
    assert.equal(d.scope, 'architecture');
    assert.deepEqual(
      d.docs.map((p) => p.slug),
      ['README', 'data-flow'],
    );
  });
  it('searches with the manual ranker, publish: false pages included, and within a region', async () => {
    const r = repo();
    const friday = await mapData(r.root, { search: 'release friday' });
    assert.ok('results' in friday);
    assert.equal(friday.results[0]?.target, 'operations/releases');
    const privateNotes = await mapData(r.root, { search: 'pager rotation' });
    assert.ok('results' in privateNotes);
    assert.equal(privateNotes.results[0]?.target, 'operations/notes');
    const scoped = await mapData(r.root, { target: 'architecture', search: 'core' });
    assert.ok('results' in scoped);
    assert.equal(scoped.scope, 'architecture');
    assert.ok(scoped.results.every((x) => x.section === 'architecture'));
    const alias = await mapData(r.root, { search: 'shipping' });
    assert.ok('results' in alias);
    assert.equal(alias.results[0]?.target, 'operations/releases');
  });
  it('an unknown target has suggestions; a target that leaves the map is refused', async () => {
    const r = repo();
    const unknown = await call('map', { target: 'operations/release' }, r.root);
    assert.equal(unknown.error, 'unknown_target');
    assert.ok(
      unknown.data && 'suggestions' in unknown.data && unknown.data.suggestions?.includes('operations/releases'),
    );
    for (const target of ['../../discern.toml', '/etc/passwd', 'a%2F..%2Fb'])
      assert.equal((await call('map', { target }, r.root)).error, 'invalid_arguments', target);
  });
  it('no map directory → no_map naming where it looked', async () => {
    const r = repo({ 'discern.toml': '[map]\ndir = "knowledge/"\n' });
    const result = await call('map', {}, r.root);
    assert.equal(result.error, 'no_map');
    assert.deepEqual(result.data, { map_dir: 'knowledge' });
    assert.match(
      result.hints?.at(-1) ?? '',
      /^Create knowledge\/ with Markdown pages in region folders, or point \[map\] dir/,
    );
  });
  it('a configured map dir that escapes the project is refused by the config schema, and through a symlink by the reader', async () => {
    assert.equal(
      (await call('map', {}, repo({ 'discern.toml': '[map]\ndir = "../elsewhere"\n' }).root)).error,
      'invalid_config',
    );
    const outside = tempDir('discern-map-outside-');
    dirs.push(outside);
    mkdirSync(join(outside, 'pages'));
    const r = repo({ 'discern.toml': '[map]\ndir = "linked"\n' });
    symlinkSync(join(outside, 'pages'), join(r.root, 'linked'));
    const result = await call('map', {}, r.root);
    assert.equal(result.error, 'no_map');
    assert.match(result.message ?? '', /resolves outside the project/);
    assert.match(
      result.hints?.at(-1) ?? '',
      /^Make linked a folder inside the project, not reached through a symbolic link that leads out of it, or point \[map\] dir/,
    );
  });
  it('a map dir that is a file, sits under a file, or is a dangling link: each says so and what to do', async () => {
    const cases: [files: Record<string, string>, link: string | undefined, message: RegExp, next: RegExp][] = [
      [
        { 'discern/map': 'not a folder\n' },
        undefined,
        /discern\/map is a file, not a folder/,
        /^Replace the file discern\/map with a folder of Markdown pages, or point/,
      ],
      [
        { discern: 'a file\n' },
        undefined,
        /discern\/map cannot be a folder: a part of its path is a file/,
        /^Replace the file in the path discern\/map with a folder, or point/,
      ],
      [
        {},
        'nowhere',
        /discern\/map is a symbolic link to .*nowhere, which does not exist/,
        /^Create the folder the link discern\/map points to, or replace the link with a folder, or point/,
      ],
    ];
    for (const [files, link, message, next] of cases) {
      const r = repo({ 'discern.toml': '[project]\nname = "x"\n', ...files });
      if (link !== undefined) {
        mkdirSync(join(r.root, 'discern'));
        symlinkSync(join(r.root, link), join(r.root, 'discern/map'));
      }
      const result = await call('map', {}, r.root);
      assert.equal(result.error, 'no_map', JSON.stringify(result));
      assert.deepEqual(result.data, { map_dir: 'discern/map' });
      assert.match(result.message ?? '', message);
      assert.match(result.hints?.at(-1) ?? '', next);
      assert.doesNotMatch(result.hints?.at(-1) ?? '', /^Create discern\/map\//);
    }
  });
  it('symbolic links inside the map are not followed, and each is a notice', async () => {
    const r = repo();
    symlinkSync('/etc/hostname', join(r.root, 'discern/map/10-architecture/host.md'));
    const result = await call('map', {}, r.root);
    const d = result.data as DiscernMapData;
    assert.ok('docs' in d && 'map_dir' in d);
    assert.ok(!d.docs.some((p) => p.slug === 'host'));
    assert.deepEqual(
      d.notices?.map((n) => [n.kind, n.path]),
      [['symbolic-link', '10-architecture/host.md']],
    );
    assert.ok(result.hints?.some((h) => h.includes('data.notices')));
  });
  it('a page over 1 MiB, unreadable front matter and wrongly typed keys are notices; the pages are still listed from their text', async () => {
    const r = repo({
      ...MAP,
      'discern/map/30-big/huge.md': `# Huge\n\n${'x'.repeat(1024 * 1024)}\n`,
      'discern/map/30-big/broken.md': '---\ntitle: Broken\naliases: [a, b\n---\n\n# Broken heading\n\nBody.\n',
      'discern/map/30-big/typed.md':
        '---\ntitle: 2024\norder: first\npublish: yes\naliases: one\n---\n\n# Typed heading\n\nBody.\n',
    });
    const d = await mapData(r.root);
    assert.ok('docs' in d && 'map_dir' in d);
    assert.deepEqual(
      d.notices?.map((n) => [n.kind, n.path]),
      [
        ['front-matter', '30-big/broken.md'],
        ['too-large', '30-big/huge.md'],
        ['front-matter', '30-big/typed.md'],
        ['front-matter', '30-big/typed.md'],
        ['front-matter', '30-big/typed.md'],
        ['front-matter', '30-big/typed.md'],
      ],
    );
    assert.match(d.notices?.[0]?.message ?? '', /line 3 of the file: .*end with a \]/);
    assert.ok(d.notices?.some((n) => /`publish` is the text "yes"; it must be true or false/.test(n.message)));
    const broken = d.docs.find((p) => p.path === '30-big/broken.md');
    assert.equal(broken?.title, 'Broken heading');
    const typed = d.docs.find((p) => p.path === '30-big/typed.md');
    assert.deepEqual(
      [typed?.title, typed?.order, typed?.publish, typed?.aliases],
      ['Typed heading', 1000, undefined, undefined],
    );
    const scoped = await mapData(r.root, { target: 'architecture' });
    assert.ok('docs' in scoped && 'map_dir' in scoped);
    assert.equal(scoped.notices, undefined, 'a region index carries only its own notices');
    symlinkSync('/etc/hostname', join(r.root, 'discern/map/30-big/link.md'));
    const markdown = renderMarkdown(await call('map', {}, r.root));
    assert.match(markdown, /## Not listed as written \(7\)/);
    assert.equal(markdown.match(/^- `30-big\//gm)?.length, 6, 'six notices shown');
    assert.match(markdown, /1 more in `data.notices`/);
  });
  it('front matter with folded and literal block scalars is read', async () => {
    const r = repo({
      ...MAP,
      'discern/map/40-blocks/README.md':
        '---\ntitle: >-\n  Blocks\n  region\ndescription: |\n  First line.\n  Second line.\n---\n\n# ignored\n',
    });
    const d = await mapData(r.root);
    assert.ok('docs' in d && 'map_dir' in d);
    assert.equal(d.notices, undefined);
    const region = d.regions.find((x) => x.name === 'blocks');
    assert.deepEqual([region?.title, region?.description], ['Blocks region', 'First line.\nSecond line.']);
  });
  it('pages whose targets collide once prefixes, .md and case are dropped all stay listed and readable', async () => {
    const r = repo({
      'discern.toml': '[project]\nname = "collide"\n',
      'discern/map/10-guides/a.md': '# Ten A\n\nfirst guides a\n',
      'discern/map/20-guides/a.md': '# Twenty A\n\nsecond guides a\n',
      'discern/map/10-guides/01-a.md': '# Prefixed A\n\nprefixed a\n',
      'discern/map/notes.md': '# Notes lower\n\nlower\n',
      'discern/map/notes.MD': '# Notes upper\n\nupper\n',
    });
    const d = await mapData(r.root);
    assert.ok('docs' in d && 'map_dir' in d);
    assert.equal(d.count, 5);
    const byPath = new Map(d.docs.map((p) => [p.path, p.target]));
    // The page needing the fewest renames keeps the short target; the others are read by their own path.
    assert.deepEqual(Object.fromEntries(byPath), {
      'notes.md': 'notes',
      'notes.MD': 'notes.MD',
      '10-guides/a.md': 'guides/a',
      '10-guides/01-a.md': '10-guides/01-a',
      '20-guides/a.md': '20-guides/a',
    });
    assert.deepEqual(
      d.regions.map((x) => [x.name, x.page_count]),
      [
        ['guides', 2],
        ['20-guides', 1],
      ],
    );
    assert.equal(new Set(d.docs.map((p) => p.target)).size, 5, 'every target is unique');
    const read = async (target: string): Promise<string> => {
      const page = await mapData(r.root, { target });
      assert.ok('doc' in page, target);
      return page.doc.content;
    };
    for (const [path, target] of byPath) {
      const content = await read(path);
      assert.equal(await read(target), content, `${target} and ${path} are the same page`);
    }
    assert.match(await read('notes.md'), /lower/);
    assert.match(await read('notes.MD'), /upper/);
    assert.match(await read('20-guides/a.md'), /second/);
    assert.match(await read('10-guides/01-a.md'), /prefixed/);
    const scoped = await mapData(r.root, { target: '20-guides' });
    assert.ok('docs' in scoped);
    assert.deepEqual(
      scoped.docs.map((p) => p.path),
      ['20-guides/a.md'],
    );
    const found = await mapData(r.root, { search: 'second guides' });
    assert.ok('results' in found);
    assert.equal(found.results[0]?.target, '20-guides/a');
    assert.deepEqual(
      d.notices?.map((n) => [n.kind, n.path, n.message]),
      [
        [
          'name-collision',
          '10-guides/01-a.md',
          'the target "guides/a" belongs to 10-guides/a.md, so this page is read as "10-guides/01-a"',
        ],
        [
          'name-collision',
          '20-guides/',
          'the region name "guides" belongs to 10-guides/, so this folder is the region "20-guides"',
        ],
        ['name-collision', 'notes.MD', 'the target "notes" belongs to notes.md, so this page is read as "notes.MD"'],
      ],
    );
    const region = await mapData(r.root, { target: '20-guides' });
    assert.ok('notices' in region);
    assert.deepEqual(
      region.notices?.map((n) => n.path),
      ['20-guides/'],
    );
  });
  it('drove map through success and failure', () => assertDriven(['map']));
});
