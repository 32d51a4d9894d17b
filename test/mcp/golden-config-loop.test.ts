// The golden config loop, through the SDK's own client against the built server: on a Node repository with no
// discern.toml, get draft_config; submit a fixed draft with two mistakes to discern_validate_config and read
// both errors with their lines; get refine_config with that draft and find the same errors in it; submit the
// corrected draft; save it, commit it, and run discern_doctor and discern_done green. Then a red done, and
// diagnose_failure naming the failing diagnostic; and the prompts' own contract (listed with their arguments,
// refused without a required one).
//
// The loop's transcript, normalised (paths, handles, commits, versions, times), is the worked transcript in
// docs/10-guides/draft-a-config-with-an-agent.md: this test fails when they differ. `npm run transcript`
// rewrites the guide's copy from a fresh run (UPDATE_SNAPSHOTS=1) and regenerates the manual.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MCP_PROMPTS } from '../../generated/mcp-table.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { connectStdio, type Connected } from '../helpers/mcp-client.js';
import { resultValidator } from '../helpers/published-schema.js';
import { scratchRepo, type ScratchRepo } from '../helpers/scratch-repo.js';

const GUIDE = join(REPO_ROOT, 'docs/10-guides/draft-a-config-with-an-agent.md');
const START =
  '<!-- golden transcript: start (test/mcp/golden-config-loop.test.ts writes this; do not edit by hand) -->';
const END = '<!-- golden transcript: end -->';

/** The model's first draft: two mistakes, an unknown key (line 6) and a wrong type (line 14). */
const DRAFT = `[project]
name = "shop"

[repository]
trunk = "main"
default_branch = "main"

[jobs]
# package.json scripts
lint = "npm run lint"
test = "npm test"

[gate]
timeout = "10m"

[scopes.docs]
paths = ["docs/**"]
neutral = true
`;

/** The draft with both mistakes fixed. */
const CORRECTED = DRAFT.replace('default_branch = "main"\n', '').replace('timeout = "10m"', 'timeout = 600');

const FIXTURE: Record<string, string> = {
  'package.json': `${JSON.stringify({ name: 'shop', version: '1.0.0', private: true, scripts: { lint: 'node lint.js', test: 'node test.js' } }, null, 2)}\n`,
  'cart.js': 'exports.total = (prices) => prices.reduce((sum, price) => sum + price, 0);\n',
  'lint.js': "console.log('lint: 2 files, no problems');\n",
  'test.js':
    "const { total } = require('./cart.js');\nconst got = total([2, 3]);\nif (got !== 5) {\n  console.error(`cart.test: total([2, 3]) should be 5, got ${got}`);\n  process.exit(1);\n}\nconsole.log('cart.test: ok');\n",
  'docs/guide.md': '# Shop\n\nHow the shop computes a cart total.\n',
};

type ToolResult = {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};
type PromptResult = {
  description?: string;
  messages: {
    role: string;
    content: { type: string; text?: string; resource?: { uri: string; mimeType?: string; text?: string } };
  }[];
};

let repo: ScratchRepo;
let mcp: Connected;
const transcript: string[] = [];

before(async () => {
  repo = scratchRepo(FIXTURE);
  mcp = await connectStdio(repo.root);
});
after(async () => {
  await mcp.client.close();
  repo.cleanup();
});

async function callTool(name: string, args: Record<string, unknown>): Promise<ToolResult> {
  const result = (await mcp.client.callTool({ name, arguments: args })) as ToolResult;
  const envelope = result.structuredContent ?? {};
  const verb = String(envelope['verb'] ?? '');
  const pascal = verb
    .split(' ')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
  const validate = resultValidator(`Discern${pascal}McpToolResult`);
  assert.ok(validate(envelope), JSON.stringify(validate.errors));
  assert.equal(result.isError, envelope['ok'] !== true);
  return result;
}

async function getPrompt(name: string, args: Record<string, string>): Promise<PromptResult> {
  return (await mcp.client.getPrompt({ name, arguments: args })) as PromptResult;
}

function textOf(prompt: PromptResult): string {
  return prompt.messages.map((m) => m.content.text ?? '').join('');
}

// The transcript: each request and what came back, normalised so it depends on nothing but this test.
function normalise(text: string): string {
  return text
    .split(repo.root)
    .join('/home/you/shop')
    .replace(/R1-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{2}/g, 'R1-XXXX-XXXX-XX')
    .replace(/\b[0-9a-f]{7,64}\b/g, '<commit>')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
    .replace(/discern \d+\.\d+\.\d+\S*/g, 'discern <version>')
    .replace(/Node\.js v?\d+\.\d+\.\d+/g, 'Node.js <version>')
    .replace(/git \d+\.\d+[\d.]*\S*/g, 'git <version>')
    .replace(/\b\d+(\.\d+)? s\b/g, '<n> s');
}

