// [generated.<name>] linguist_generated: refresh writes `<path> linguist-generated=true` for the table's paths
// into a region of .gitattributes it owns, git reads the attribute from it, a second refresh writes nothing, the
// project's own lines are never touched, and turning the key off (or uninstall) takes the region out again.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { onlyJson, runCli } from '../helpers/cli.js';
import { cleanEnv, scratchRepo, type ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

const CONFIG = (on: boolean): string =>
  `[project]\nname = "linguist"\nagents = ["codex"]\n\n[generated.types]\npaths = ["src/gen/**", "*.pb.go", "Makefile", "/snapshots/", "api.{ts,js}"]\nrun = "true"\nlinguist_generated = ${on}\n`;

/** What git says of linguist-generated for a path: `true` or `unspecified`. */
function attr(r: ScratchRepo, path: string): string {
  return r.git('check-attr', 'linguist-generated', '--', path).trim().split(': ').at(-1) ?? '';
}

async function refresh(root: string, ...args: string[]): Promise<Record<string, unknown>> {
  return onlyJson(await runCli(['refresh', ...args, '--json'], { cwd: root, env: cleanEnv() }));
}

describe('[generated] linguist_generated', () => {
  it('refresh owns a region of .gitattributes that git reads, and leaves the rest of the file alone', async () => {
    const r = scratchRepo({ 'discern.toml': CONFIG(true), '.gitattributes': '*.sh text eol=lf\n' });
    repos.push(r);
    const first = await refresh(r.root);
    assert.equal(first['ok'], true, JSON.stringify(first));
    const text = readFileSync(join(r.root, '.gitattributes'), 'utf8');
    assert.ok(text.startsWith('*.sh text eol=lf\n'), text);
    assert.match(text, /^# discern:begin linguist sha256:[0-9a-f]{16}: /m);
    assert.match(text, /^src\/gen\/\*\* linguist-generated=true$/m);
    assert.match(text, /^\*\.pb\.go linguist-generated=true$/m);
    assert.equal(attr(r, 'src/gen/a/b.ts'), 'true');
    assert.equal(attr(r, 'x/y.pb.go'), 'true');
    assert.equal(attr(r, 'src/main.ts'), 'unspecified');
    // A bare name is the root's file only, as for discern; a /seg/ pattern is that directory anywhere.
    assert.equal(attr(r, 'Makefile'), 'true');
    assert.equal(attr(r, 'sub/Makefile'), 'unspecified');
    assert.equal(attr(r, 'a/snapshots/x.snap'), 'true');
    // What .gitattributes cannot say is left out, with a hint.
    assert.doesNotMatch(text, /api\./);
    assert.ok(
      (first['hints'] as string[]).some((h) =>
        /"api\.\{ts,js\}" is not in \.gitattributes: \.gitattributes has no \{a,b\}/.test(h),
      ),
      JSON.stringify(first['hints']),
    );
    const again = await refresh(r.root);
    assert.deepEqual((again['data'] as { changes: unknown[] }).changes, [], 'a second refresh writes nothing');

    r.write('discern.toml', CONFIG(false));
    const off = await refresh(r.root);
    assert.equal(off['ok'], true, JSON.stringify(off));
    assert.equal(
      readFileSync(join(r.root, '.gitattributes'), 'utf8'),
      '*.sh text eol=lf\n',
      'back to the bytes it had',
    );
  });

  it('uninstall takes the region out, and a file that held only the region goes', async () => {
    const r = scratchRepo({ 'discern.toml': CONFIG(true) });
    repos.push(r);
    assert.equal((await refresh(r.root))['ok'], true);
    assert.ok(existsSync(join(r.root, '.gitattributes')));
    const removed = onlyJson(await runCli(['uninstall', '--json'], { cwd: r.root, env: cleanEnv() }));
    assert.equal(removed['ok'], true, JSON.stringify(removed));
    assert.ok(!existsSync(join(r.root, '.gitattributes')), 'nothing of the project was in it');
  });
});
