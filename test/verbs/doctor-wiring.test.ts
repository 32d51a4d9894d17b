// doctor's integration health on real scratch repositories and real processes: each configured agent's wiring
// is reported not wired, out of date, failing to start (with the fix for where the command comes from), or
// current with the measured start of the real server — the command is started once as the agent would.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DiscernDoctorData } from '../../generated/types.js';
import { call } from '../helpers/drive.js';
import { DISCERN_BIN } from '../helpers/cli.js';
import { scratchRepo, tempDir, type ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

function repo(config: string, files: Record<string, string> = {}): ScratchRepo {
  const r = scratchRepo({ 'discern.toml': config, ...files });
  repos.push(r);
  return r;
}

async function wiring(
  r: ScratchRepo,
  env: Record<string, string> = {},
): Promise<{ ok: boolean; checks: DiscernDoctorData['checks'] }> {
  const result = await call('doctor', {}, r.root, env);
  const data = result.data as DiscernDoctorData;
  return { ok: result.ok, checks: data.checks.filter((c) => c.name.startsWith('wiring:')) };
}

/** This checkout's built server, run by node: a command that starts from any project root. */
const REAL = `node ${DISCERN_BIN}`;

/** A PATH whose `discern` is this checkout's built server, as a global install of discern-cli puts it there. */
function pathWithDiscern(): Record<string, string> {
  const dir = tempDir('discern-path-');
  writeFileSync(join(dir, 'discern'), `#!/bin/sh\nexec "${process.execPath}" "${DISCERN_BIN}" "$@"\n`);
  chmodSync(join(dir, 'discern'), 0o755);
  return { PATH: `${dir}:${process.env['PATH'] ?? ''}` };
}

describe('doctor: integration health', () => {
  it('an agent configured but not wired is a warning whose fix is refresh', async () => {
    const r = repo('[project]\nname = "w"\n');
    const { ok, checks } = await wiring(r);
    assert.ok(ok);
    assert.deepEqual(
      checks.map((c) => [c.name, c.status]),
      [
        ['wiring:claude_code', 'warn'],
        ['wiring:codex', 'warn'],
      ],
    );
    assert.match(checks[0]?.detail ?? '', /\.mcp\.json has no discern server/);
    assert.match(checks[0]?.fix ?? '', /discern refresh/);
  });

  it('wired and current: ok, with the measured start of discern from the PATH, the real server', async () => {
    const r = repo('[project]\nname = "w"\nagents = ["claude_code", "codex", "copilot"]\n');
    const env = pathWithDiscern();
    assert.ok((await call('refresh', {}, r.root, env)).ok);
    const { ok, checks } = await wiring(r, env);
    assert.ok(ok, JSON.stringify(checks));
    assert.equal(checks.length, 3);
    for (const c of checks) {
      assert.equal(c.status, 'ok', JSON.stringify(c));
      assert.match(c.detail, /runs `discern mcp`, which starts in \d+ ms; current$/);
    }
  });

  it('[project] command is looked up, never started: doctor is read-only', async () => {
    const marker = join(tempDir('discern-marker-'), 'started');
    const r = repo(`[project]\nname = "w"\nagents = ["codex"]\ncommand = "sh ./starts.sh"\n`, {
      'starts.sh': `touch ${marker}\n`,
    });
    assert.ok((await call('refresh', {}, r.root)).ok);
    const { checks } = await wiring(r);
    assert.equal(checks[0]?.status, 'ok', JSON.stringify(checks));
    assert.match(
      checks[0]?.detail ?? '',
      /runs `sh \.\/starts\.sh mcp` \(\[project\] command, looked up and not started: /,
    );
    assert.ok(!existsSync(marker), "neither refresh nor doctor ran the project's command");
    const missing = repo(`[project]\nname = "w"\nagents = ["codex"]\ncommand = "no-such-discern-launcher"\n`);
    assert.ok((await call('refresh', {}, missing.root)).ok);
    const [check] = (await wiring(missing)).checks;
    assert.equal(check?.status, 'warn');
    assert.match(check?.detail ?? '', /whose program does not resolve from the project root here/);
    assert.match(check?.fix ?? '', /\[project\] command/);
  });

  it('out of date: a warning naming the files, whose fix is refresh', async () => {
    const r = repo(`[project]\nname = "w"\nagents = ["codex"]\ncommand = "${REAL}"\n`);
    assert.ok((await call('refresh', {}, r.root)).ok);
    writeFileSync(
      join(r.root, 'discern.toml'),
      `[project]\nname = "w"\nagents = ["codex"]\ncommand = "node --no-warnings ${DISCERN_BIN}"\n`,
    );
    const { checks } = await wiring(r);
    assert.equal(checks[0]?.status, 'warn', JSON.stringify(checks));
    assert.match(checks[0]?.detail ?? '', /^\.codex\/config\.toml differs from what refresh writes now/);
    assert.match(checks[0]?.fix ?? '', /discern refresh --dry-run/);
  });

  it("a teammate's clone where the wired command does not start is warned, with the fix for where it comes from", async () => {
    // discern is not on the test's PATH: the global install is missing.
    const global = repo('[project]\nname = "w"\nagents = ["claude_code"]\n');
    assert.ok((await call('refresh', {}, global.root)).ok);
    const one = await wiring(global);
    // discern itself works here, so the result stays ok, with the warning as a doctor-warning advisory.
    assert.equal(one.ok, true);
    assert.equal(one.checks[0]?.status, 'warn');
    assert.match(
      one.checks[0]?.detail ?? '',
      /`discern mcp`, which does not start from the project root here: `discern` is not on the PATH/,
    );
    assert.match(one.checks[0]?.fix ?? '', /npm install -g discern-cli/);

    // The project lists discern-cli but its install has not run: npx finds nothing and fetches nothing.
    const project = repo('[project]\nname = "w"\nagents = ["claude_code"]\n', {
      'package.json': '{ "name": "app", "devDependencies": { "discern-cli": "^0.1.0" } }\n',
    });
    assert.ok((await call('refresh', {}, project.root)).ok);
    const two = await wiring(project);
    assert.equal(two.checks[0]?.status, 'warn', JSON.stringify(two.checks));
    assert.match(two.checks[0]?.detail ?? '', /`npx --no-install discern mcp`, which does not start/);
    assert.match(two.checks[0]?.fix ?? '', /project's install/);
  });
});
