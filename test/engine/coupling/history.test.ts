// The pieces under the coupling verb, without a verb around them: the git log stream parser fed in arbitrary
// chunks (and on a real repository with awkward file names), the history index against a brute-force count,
// HEAD read from the ref files, and the built-in ignore list with its literal prefilter.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { HistoryBuilder } from '../../../src/engine/coupling/history.js';
import { LogParser, type LogCommit } from '../../../src/engine/coupling/log-parser.js';
import { readLogInto } from '../../../src/engine/coupling/read-log.js';
import { countCochanges } from '../../../src/engine/coupling/count.js';
import { BUILTIN_IGNORE, couplingSettings, requiredLiteral } from '../../../src/engine/coupling/settings.js';
import { compilePattern } from '../../../src/engine/scopes/index.js';
import { headFromFiles } from '../../../src/engine/git/head-commit.js';
import { cleanEnv, scratchRepo, type ScratchRepo } from '../../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

const STREAM =
  '\0' +
  'a'.repeat(40) +
  ' 2024-01-02T03:04:05+01:00 first subject with spaces\0\nsrc/a.ts\0dir with space/b.ts\0ünïcode/ß€.ts\0' +
  '\0' +
  'b'.repeat(40) +
  ' 2024-01-01T00:00:00+00:00 empty commit\0' +
  '\0' +
  'c'.repeat(40) +
  ' 2023-12-31T00:00:00Z \0\n\nstarts with newline\0' +
  '0'.repeat(40) +
  ' looks like a header\0';

describe('LogParser', () => {
  it('parses headers and paths whatever the chunk boundaries', () => {
    const bytes = Buffer.from(STREAM, 'utf8');
    const expected: LogCommit[] = [
      {
        sha: 'a'.repeat(40),
        date: '2024-01-02T03:04:05+01:00',
        subject: 'first subject with spaces',
        files: ['src/a.ts', 'dir with space/b.ts', 'ünïcode/ß€.ts'],
      },
      { sha: 'b'.repeat(40), date: '2024-01-01T00:00:00+00:00', subject: 'empty commit', files: [] },
      {
        sha: 'c'.repeat(40),
        date: '2023-12-31T00:00:00Z',
        subject: '',
        files: ['\nstarts with newline', `${'0'.repeat(40)} looks like a header`],
      },
    ];
    for (const size of [1, 2, 3, 7, 64, bytes.length]) {
      const got: LogCommit[] = [];
      const parser = new LogParser((c) => got.push(c));
      for (let i = 0; i < bytes.length; i += size) parser.push(bytes.subarray(i, i + size));
      parser.end();
      assert.deepEqual(got, expected, `chunks of ${size}`);
    }
  });
  it('reads a real history with awkward names, merges left out', async () => {
    const r = scratchRepo({ 'plain.ts': '1' });
    repos.push(r);
    r.write('with space.ts', '1');
    r.write('ünïcode/ß.ts', '1');
    r.write('quote"and\\backslash.ts', '1');
    r.commit('awkward names');
    r.git('checkout', '-q', '-b', 'side');
    r.write('side.ts', '1');
    r.commit('side');
    r.git('checkout', '-q', 'main');
    r.write('plain.ts', '2');
    r.commit('main moves');
    r.git('merge', '-q', '--no-ff', '-m', 'merge side', 'side');
    const builder = new HistoryBuilder();
    const read = await readLogInto(builder, 'HEAD', { cwd: r.root, env: cleanEnv() });
    assert.deepEqual(read, { ok: true });
    const history = builder.build('HEAD');
    assert.equal(history.commits, 4, 'the merge commit is not read');
    assert.deepEqual(history.metaLines.map((l) => l.split('\t')[2]).sort(), [
      'awkward names',
      'initial',
      'main moves',
      'side',
    ]);
    for (const name of ['with space.ts', 'ünïcode/ß.ts', 'quote"and\\backslash.ts', 'side.ts'])
      assert.ok(history.paths.includes(name), name);
  });
});