function fence(text: string, language = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${language}\n${text.replace(/\n+$/, '')}\n${ticks}`;
}

/** The state part of a result's Markdown: its heading and verdict, before the first section or table. */
function statePart(markdown: string): string {
  const at = markdown.search(/\n(## |\| )/);
  return (at === -1 ? markdown : markdown.slice(0, at)).replace(/\n+$/, '');
}

let steps = 0;
function step(title: string, request: string, response: string): void {
  transcript.push(`### ${++steps}. ${title}`, '', request, '', response, '');
}

function toolRequest(name: string, args: Record<string, unknown>): string {
  const { toml, ...rest } = args;
  const shown = JSON.stringify(toml !== undefined ? { toml: '…the TOML below…', ...rest } : rest);
  return [
    `The agent calls \`${name}\` with \`${normalise(shown)}\`${toml !== undefined ? ':' : '.'}`,
    ...(typeof toml === 'string' ? ['', fence(toml, 'toml')] : []),
  ].join('\n');
}

function promptResponse(prompt: PromptResult): string {
  return prompt.messages
    .map((m) => {
      if (m.content.type === 'text')
        return `The client receives a \`${m.role}\` message:\n\n${fence(normalise(m.content.text ?? ''), 'markdown')}`;
      const r = m.content.resource;
      return `and an embedded resource \`${r?.uri ?? '?'}\` (${r?.mimeType ?? '?'}, ${Buffer.byteLength(r?.text ?? '', 'utf8')} bytes: the published schema, byte for byte).`;
    })
    .join('\n\n');
}

function toolResponse(result: ToolResult, whole: boolean): string {
  const markdown = result.content[0]?.text ?? '';
  const shown = whole ? markdown : `${statePart(markdown)}\n`;
  return `It answers (\`isError: ${result.isError === true}\`)${whole ? '' : ', opening with'}:\n\n${fence(normalise(shown), 'markdown')}`;
}

