// Consent says where it came from, over the SDK's own MCP client against a real repository. A client that
// declares elicitation is asked for the person's answer even when the agent passes confirmed: true; a decline or a
// cancel leaves the trunk where it was (awaiting_consent); an approval is recorded as `elicited` with the client's
// clientInfo, in the result and in the landed Proof note; the form lists the policy changes and its approval
// stands for approve_policy. A client without elicitation keeps the reference's conversation consent. Each case
// fails when its guard is removed: without the question the declined call would land, and the consent would read
// conversation.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import { scratchRepo, type ScratchRepo } from '../helpers/scratch-repo.js';
import { show, trustHarness } from '../helpers/trust-harness.js';
import { connectStdio, type Connected } from '../helpers/mcp-client.js';
import { DISCERN_BIN, runCli } from '../helpers/cli.js';
import { execFileSync, spawnSync } from 'node:child_process';
import { cleanEnv } from '../helpers/scratch-repo.js';

const CONFIG = `[project]
name = "consent"

[jobs]
test = "test ! -f src/broken"

[scopes.docs]
paths = ["docs/**"]

[acceptance]
pre_authorized = ["docs"]
`;

const { repos, tool, elsewhere } = trustHarness('discern-consent-');

/** The person as a test plays them: each question is kept, and answered with the next queued answer. */
const asked: ElicitRequest['params'][] = [];
const answers: ElicitResult[] = [];
let person: Connected | undefined;

before(async () => {
  person = await connectStdio(
    elsewhere(),
    {},
    {
      clientInfo: { name: 'consent-client', version: '1.2.3' },
      elicit: (params) => {
        asked.push(params);
        return answers.shift() ?? { action: 'cancel' };
      },
    },
  );
});
after(async () => {
  await person?.client.close();
});

interface Effort {
  repo: ScratchRepo;
  path: string;
  branch: string;
  trunkBefore: string;
}

async function effortWith(files: Record<string, string>): Promise<Effort> {
  const repo = scratchRepo({ 'discern.toml': CONFIG, 'src/app.txt': 'ok\n', 'docs/index.md': '# Docs\n' });
  repos.push(repo);
  const started = await tool('discern_start', { name: 'work', path: repo.root });
  assert.equal(started.ok, true, show(started));
  const data = started.data as { path: string; branch: string };
  for (const [file, text] of Object.entries(files)) writeFileSync(join(data.path, file), text);
  repo.git('-C', data.path, 'add', '-A');
  repo.git('-C', data.path, 'commit', '-q', '-m', 'the change');
  const done = await tool('discern_done', { path: data.path });
  assert.equal(done.ok, true, show(done));
  return { repo, path: data.path, branch: data.branch, trunkBefore: tip(repo) };
}

function tip(repo: ScratchRepo): string {
  return repo.git('rev-parse', 'refs/heads/main').trim();
}

function askedNow(): ElicitRequest['params'] {
  const question = asked.pop();
  assert.ok(question, 'the client was asked');
  assert.equal(asked.length, 0, 'exactly one question');
  return question;
}

