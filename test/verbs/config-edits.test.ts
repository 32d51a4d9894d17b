// Edits of discern.toml never vanish and never leave the project: concurrent writers each land (a
// compare-and-swap redone from the bytes another left), and a discern.toml that is a link out of the project is
// refused with write_denied naming where it leads, the file there untouched. Real processes, real files.
import assert from 'node:assert/strict';
import { readFileSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { onlyJson, runCli } from '../helpers/cli.js';
import { scratchRepo, tempDir, type ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

const CONFIG = '[project]\nname = "edits"\n\n[jobs]\ntest = "true"\n';

describe('concurrent config edits', () => {
  it('eight `config set-job` processes at once all land their job', async () => {
    const r = scratchRepo({ 'discern.toml': CONFIG });
    repos.push(r);
    const names = Array.from({ length: 8 }, (_, i) => `job${i + 1}`);
    const runs = await Promise.all(
      names.map((name) =>
        runCli(['config', 'set-job', '--json', name, `echo ${name}`, '--stage', 'test'], { cwd: r.root }),
      ),
    );
    for (const run of runs) assert.equal(onlyJson(run)['ok'], true, run.stdout + run.stderr);
    const text = readFileSync(join(r.root, 'discern.toml'), 'utf8');
    for (const name of names)
      assert.match(text, new RegExp(`\\[jobs\\.${name}\\]\\nstage = "test"\\nrun = "echo ${name}"`));
    const check = await runCli(['validate-config', 'discern.toml', '--json'], { cwd: r.root });
    assert.equal(onlyJson(check)['ok'], true, check.stdout);
  });
});

describe('a discern.toml link that leads out of the project', () => {
  const outsideTarget = (): { r: ScratchRepo; target: string; before: string } => {
    const r = scratchRepo({ 'discern.toml': CONFIG });
    repos.push(r);
    const target = join(tempDir('discern-outside-'), 'elsewhere.toml');
    writeFileSync(target, CONFIG);
    unlinkSync(join(r.root, 'discern.toml'));
    symlinkSync(target, join(r.root, 'discern.toml'));
    return { r, target, before: readFileSync(target, 'utf8') };
  };

  for (const args of [
    ['config', 'set', 'project.name', 'changed'],
    ['config', 'set-job', 'lint', 'true', '--stage', 'check'],
    ['tidy', 'toml'],
  ]) {
    it(`\`${args.slice(0, 2).join(' ')}\` is refused and the file it leads to is untouched`, async () => {
      const { r, target, before } = outsideTarget();
      // Something for tidy to change, so only the refusal can leave the file as it was.
      writeFileSync(target, `${before}\n\n\n`);
      const run = await runCli([...args, '--json'], { cwd: r.root });
      const result = onlyJson(run);
      assert.equal(result['ok'], false, run.stdout);
      assert.equal(result['error'], args[0] === 'tidy' ? 'tidy_write_failed' : 'write_denied');
      assert.match(String(result['message']), /leads outside the project/);
      assert.ok(String(result['message']).includes(target), String(result['message']));
      assert.equal(readFileSync(target, 'utf8'), `${before}\n\n\n`);
    });
  }
});