describe('the history index', () => {
  it('counts what a brute-force pass counts, for every max_commit_files', () => {
    // A pseudo-random history: 300 commits over 40 paths, sizes 1..60.
    let seed = 42;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const builder = new HistoryBuilder();
    const commits: string[][] = [];
    for (let c = 0; c < 300; c++) {
      const size = 1 + Math.floor(next() * next() * 60);
      const files = [...new Set(Array.from({ length: size }, () => `p${Math.floor(next() * 40)}`))];
      commits.push(files);
      builder.add(`sha${c}`, 'date', 'subject', files);
    }
    const history = builder.build('HEAD');
    for (const max of [1, 3, 10, 30, 1000]) {
      const analysed = commits.filter((f) => f.length <= max);
      const target = history.paths.indexOf('p7');
      const counts = countCochanges(history, { maxCommitFiles: max }, new Set([target]), [
        target,
        history.paths.indexOf('p9'),
      ]);
      assert.equal(counts.commits, analysed.length);
      assert.equal(counts.bulk, commits.length - analysed.length);
      for (const [id, path] of history.paths.entries())
        assert.equal(counts.revisions(id), analysed.filter((f) => f.includes(path)).length, `${path} at ${max}`);
      const row = counts.pairs.get(target);
      for (const [id, path] of history.paths.entries()) {
        if (path === 'p7') continue;
        assert.equal(row?.get(id) ?? 0, analysed.filter((f) => f.includes('p7') && f.includes(path)).length);
      }
      const together = commits
        .map((f, i) => (f.length <= max && f.includes('p7') && f.includes('p9') ? i : -1))
        .filter((i) => i >= 0);
      assert.deepEqual(counts.together, together, 'newest first');
    }
  });
});

describe('HEAD from the ref files', () => {
  it('a branch (loose or packed), a detached HEAD and an unborn branch, as git sees them', () => {
    const r = scratchRepo({});
    repos.push(r);
    const git = r.git('rev-parse', '--absolute-git-dir').trim();
    const head = r.git('rev-parse', 'HEAD').trim();
    assert.equal(headFromFiles(git, git), head);
    r.git('pack-refs', '--all');
    assert.equal(headFromFiles(git, git), head, 'from packed-refs');
    r.git('checkout', '-q', '--detach');
    assert.equal(headFromFiles(git, git), head);
    r.git('checkout', '-q', '--orphan', 'nothing-yet');
    assert.equal(headFromFiles(git, git), null);
  });
});

describe('the built-in ignore list', () => {
  const samples: [string, boolean][] = [
    ['package-lock.json', true],
    ['packages/web/package-lock.json', true],
    ['Cargo.lock', true],
    ['go.sum', true],
    ['CHANGELOG.md', true],
    ['packages/x/CHANGELOG.md', true],
    ['.github/ISSUE_TEMPLATE/bug.yml', true],
    ['.github/pull_request_template.md', true],
    ['.github/PULL_REQUEST_TEMPLATE/feature.md', true],
    ['.github/CODEOWNERS', true],
    ['src/lock.ts', false],
    ['src/changelog.ts', false],
    ['docs/history.md', false],
    ['.github/workflows/ci.yml', false],
  ];
  it('every pattern compiles, and matches plumbing only', () => {
    for (const pattern of BUILTIN_IGNORE) assert.ok(compilePattern(pattern).ok, pattern);
    const read = couplingSettings({});
    assert.ok(read.ok);
    for (const [path, ignored] of samples) assert.equal(read.settings.ignoredBy(path) !== undefined, ignored, path);
    const none = couplingSettings({ coupling: { ignore_builtin: false, ignore: ['docs/**'] } });
    assert.ok(none.ok);
    assert.equal(none.settings.ignoredBy('package-lock.json'), undefined);
    assert.equal(none.settings.ignoredBy('docs/history.md'), 'docs/**');
  });
  it("a pattern's literal is in every path it matches", () => {
    const table: [string, string][] = [
      ['**/package-lock.json', 'package-lock.json'],
      ['CHANGELOG*', 'CHANGELOG'],
      ['.github/ISSUE_TEMPLATE/**', '.github/ISSUE_TEMPLATE'],
      ['/fixtures/', 'fixtures'],
      ['./docs/*.md', 'docs'],
      ['src/{a,b}/x.ts', '/x.ts'.slice(1)],
      ['{a,{b,c}}x', ''],
      ['a\\*b', ''],
    ];
    for (const [pattern, literal] of table) assert.equal(requiredLiteral(pattern), literal, pattern);
    for (const pattern of BUILTIN_IGNORE) {
      const compiled = compilePattern(pattern);
      assert.ok(compiled.ok);
      for (const [path] of samples)
        if (compiled.test(path)) assert.ok(path.includes(requiredLiteral(pattern)), `${pattern} ${path}`);
    }
  });
});