describe('the golden config loop', () => {
  it("draft_config hands over the schema, a worked example, the facts and setup's draft", async () => {
    const prompt = await getPrompt('draft_config', {});
    const text = textOf(prompt);
    assert.match(text, /- package\.json scripts: lint = `node lint\.js`; test = `node test\.js`/);
    assert.match(text, /- Documentation folders: docs\//);
    assert.match(text, /## Setup's draft from these facts[\s\S]*test = "npm test"/);
    assert.match(text, /## A worked example \(another project\)[\s\S]*\[scopes\.docs\]/);
    assert.match(text, /call discern_validate_config with the text as `toml`/);
    const attached = prompt.messages.find((m) => m.content.type === 'resource')?.content.resource;
    assert.equal(attached?.uri, 'discern://schema/config');
    assert.equal(
      attached?.text,
      readFileSync(join(REPO_ROOT, 'schema/discern-config.schema.json'), 'utf8'),
      'the exact published bytes',
    );
    transcript.push(
      `The repository: \`package.json\` with \`lint\` and \`test\` scripts, \`cart.js\`, \`test.js\`, \`lint.js\` and \`docs/guide.md\`, committed on \`main\`; no \`discern.toml\`.`,
      '',
    );
    step(
      'The user invokes `draft_config`',
      'The client calls `prompts/get` for `draft_config` with no arguments.',
      promptResponse(prompt),
    );
  });

  it('discern_validate_config reports both mistakes, each with its line and column', async () => {
    const args = { toml: DRAFT, path: repo.root };
    const result = await callTool('discern_validate_config', args);
    const envelope = result.structuredContent ?? {};
    assert.equal(envelope['ok'], false);
    assert.equal(envelope['error'], 'unknown_key');
    const data = envelope['data'] as {
      valid: boolean;
      errors: { path: string; line?: number; column?: number; kind?: string }[];
    };
    assert.equal(data.valid, false);
    assert.deepEqual(
      data.errors.map((e) => [e.kind, e.path, e.line, e.column]),
      [
        ['unknown_key', 'repository.default_branch', 6, 1],
        ['invalid_config', 'gate.timeout', 14, 1],
      ],
    );
    const diagnostics = envelope['diagnostics'] as {
      file: string;
      line: number;
      col: number;
      message: string;
      severity: string;
    }[];
    assert.deepEqual(
      diagnostics.map((d) => [d.file, d.line, d.col, d.severity, d.message]),
      [
        ['inline TOML', 6, 1, 'error', '`repository.default_branch` is not a key discern honours'],
        ['inline TOML', 14, 1, 'error', '`gate.timeout` must be an integer'],
      ],
    );
    step('The agent checks its draft', toolRequest('discern_validate_config', args), toolResponse(result, true));
  });

  it("refine_config carries the draft's errors with their lines, the doctor result and the last failed run", async () => {
    const prompt = await getPrompt('refine_config', { draft: DRAFT });
    const text = textOf(prompt);
    assert.match(text, /- line 6, column 1 `repository\.default_branch` \(error\): is not a key discern honours/);
    assert.match(text, /- line 14, column 1 `gate\.timeout` \(error\): must be an integer/);
    assert.match(text, /doctor: failed \(`no_project`\)/);
    assert.match(text, /No failed run is recorded for/);
    step(
      'The user invokes `refine_config` with the draft',
      'The client calls `prompts/get` for `refine_config` with `draft` set to the TOML above.',
      promptResponse(prompt),
    );
  });

  it('the corrected draft is valid, with the configuration and the stages it would run', async () => {
    const args = { toml: CORRECTED, path: repo.root };
    const result = await callTool('discern_validate_config', args);
    const envelope = result.structuredContent ?? {};
    assert.equal(envelope['ok'], true, JSON.stringify(envelope));
    const data = envelope['data'] as {
      valid: boolean;
      errors: unknown[];
      config: { repository: { trunk: string } };
      stages: { stage: string; jobs: { name: string }[] }[];
    };
    assert.equal(data.valid, true);
    assert.deepEqual(data.errors, []);
    assert.equal(data.config.repository.trunk, 'main');
    assert.deepEqual(
      data.stages.map((s) => [s.stage, s.jobs.map((j) => j.name)]),
      [['check, test and standards', ['lint', 'test']]],
    );
    step(
      'The agent checks the corrected draft',
      toolRequest('discern_validate_config', args),
      toolResponse(result, true),
    );
  });

  it('saved and committed, discern_doctor and discern_done are green', async () => {
    repo.write('discern.toml', CORRECTED);
    repo.commit('Add discern.toml');
    transcript.push(
      `The agent saves the text as \`discern.toml\` with its own file tools and commits it (\`git add discern.toml && git commit -m "Add discern.toml"\`): discern_validate_config writes nothing.`,
      '',
    );
    const doctor = await callTool('discern_doctor', {});
    assert.equal(doctor.structuredContent?.['ok'], true, JSON.stringify(doctor.structuredContent));
    step('The agent runs the doctor', toolRequest('discern_doctor', {}), toolResponse(doctor, false));
    const done = await callTool('discern_done', {});
    assert.equal(done.structuredContent?.['ok'], true, JSON.stringify(done.structuredContent));
    assert.match(done.content[0]?.text ?? '', /discern Proof: main @ /);
    step('The agent proves the commit', toolRequest('discern_done', {}), toolResponse(done, false));
  });

  it('matches the worked transcript in the guide (UPDATE_SNAPSHOTS=1 rewrites it)', () => {
    const actual = `${transcript.join('\n').replace(/\n+$/, '')}\n`;
    const guide = readFileSync(GUIDE, 'utf8');
    const start = guide.indexOf(START);
    const end = guide.indexOf(END);
    assert.ok(start !== -1 && end > start, `${GUIDE} has no transcript markers`);
    const current = guide.slice(start + START.length + 1, end);
    if (process.env['UPDATE_SNAPSHOTS'] === '1') {
      writeFileSync(GUIDE, `${guide.slice(0, start + START.length)}\n${actual}${guide.slice(end)}`);
      return;
    }
    if (current !== actual) {
      const written = join(tmpdir(), 'golden-config-loop.md');
      writeFileSync(written, actual);
      const lines = actual.split('\n');
      const expected = current.split('\n');
      const at = lines.findIndex((line, i) => line !== expected[i]);
      assert.fail(
        `the loop's transcript differs from the guide's at line ${at + 1}:\n  guide:  ${expected[at] ?? '(end)'}\n  actual: ${lines[at] ?? '(end)'}\nThe whole transcript is in ${written}. If the change is intended, run \`npm run transcript\` and commit the guide.`,
      );
    }
  });
});

describe('prompts', () => {
  it('are listed in spec order with their arguments', async () => {
    const { prompts } = await mcp.client.listPrompts();
    assert.deepEqual(
      prompts.map((p) => [p.name, (p.arguments ?? []).map((a) => `${a.name}${a.required ? '' : '?'}`)]),
      [
        ['draft_config', ['path?']],
        ['refine_config', ['draft', 'path?']],
        ['land_change', ['path?']],
        ['diagnose_failure', ['path?', 'handle?']],
      ],
    );
    for (const p of prompts) {
      const spec = MCP_PROMPTS.find((s) => s.name === p.name);
      assert.equal(p.title, spec?.title);
      assert.equal(p.description, spec?.description);
      for (const a of p.arguments ?? []) assert.ok(a.description && a.description.length > 10, `${p.name} ${a.name}`);
    }
  });
  it('refine_config without draft is refused with an invalid-params error naming the argument, and the server stays up', async () => {
    await assert.rejects(getPrompt('refine_config', {}), (error: Error & { code?: number }) => {
      assert.equal(error.code, -32602);
      assert.match(error.message, /Invalid arguments for prompt refine_config: the argument `draft` is required/);
      return true;
    });
    await assert.rejects(getPrompt('refine_config', { draft: '' }), /the argument `draft` is required/);
    await assert.rejects(
      getPrompt('draft_config', { path: 'relative/dir' }),
      /`path` must be an absolute path; "relative\/dir" is not/,
    );
    await assert.rejects(
      getPrompt('draft_config', { colour: 'blue' }),
      /`colour` is not an argument of draft_config \(it takes `path`\)/,
    );
    await assert.rejects(getPrompt('diagnose_failure', { handle: 'nope' }), /`handle` must be a progress handle/);
    await assert.rejects(getPrompt('no_such_prompt', {}), /Prompt no_such_prompt not found/);
    assert.equal(
      textOf(await getPrompt('draft_config', { path: '' })).length > 0,
      true,
      'an empty optional argument counts as absent',
    );
  });
  it('refine_config shows the saved discern.toml beside a draft that changes it (the golden loop saved one)', async () => {
    const changed = textOf(await getPrompt('refine_config', { draft: '[project]\nname = "shop"\n' }));
    assert.match(changed, /## The saved discern\.toml \(what the project runs with now\)\n\n```toml\n[\s\S]*\[jobs\]/);
    const saved = readFileSync(join(repo.root, 'discern.toml'), 'utf8');
    const same = textOf(await getPrompt('refine_config', { draft: saved }));
    assert.match(same, /The project's saved discern\.toml is this draft\./);
  });
  it('a path outside any checkout is refused by name', async () => {
    await assert.rejects(getPrompt('land_change', { path: tmpdir() }), /`path`: .* is not inside a git checkout/);
  });
  it('land_change shows where the checkout stands and the next step', async () => {
    const text = textOf(await getPrompt('land_change', {}));
    assert.match(
      text,
      /- the main checkout at `.*`, on branch `main` at [0-9a-f]{12}: 0 commits ahead of trunk `main`, 0 behind\./,
    );
    assert.match(text, /1\. discern_status — [\s\S]*5\. discern_accept — /);
    assert.match(text, /## Next\n\nThis is the trunk `main` itself/);
  });
  it('diagnose_failure after a red done names the failing diagnostic; by handle too; a foreign handle is refused', async () => {
    repo.write('cart.js', 'exports.total = (prices) => prices.reduce((sum, price) => sum + price, 1);\n');
    repo.commit('Start totals at 1');
    const done = await callTool('discern_done', {});
    assert.equal(done.structuredContent?.['error'], 'gate_failed', JSON.stringify(done.structuredContent));
    const handle = (done.structuredContent?.['data'] as { handle: string }).handle;
    const text = textOf(await getPrompt('diagnose_failure', {}));
    assert.match(text, new RegExp(`Run \`${handle}\`: discern done on branch \`main\``));
    assert.match(text, /- test: failed \(stage check, test and standards\), ran `npm test`/);
    assert.match(text, /cart\.test: total\(\[2, 3\]\) should be 5, got 6/);
    assert.match(text, /reproduce: `npm test`/);
    assert.match(text, /## What to do\n\nFind the cause of the first failing diagnostic/);
    const byHandle = textOf(await getPrompt('diagnose_failure', { handle }));
    assert.match(byHandle, /cart\.test: total\(\[2, 3\]\) should be 5, got 6/);
    await assert.rejects(getPrompt('diagnose_failure', { handle: 'R1-0000-0000-00' }), /`handle`: /);
  });
  it('diagnose_failure with no failed run says so', async () => {
    const clean = scratchRepo(FIXTURE);
    try {
      const text = textOf(await getPrompt('diagnose_failure', { path: clean.root }));
      assert.match(text, /No failed run is recorded for/);
      assert.match(text, /## What to do\n\nThere is no failed run to diagnose/);
    } finally {
      clean.cleanup();
    }
  });
  it('the server wrote nothing but protocol on stdout', () => {
    assert.equal(mcp.stderr(), '');
  });
});
