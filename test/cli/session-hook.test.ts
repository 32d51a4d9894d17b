// `discern hook session-start`, the SessionStart hook refresh wires into .claude/settings.json: Claude Code
// and VS Code (which reads the same file and parses the hook's stdout as JSON) both take its output, so it
// must be one JSON document with status's Markdown as the context, and exit 0 even where status refuses.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../helpers/cli.js';
import { scratchRepo, tempDir, type ScratchRepo } from '../helpers/scratch-repo.js';

const repos: ScratchRepo[] = [];
after(() => repos.forEach((r) => r.cleanup()));

interface HookOutput {
  hookSpecificOutput: { hookEventName: string; additionalContext: string };
}

function hookOutput(stdout: string): HookOutput {
  assert.equal(stdout.trim().split('\n').length, 1, `one line of JSON, got:\n${stdout}`);
  const parsed = JSON.parse(stdout) as HookOutput;
  assert.deepEqual(Object.keys(parsed), ['hookSpecificOutput']);
  assert.deepEqual(Object.keys(parsed.hookSpecificOutput).sort(), ['additionalContext', 'hookEventName']);
  assert.equal(parsed.hookSpecificOutput.hookEventName, 'SessionStart');
  return parsed;
}

describe('discern hook session-start', () => {
  it("prints status's Markdown as the session's context, as JSON, and exits 0", async () => {
    const r = scratchRepo({ 'discern.toml': '[project]\nname = "hooked"\n' });
    repos.push(r);
    const run = await runCli(['hook', 'session-start'], { cwd: r.root });
    assert.equal(run.code, 0, run.stderr);
    const status = await runCli(['status', '--markdown'], { cwd: r.root });
    assert.equal(hookOutput(run.stdout).hookSpecificOutput.additionalContext, status.stdout.trimEnd());
  });

  it('outside a repository it still prints JSON (the refusal is the context) and exits 0', async () => {
    const run = await runCli(['hook', 'session-start'], { cwd: tempDir('discern-hook-') });
    assert.equal(run.code, 0, run.stderr);
    assert.match(hookOutput(run.stdout).hookSpecificOutput.additionalContext, /repository/i);
  });

  it('takes no format flag: it serves a protocol', async () => {
    const run = await runCli(['hook', 'session-start', '--json'], { cwd: tempDir('discern-hook-') });
    assert.equal(run.code, 2);
    assert.match(run.stdout, /--json does not apply: this command serves a protocol/);
  });
});
