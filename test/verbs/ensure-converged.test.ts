// An install that has nothing to do is skipped, with the reason, on a real npm project: after a landing's ensure
// converged the main checkout, the next composition's integration worktree (packages copied from it) and the main
// checkout after a landing that changed no lockfile or manifest skip `npm install`; a landing that changes the
// manifest runs it in both, and an ensure with anything but installs always runs.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DiscernStep } from '../../generated/types.js';
import { installOnly } from '../../src/engine/efforts/warm/ensure-stamp.js';
import { call } from '../helpers/drive.js';
import { effort } from '../helpers/efforts.js';
import { cleanEnv, scratchRepo, type ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

const INSTALL = 'npm install --offline --no-audit --no-fund';

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, { cwd, env: cleanEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A project depending on a package packed into the repository, installed offline in its main checkout. */
function npmProject(ensure: string[], scripts: Record<string, string> = {}): ScratchRepo {
  const r = scratchRepo({
    'discern.toml': `[project]\nname = "converge"\n\n[repository]\nensure = ${JSON.stringify(ensure)}\n\n[jobs]\ntest = "test -f node_modules/tiny/index.js"\n`,
    '.gitignore': 'node_modules/\n',
  });
  repos.push(r);
  const tiny = join(r.root, 'vendor-src');
  mkdirSync(tiny);
  writeFileSync(join(tiny, 'package.json'), '{ "name": "tiny", "version": "1.0.0", "main": "index.js" }\n');
  writeFileSync(join(tiny, 'index.js'), 'module.exports = 1;\n');
  npm(['pack', '--pack-destination', r.root], tiny);
  execFileSync('rm', ['-rf', tiny]);
  writeFileSync(
    join(r.root, 'package.json'),
    `${JSON.stringify({ name: 'app', version: '1.0.0', dependencies: { tiny: 'file:tiny-1.0.0.tgz' }, scripts })}\n`,
  );
  npm(INSTALL.split(' ').slice(1), r.root);
  assert.ok(existsSync(join(r.root, 'node_modules', 'tiny', 'index.js')));
  r.git('add', '-A');
  r.git('commit', '-q', '-m', 'depend on tiny');
  return r;
}

function ensureSteps(steps: readonly DiscernStep[] | undefined): DiscernStep[] {
  return (steps ?? []).filter((s) => s.kind === 'repository-ensure');
}

/** An effort proven, the trunk moved under it, then accepted: a composed landing. */
async function composedLanding(r: ScratchRepo, id: string, change?: (path: string) => void): Promise<DiscernStep[]> {
  const work = await effort(r, id, `${id}.txt`, `${id}\n`, change === undefined);
  if (change) {
    change(work.path);
    work.git('add', '-A');
    work.git('commit', '-q', '-m', `${id} changes the manifest`);
    const done = await call('done', {}, work.path);
    assert.ok(done.ok, JSON.stringify(done, null, 2));
  }
  writeFileSync(join(r.root, `trunk-${id}.txt`), 'x\n');
  r.git('add', '-A');
  r.git('commit', '-q', '-m', `trunk before ${id}`);
  const landed = await call('accept', { target: id, confirmed: true }, r.root);
  assert.ok(landed.ok, JSON.stringify(landed, null, 2));
  assert.equal(
    (landed.data as { gate_validation?: { composed?: boolean } }).gate_validation?.composed,
    true,
    'the landing composed',
  );
  return ensureSteps(landed.steps);
}

describe('ensure that has nothing to do', () => {
  it('is skipped in the composition and after the landing once the main checkout is converged', async () => {
    const r = npmProject([INSTALL]);
    // No stamp yet: both run, and the landing's ensure stamps the main checkout.
    const first = await composedLanding(r, 'first');
    assert.deepEqual(
      first.map((s) => s.outcome),
      ['ok', 'ok'],
      JSON.stringify(first, null, 2),
    );
    assert.ok(existsSync(join(r.root, '.git', 'discern', 'ensure-stamp.json')));

    // Same lockfile, manifest and installed packages: nothing to install in either place.
    const second = await composedLanding(r, 'second');
    assert.deepEqual(
      second.map((s) => s.outcome),
      ['skipped', 'skipped'],
      JSON.stringify(second, null, 2),
    );
    assert.match(second[0]?.note ?? '', /nothing to do — its packages were copied from the main checkout/);
    assert.match(second[1]?.note ?? '', /nothing to do — the lockfiles, manifests and installed packages are those/);

    // A change to package.json: the integration worktree installs its own, and so does the main checkout after.
    const third = await composedLanding(r, 'third', (path) => {
      writeFileSync(
        join(path, 'package.json'),
        '{ "name": "app", "version": "1.0.1", "dependencies": { "tiny": "file:tiny-1.0.0.tgz" } }\n',
      );
      npm(INSTALL.split(' ').slice(1), path); // its lockfile follows, as a real change's would
    });
    assert.deepEqual(
      third.map((s) => s.outcome),
      ['ok', 'ok'],
      JSON.stringify(third, null, 2),
    );

    // Hand-edited packages in the main checkout (the install record changed): the next one installs again.
    writeFileSync(join(r.root, 'node_modules', '.package-lock.json'), '{"name":"app","lockfileVersion":3}\n');
    const fourth = await composedLanding(r, 'fourth');
    assert.deepEqual(
      fourth.map((s) => s.outcome),
      ['ok', 'ok'],
      JSON.stringify(fourth, null, 2),
    );
  });

  it('never skips an ensure with anything but package-manager installs', async () => {
    const r = npmProject([INSTALL, 'node -e 0']);
    await composedLanding(r, 'one');
    const two = await composedLanding(r, 'two');
    assert.ok(
      two.every((s) => s.outcome === 'ok'),
      JSON.stringify(two, null, 2),
    );
    assert.equal(existsSync(join(r.root, '.git', 'discern', 'ensure-stamp.json')), false);
  });

  it("never skips an install that runs the project's own install hooks", async () => {
    // A postinstall may read any file (a schema it generates from, sources a prepare builds): its inputs are unknown.
    const r = npmProject([INSTALL], {
      postinstall: "node -e \"require('fs').writeFileSync('node_modules/.hooked', 'x')\"",
    });
    await composedLanding(r, 'one');
    const two = await composedLanding(r, 'two');
    assert.deepEqual(
      two.map((s) => s.outcome),
      ['ok', 'ok'],
      JSON.stringify(two, null, 2),
    );
  });

  it('never skips where nothing installed is there to compare (no node_modules, as under Plug’n’Play)', async () => {
    const r = npmProject([INSTALL]);
    await composedLanding(r, 'one');
    // The main checkout loses its installed packages: the next integration worktree has nothing copied.
    execFileSync('rm', ['-rf', join(r.root, 'node_modules')]);
    const two = await composedLanding(r, 'two');
    assert.deepEqual(
      two.map((s) => s.outcome),
      ['ok', 'ok'],
      JSON.stringify(two, null, 2),
    );
  });

  it('counts as installs only the package managers’ install commands with options', () => {
    for (const yes of [
      ['npm install'],
      ['npm i --prefer-offline'],
      ['pnpm install --frozen-lockfile'],
      ['yarn'],
      ['yarn install --immutable'],
      ['bun install'],
    ])
      assert.equal(installOnly(yes), true, yes.join());
    for (const no of [
      [],
      ['npm ci'],
      ['npm install left-pad'],
      ['npm install && npm run build'],
      ['npm run build'],
      ['pip install -r requirements.txt'],
      ['npm install', 'make'],
    ])
      assert.equal(installOnly(no), false, no.join());
  });
});