describe('a client that declares elicitation asks the person', () => {
  it('confirmed: true is not consent: a declined question lands nothing', async () => {
    const e = await effortWith({ 'src/app.txt': 'changed\n' });
    answers.push({ action: 'accept', content: { approve: false } });
    const accepted = await tool('discern_accept', { path: e.path, confirmed: true }, person);
    assert.equal(accepted.error, 'awaiting_consent', show(accepted));
    assert.match(accepted.message ?? '', /consent-client.*declined/);
    const question = askedNow();
    const message = String(question.message);
    assert.match(message, new RegExp(e.branch.replace(/[/]/g, '\\/')));
    assert.match(message, / on main/);
    assert.match(message, /Checks: /);
    assert.equal(tip(e.repo), e.trunkBefore, 'the trunk has not moved');
  });

  it('a cancelled question lands nothing', async () => {
    const e = await effortWith({ 'src/app.txt': 'changed\n' });
    answers.push({ action: 'cancel' });
    const accepted = await tool('discern_accept', { path: e.path, confirmed: true }, person);
    assert.equal(accepted.error, 'awaiting_consent', show(accepted));
    askedNow();
    assert.equal(tip(e.repo), e.trunkBefore);
  });

  it('an approval lands, recorded as elicited with the client, in the result and the Proof note', async () => {
    const e = await effortWith({ 'src/app.txt': 'changed\n' });
    answers.push({ action: 'accept', content: { approve: true } });
    const accepted = await tool('discern_accept', { path: e.path, confirmed: true }, person);
    assert.equal(accepted.ok, true, show(accepted));
    askedNow();
    assert.deepEqual(accepted.data?.['consent'], {
      source: 'elicited',
      client: { name: 'consent-client', version: '1.2.3' },
    });
    const landed = tip(e.repo);
    assert.notEqual(landed, e.trunkBefore);
    const note = JSON.parse(e.repo.git('notes', '--ref=refs/notes/discern', 'show', landed)) as { payload: string };
    const payload = JSON.parse(Buffer.from(note.payload, 'base64').toString('utf8')) as {
      acceptance?: { consent?: unknown };
    };
    assert.deepEqual(payload.acceptance?.consent, {
      source: 'elicited',
      client: { name: 'consent-client', version: '1.2.3' },
    });
    // status shows where the last landing's consent came from.
    const status = await tool('discern_status', { path: e.repo.root });
    assert.equal((status.data?.['landed_proof'] as { consent?: string }).consent, 'elicited', show(status.data));
    const text = await runCli(['status', '--markdown'], { cwd: e.repo.root });
    assert.match(text.stdout, /Landed on consent `elicited`/);
  });

  it('the question lists the policy changes, and its approval stands for approve_policy', async () => {
    const e = await effortWith({ 'discern.toml': CONFIG.replace('test ! -f src/broken', 'true') });
    answers.push({ action: 'accept', content: { approve: true } });
    const accepted = await tool('discern_accept', { path: e.path, confirmed: true }, person);
    assert.equal(accepted.ok, true, show(accepted));
    assert.match(String(askedNow().message), /changes main's policy[\s\S]*jobs\.test/);
    assert.equal(accepted.data?.['policy_approved'], true, show(accepted.data));
  });

  it('standing authority needs no question: a docs-only change lands pre_authorized', async () => {
    const e = await effortWith({ 'docs/index.md': '# Docs, edited\n' });
    const accepted = await tool('discern_accept', { path: e.path }, person);
    assert.equal(accepted.ok, true, show(accepted));
    assert.equal(asked.length, 0, 'nobody was asked');
    assert.equal((accepted.data?.['consent'] as { source: string }).source, 'pre_authorized');
  });
});

describe('a client without elicitation', () => {
  it('keeps the conversation consent of the reference, recorded as such', async () => {
    const e = await effortWith({ 'src/app.txt': 'changed\n' });
    const accepted = await tool('discern_accept', { path: e.path, confirmed: true });
    assert.equal(accepted.ok, true, show(accepted));
    assert.deepEqual(accepted.data?.['consent'], { source: 'conversation' });
  });
});

// The grant is the owner's act at a terminal: with standard input from /dev/null there is none, and nothing is
// granted; under a pseudo-terminal (util-linux `script`, as a person's terminal would be) it lands. The guard is
// the terminal check in accept: without it the first call lands.
const script = spawnSync('sh', ['-c', 'command -v script'], { encoding: 'utf8' }).stdout.trim();

describe('accept --grant', () => {
  it('without an interactive terminal is refused, and grants nothing', async () => {
    const e = await effortWith({ 'src/app.txt': 'changed\n' });
    const refused = await runCli(['accept', '--grant', '--json'], { cwd: e.path });
    const envelope = JSON.parse(refused.stdout) as { ok: boolean; error?: string; message?: string };
    assert.equal(envelope.error, 'precondition_failed', refused.stdout);
    assert.match(envelope.message ?? '', /interactive terminal/);
    assert.equal(tip(e.repo), e.trunkBefore, 'the trunk has not moved');
    const status = await tool('discern_status', { path: e.repo.root });
    assert.doesNotMatch(JSON.stringify(status.data), /"grant"/, 'no grant was recorded');
  });

  it('at a terminal it lands on the grant', async (t) => {
    if (script === '') {
      if (process.env['CI'] === 'true') assert.fail('util-linux script is missing: the terminal case cannot run');
      t.skip('util-linux `script` is not installed: the terminal case did not run');
      return;
    }
    const e = await effortWith({ 'src/app.txt': 'changed\n' });
    const command = [process.execPath, DISCERN_BIN, 'accept', '--grant', '--json'].map((a) => `'${a}'`).join(' ');
    const output = execFileSync(script, ['-qec', command, '/dev/null'], {
      cwd: e.path,
      env: cleanEnv({}),
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const json = output.slice(output.indexOf('{'), output.lastIndexOf('}') + 1);
    const envelope = JSON.parse(json) as { ok: boolean; data?: { consent?: unknown } };
    assert.equal(envelope.ok, true, output);
    assert.deepEqual(envelope.data?.consent, { source: 'grant' });
    assert.notEqual(tip(e.repo), e.trunkBefore);
  });
});

// Emergency approval goes to the person, not to the agent: an eliciting client asks them and the agent never
// holds the token; otherwise the preview names the terminal command with which the owner approves it themselves.
// The exception records which. The guards: the elicitation in the preview (without it the declined call returns
// a token), and the terminal check on --approve.
const EMERGENCY = `[project]
name = "emergency"

[jobs]
build = "test ! -f broken"
`;

async function redRepair(): Promise<Effort & { head: string }> {
  const repo = scratchRepo({ 'discern.toml': EMERGENCY, 'shared.txt': 'one\n' });
  repos.push(repo);
  const started = await tool('discern_start', { name: 'repair', path: repo.root });
  assert.equal(started.ok, true, show(started));
  const data = started.data as { path: string; branch: string };
  writeFileSync(join(data.path, 'fix.txt'), 'fixed\n');
  writeFileSync(join(data.path, 'broken'), 'x\n');
  repo.git('-C', data.path, 'add', '-A');
  repo.git('-C', data.path, 'commit', '-q', '-m', 'a repair that does not build');
  const done = await tool('discern_done', { path: data.path });
  assert.equal(done.error, 'gate_failed', show(done));
  const head = repo.git('-C', data.path, 'rev-parse', 'HEAD').trim();
  return { repo, path: data.path, branch: data.branch, trunkBefore: tip(repo), head };
}

function exceptionApproval(repo: ScratchRepo, commit: string): Record<string, unknown> {
  const note = JSON.parse(repo.git('notes', '--ref=refs/notes/discern-exceptions', 'show', commit)) as {
    payload: string;
  };
  const payload = JSON.parse(Buffer.from(note.payload, 'base64').toString('utf8')) as {
    approval: Record<string, unknown>;
  };
  return payload.approval;
}

const REASON = 'main does not build; this repairs it';

describe('emergency approval', () => {
  it('an eliciting client asks the person: a decline hands out no token and lands nothing', async () => {
    const e = await redRepair();
    answers.push({ action: 'decline' });
    const preview = await tool('discern_accept', { path: e.path, action: 'emergency', reason: REASON }, person);
    assert.equal(preview.error, 'awaiting_consent', show(preview));
    assert.match(String(askedNow().message), /WITHOUT passing Proof[\s\S]*Failed: build/);
    assert.equal((preview.data?.['emergency'] as Record<string, unknown>)['approval_token'], undefined);
    assert.equal(tip(e.repo), e.trunkBefore);
  });

  it('an approval asked by the client lands the exception, recorded as elicited with the client', async () => {
    const e = await redRepair();
    answers.push({ action: 'accept', content: { approve: true } });
    const landed = await tool('discern_accept', { path: e.path, action: 'emergency', reason: REASON }, person);
    assert.equal(landed.ok, true, show(landed));
    askedNow();
    assert.equal(tip(e.repo), e.head);
    const approval = exceptionApproval(e.repo, e.head);
    assert.equal(approval['consent'], 'elicited');
    assert.deepEqual(approval['client'], { name: 'consent-client', version: '1.2.3' });
  });

  it('without elicitation the preview names the terminal command; it needs a terminal, and there it lands as terminal', async (t) => {
    const e = await redRepair();
    const preview = await tool('discern_accept', { path: e.path, action: 'emergency', reason: REASON });
    assert.equal(preview.error, 'confirmation_required', show(preview));
    const command = /`(discern accept \S+ --action emergency --reason .+ --approve \S+)`/.exec(preview.message ?? '');
    assert.ok(command?.[1], `the preview names the terminal command:\n${preview.message}`);
    const token = String((preview.data?.['emergency'] as Record<string, unknown>)['approval_token']);
    const args = ['accept', 'repair', '--action', 'emergency', '--reason', REASON, '--approve', token, '--json'];
    const piped = await runCli(args, { cwd: e.repo.root });
    assert.equal((JSON.parse(piped.stdout) as { error?: string }).error, 'precondition_failed', piped.stdout);
    assert.equal(tip(e.repo), e.trunkBefore, 'nothing landed without a terminal');
    if (script === '') {
      if (process.env['CI'] === 'true') assert.fail('util-linux script is missing: the terminal case cannot run');
      t.skip('util-linux `script` is not installed: the terminal case did not run');
      return;
    }
    const line = [process.execPath, DISCERN_BIN, ...args].map((a) => `'${a}'`).join(' ');
    const output = execFileSync(script, ['-qec', line, '/dev/null'], {
      cwd: e.repo.root,
      env: cleanEnv({}),
      encoding: 'utf8',
      input: 'yes\n',
    });
    assert.equal(tip(e.repo), e.head, output);
    assert.equal(exceptionApproval(e.repo, e.head)['consent'], 'terminal');
  });
});
