// `discern mcp` end to end with the SDK client over stdio: handshake and instructions, the tools/list
// contract (snapshot), every tool called with its envelope validated, bad inputs answered with an
// invalid_arguments envelope, resources read and confined, and a prompt exit on stdin EOF.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MCP_SCHEMAS, MCP_TOOLS } from '../../generated/mcp-table.js';
import { VERSION } from '../../generated/version.js';
import { DISCERN_BIN, REPO_ROOT } from '../helpers/cli.js';
import { connectStdio, type Connected } from '../helpers/mcp-client.js';
import { resultValidator } from '../helpers/published-schema.js';
import { MINIMAL_CONFIG, cleanEnv, scratchRepo, tempDir, type ScratchRepo } from '../helpers/scratch-repo.js';

const SNAPSHOT = new URL('./snapshots/tools-list.json', import.meta.url);
let repo: ScratchRepo;
let mcp: Connected;

before(async () => {
  repo = scratchRepo({
    'discern.toml': MINIMAL_CONFIG,
    'discern/map/10-guide/start.md': '# Start here\n\nThe project in one page.\n',
  });
  mcp = await connectStdio(repo.root);
});
after(async () => {
  await mcp.client.close();
  repo.cleanup();
});

type ToolResult = {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

async function callTool(name: string, args: Record<string, unknown>): Promise<ToolResult> {
  const result = (await mcp.client.callTool({ name, arguments: args })) as ToolResult;
  const envelope = result.structuredContent;
  assert.ok(envelope, 'structuredContent is always present');
  const verb = MCP_TOOLS.find((t) => t.name === name)?.verb ?? '';
  const validate = resultValidator(`Discern${verb.charAt(0).toUpperCase()}${verb.slice(1)}McpToolResult`);
  assert.ok(validate(envelope), JSON.stringify(validate.errors));
  assert.equal(result.isError, envelope['ok'] !== true, 'isError == !ok');
  const text = result.content[0]?.text ?? '';
  assert.equal(result.content[0]?.type, 'text');
  assert.throws(() => JSON.parse(text), 'content[0].text is authored Markdown, not JSON');
  if (envelope['ok'] !== true) {
    const hints = envelope['hints'] as string[];
    assert.ok(text.trimEnd().endsWith(hints[hints.length - 1] ?? '∅'), 'the Markdown ends with the next action');
  }
  return result;
}

describe('handshake', () => {
  it('identifies the server and its version', () => {
    assert.deepEqual(mcp.client.getServerVersion(), { name: 'discern', title: 'discern', version: VERSION });
  });
  it('gives instructions: discovery order, the work loop, resources and their tools, absolute paths', () => {
    const text = mcp.client.getInstructions() ?? '';
    const order = MCP_TOOLS.map((t) => text.indexOf(`. ${t.name}:`));
    assert.ok(
      order.every((i) => i > 0),
      text,
    );
    assert.deepEqual(
      [...order].sort((a, b) => a - b),
      order,
      'tools appear in tools/list order',
    );
    assert.match(text, /work loop/);
    assert.match(text, /discern:\/\/docs = discern_docs with no arguments/);
    assert.match(text, /Every resource has a tool that returns the same data/);
    assert.match(text, /an absolute path/);
    assert.match(text, /Relative paths are refused/);
    assert.ok(
      text.includes(
        `discern://schema/{name} serves each published JSON Schema exactly as the package ships it in schema/ (${MCP_SCHEMAS.map((s) => s.name).join(', ')})`,
      ),
      text,
    );
    assert.match(
      text,
      /Prompts the user can invoke, filled from this repository's live state: draft_config \(path\?\); refine_config \(draft, path\?\); land_change \(path\?\); diagnose_failure \(path\?, handle\?\)\./,
    );
  });
  it('advertises tools, resources and prompts', () => {
    const capabilities = mcp.client.getServerCapabilities() ?? {};
    assert.ok(capabilities.tools && capabilities.resources);
    assert.deepEqual(capabilities.prompts, { listChanged: false });
  });
});

describe('tools/list', () => {
  it('matches the committed snapshot (UPDATE_SNAPSHOTS=1 rewrites it)', async () => {
    const { tools } = await mcp.client.listTools();
    const actual = `${JSON.stringify(tools, null, 2)}\n`;
    if (process.env['UPDATE_SNAPSHOTS'] === '1') writeFileSync(SNAPSHOT, actual);
    assert.ok(existsSync(SNAPSHOT), 'no snapshot: run with UPDATE_SNAPSHOTS=1 once and commit it');
    const expected = readFileSync(SNAPSHOT, 'utf8').split('\n');
    const lines = actual.split('\n');
    const at = lines.findIndex((line, i) => line !== expected[i]);
    assert.ok(
      at === -1 && lines.length === expected.length,
      `tools/list differs from the snapshot at line ${at + 1}:\n  snapshot: ${expected[at] ?? '(end)'}\n  actual:   ${lines[at] ?? '(end)'}\nIf the change is intended, rerun with UPDATE_SNAPSHOTS=1 and commit the snapshot.`,
    );
  });
  it('declares every tool fully and portably', async () => {
    const { tools } = await mcp.client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      MCP_TOOLS.map((t) => t.name),
    );
    for (const tool of tools) {
      assert.ok(tool.title && tool.description, tool.name);
      const a = tool.annotations ?? {};
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const)
        assert.equal(typeof a[hint], 'boolean', `${tool.name} ${hint}`);
      assert.equal(tool.inputSchema.type, 'object');
      assert.equal((tool.inputSchema as Record<string, unknown>)['additionalProperties'], false);
      assert.equal(tool.outputSchema?.type, 'object');
      const wire = JSON.stringify([tool.inputSchema, tool.outputSchema]);
      assert.doesNotMatch(wire, /"\$schema"/, 'no $schema stamp');
      assert.doesNotMatch(wire, /"(prefixItems|unevaluatedProperties)"/);
      assert.doesNotMatch(wire, /x-discern-/);
    }
  });
});

describe('calling every tool', () => {
  it("discern_doctor in the server's checkout", async () => {
    const result = await callTool('discern_doctor', {});
    assert.equal(result.structuredContent?.['ok'], true, JSON.stringify(result.structuredContent));
  });
  it('discern_doctor aimed at another checkout by absolute path', async () => {
    const outside = tempDir('discern-mcp-outside-');
    const result = await callTool('discern_doctor', { path: outside, verbose: true });
    assert.equal(result.structuredContent?.['error'], 'no_repository');
  });
  it("discern_validate_config checks the project's own file, and a text", async () => {
    const file = await callTool('discern_validate_config', { file: 'discern.toml' });
    assert.equal(file.structuredContent?.['ok'], true, JSON.stringify(file.structuredContent));
    assert.deepEqual(
      (file.structuredContent?.['data'] as { source: { kind: string; path: string } }).source.path,
      `${repo.root}/discern.toml`,
    );
    const text = await callTool('discern_validate_config', { toml: '[jobs]\ntest = 5\n' });
    assert.equal(text.structuredContent?.['error'], 'invalid_config');
    assert.match(
      text.content[0]?.text ?? '',
      /\| 2 \| 1 \| `jobs\.test` \| error \| must be a string, an array or a table \|/,
    );
    const both = await callTool('discern_validate_config', { toml: '', file: 'discern.toml' });
    assert.equal(both.structuredContent?.['error'], 'invalid_value');
  });
  it('discern_verify answers for HEAD, which landed without discern: note_missing, read-only', async () => {
    const result = await callTool('discern_verify', {});
    assert.equal(result.structuredContent?.['error'], 'note_missing', JSON.stringify(result.structuredContent));
    assert.equal(result.isError, true);
    const signerLine = await callTool('discern_verify', { signer_line: true });
    assert.equal(signerLine.structuredContent?.['error'], 'invalid_arguments', "the signer line is the CLI's");
  });
  it('discern_docs index, page and search', async () => {
    assert.equal((await callTool('discern_docs', {})).structuredContent?.['ok'], true);
    const page = await callTool('discern_docs', { target: 'exit-codes' });
    assert.match(page.content[0]?.text ?? '', /^Manual page `reference\/exit-codes`/);
    const search = await callTool('discern_docs', { search: 'connect an agent' });
    const data = search.structuredContent?.['data'] as { results: { target: string }[] };
    assert.equal(data.results[0]?.target, 'guides/connect-a-coding-agent');
  });
  it("discern_status in the server's checkout, and aimed elsewhere by path", async () => {
    const here = await callTool('discern_status', {});
    assert.equal((here.structuredContent?.['data'] as { root: string }).root, repo.root);
    const other = scratchRepo({ 'discern.toml': MINIMAL_CONFIG });
    try {
      const there = await callTool('discern_status', { path: other.root, verbose: true });
      assert.equal(
        (there.structuredContent?.['data'] as { root: string; projection: { mode: string } }).root,
        other.root,
      );
      // The next call without path is aimed at the launch checkout again: path selects for one call only.
      const again = await callTool('discern_status', {});
      assert.equal((again.structuredContent?.['data'] as { root: string }).root, repo.root);
    } finally {
      other.cleanup();
    }
  });
  it('discern_impact, without the CLI-only has', async () => {
    const result = await callTool('discern_impact', {});
    assert.equal(result.structuredContent?.['ok'], true);
    const refused = await callTool('discern_impact', { has: 'docs' });
    assert.equal(refused.structuredContent?.['error'], 'invalid_arguments');
  });
  it("discern_checkpoints reports in the server's checkout; done refuses met with ci", async () => {
    const result = await callTool('discern_checkpoints', {});
    assert.equal(result.structuredContent?.['ok'], true);
    const data = result.structuredContent?.['data'] as { checkpoints: unknown[]; revision: { config: string } };
    assert.deepEqual(data.checkpoints, []);
    assert.equal(data.revision.config, 'merge-base');
    const refused = await callTool('discern_done', { ci: true, met: ['x'] });
    assert.equal(refused.structuredContent?.['error'], 'invalid_arguments');
    const cliOnly = await callTool('discern_done', { unmet_id: ['x'], why: ['y'] });
    assert.equal(
      cliOnly.structuredContent?.['error'],
      'invalid_arguments',
      'the CLI-only spelling of unmet is not an MCP input',
    );
  });
  it('discern_coupling, for a named file and refusing one outside the project', async () => {
    const result = await callTool('discern_coupling', { file: ['discern.toml'] });
    assert.equal(result.structuredContent?.['ok'], true);
    assert.equal((result.structuredContent?.['data'] as { mode?: string } | undefined)?.mode, 'query');
    const refused = await callTool('discern_coupling', { file: ['/etc/hostname'] });
    assert.equal(refused.structuredContent?.['error'], 'invalid_value');
  });
  it('discern_map index, page and search', async () => {
    const index = await callTool('discern_map', {});
    assert.equal((index.structuredContent?.['data'] as { count: number }).count, 1);
    const page = await callTool('discern_map', { target: 'guide/start' });
    assert.equal(
      (page.structuredContent?.['data'] as { doc: { content: string } }).doc.content,
      '# Start here\n\nThe project in one page.\n',
    );
    const search = await callTool('discern_map', { search: 'project page' });
    assert.equal(
      (search.structuredContent?.['data'] as { results: { target: string }[] }).results[0]?.target,
      'guide/start',
    );
  });
  it("discern_prepare, discern_test, discern_done and discern_progress in the server's checkout", async () => {
    const prepared = await callTool('discern_prepare', {});
    assert.equal(prepared.structuredContent?.['ok'], true, JSON.stringify(prepared.structuredContent));
    const tested = await callTool('discern_test', {});
    assert.equal(tested.structuredContent?.['ok'], true, JSON.stringify(tested.structuredContent));
    const handle = (tested.structuredContent?.['data'] as { handle: string }).handle;
    assert.match(handle, /^R1-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{2}$/);
    const read = await callTool('discern_progress', { handle });
    assert.equal((read.structuredContent?.['data'] as { outcome: string }).outcome, 'completed');
    const done = await callTool('discern_done', { dry_run: true });
    assert.equal(done.structuredContent?.['dry_run'], true, JSON.stringify(done.structuredContent));
    const proven = await callTool('discern_done', {});
    assert.equal(proven.structuredContent?.['ok'], true, JSON.stringify(proven.structuredContent));
    assert.match(proven.content[0]?.text ?? '', /discern Proof: main @ /);
  });
  it('discern_standards measures by path, refuses inputs its action does not take, and proposes a batch', async () => {
    const standards = `${MINIMAL_CONFIG}\n[standards.coverage]\ndirection = "up"\nlimit = 80\nmargin = 2\nrun = "echo 'DISCERN_METRIC coverage 90'"\n`;
    const other = scratchRepo({ 'discern.toml': standards });
    try {
      const measured = await callTool('discern_standards', { action: 'measure', path: other.root });
      assert.equal(measured.structuredContent?.['ok'], true, JSON.stringify(measured.structuredContent));
      const data = measured.structuredContent?.['data'] as {
        standards: { name: string; pin_target: number }[];
        handle: string;
      };
      assert.deepEqual(
        data.standards.map((s) => [s.name, s.pin_target]),
        [['coverage', 88]],
      );
      assert.match(data.handle, /^R1-/);
      const mixed = await callTool('discern_standards', {
        action: 'propose',
        pin: true,
        proposals: [{ name: 'coverage', reason: 'why' }],
        path: other.root,
      });
      assert.equal(mixed.structuredContent?.['error'], 'invalid_arguments', JSON.stringify(mixed.structuredContent));
      const missing = await callTool('discern_standards', { path: other.root });
      assert.equal(missing.structuredContent?.['error'], 'invalid_arguments');
      other.git('checkout', '-q', '-b', 'agent/loosen');
      other.write('discern.toml', standards.replace('limit = 80', 'limit = 70'));
      other.commit('loosen coverage');
      const proposed = await callTool('discern_standards', {
        action: 'propose',
        proposals: [{ name: 'coverage', reason: 'generated code counts now' }],
        path: other.root,
      });
      assert.equal(proposed.structuredContent?.['ok'], true, JSON.stringify(proposed.structuredContent));
      assert.match(proposed.content[0]?.text ?? '', /## Owner attention/);
    } finally {
      other.cleanup();
    }
  });
  it('discern_start previews an effort without moving the server (test/verbs/start.test.ts starts real ones)', async () => {
    const preview = await callTool('discern_start', { name: 'e2e', dry_run: true });
    assert.equal(preview.structuredContent?.['dry_run'], true, JSON.stringify(preview.structuredContent));
    assert.equal((preview.structuredContent?.['data'] as { branch: string }).branch, 'agent/e2e');
  });
  it("discern_update in the server's checkout: on the trunk itself there is nothing to merge", async () => {
    const result = await callTool('discern_update', { dry_run: true });
    assert.equal(result.structuredContent?.['ok'], true, JSON.stringify(result.structuredContent));
    assert.equal((result.structuredContent?.['data'] as { behind: number }).behind, 0);
  });
  it('discern_accept from the main checkout needs a target naming an effort', async () => {
    const result = await callTool('discern_accept', { target: 'no-such-effort', dry_run: true });
    assert.equal(result.structuredContent?.['error'], 'unknown_target', JSON.stringify(result.structuredContent));
  });
  it('discern_await refuses a call naming no condition', async () => {
    const result = await callTool('discern_await', {});
    assert.equal(result.structuredContent?.['error'], 'invalid_value', JSON.stringify(result.structuredContent));
  });
  it("discern_refresh previews in the server's checkout and writes in another by path", async () => {
    const preview = await callTool('discern_refresh', { dry_run: true });
    assert.equal(preview.structuredContent?.['dry_run'], true, JSON.stringify(preview.structuredContent));
    assert.ok((preview.structuredContent?.['data'] as { changes: unknown[] }).changes.length > 0);
    const other = scratchRepo({ 'discern.toml': MINIMAL_CONFIG });
    try {
      const written = await callTool('discern_refresh', { path: other.root });
      assert.equal(written.structuredContent?.['ok'], true, JSON.stringify(written.structuredContent));
      assert.deepEqual((written.structuredContent?.['data'] as { mcp_wired: string[] }).mcp_wired, [
        '.mcp.json',
        '.codex/config.toml',
      ]);
      const again = await callTool('discern_refresh', { path: other.root });
      assert.deepEqual(again.structuredContent?.['steps'], [], 'a second refresh writes nothing');
    } finally {
      other.cleanup();
    }
  });
  it("discern_improvement audits the server's checkout, one category, and fails below min_score", async () => {
    const all = await callTool('discern_improvement', {});
    assert.equal(all.structuredContent?.['ok'], true);
    const map = await callTool('discern_improvement', { category: 'map' });
    assert.deepEqual(
      ((map.structuredContent?.['data'] as { categories: { name: string }[] }).categories ?? []).map((c) => c.name),
      ['map'],
    );
    const low = await callTool('discern_improvement', { min_score: 100 });
    assert.equal(low.structuredContent?.['error'], 'below_min_score');
  });
  it('discern_patterns reads the logbook these calls wrote; its lifecycle is CLI-only', async () => {
    const result = await callTool('discern_patterns', { stats: true });
    assert.equal(result.isError, false);
    const data = result.structuredContent?.['data'] as {
      population: { agent: number; human: number };
      logbook: { source: string };
    };
    assert.equal(data.logbook.source, 'active');
    assert.ok(data.population.agent > 0 && data.population.human === 0, "every MCP call is an agent's");
    const archive = await callTool('discern_patterns', { logbook_file: 'missing' });
    assert.equal(archive.structuredContent?.['error'], 'unknown_target');
    assert.ok(!MCP_TOOLS.some((t) => t.name.startsWith('discern_patterns_')));
  });
  it('every advertised tool was exercised', () => {
    assert.deepEqual(MCP_TOOLS.map((t) => t.name).sort(), [
      'discern_accept',
      'discern_await',
      'discern_checkpoints',
      'discern_coupling',
      'discern_docs',
      'discern_doctor',
      'discern_done',
      'discern_impact',
      'discern_improvement',
      'discern_map',
      'discern_patterns',
      'discern_prepare',
      'discern_progress',
      'discern_refresh',
      'discern_standards',
      'discern_start',
      'discern_status',
      'discern_test',
      'discern_update',
      'discern_validate_config',
      'discern_verify',
    ]);
  });
});

describe('bad inputs get an invalid_arguments envelope with a next action', () => {
  const cases: [string, string, Record<string, unknown>, RegExp][] = [
    ['an undeclared key', 'discern_docs', { search: 'x', verbose: true }, /`verbose` is not an accepted key/],
    ['a wrong type', 'discern_doctor', { verbose: 'yes' }, /`verbose` must be boolean/],
    ['a relative path', 'discern_doctor', { path: 'src' }, /`path` must be an absolute path/],
    ['a NUL byte in path', 'discern_doctor', { path: '/tmp/a\u0000b' }, /`path` must be an absolute path/],
    ['an empty search', 'discern_docs', { search: '' }, /`search` must NOT have fewer than 1 characters/],
  ];
  for (const [name, tool, args, message] of cases) {
    it(name, async () => {
      const result = await callTool(tool, args);
      const envelope = result.structuredContent ?? {};
      assert.equal(envelope['error'], 'invalid_arguments');
      assert.match(String(envelope['message']), message);
      assert.match((envelope['hints'] as string[]).at(-1) ?? '', /inputSchema of discern_\w+ in tools\/list/);
    });
  }
  it('the server is still up afterwards', async () => {
    assert.equal((await callTool('discern_docs', { search: 'doctor' })).structuredContent?.['ok'], true);
  });
});

describe('resources', () => {
  it('lists the index, every page, and the template', async () => {
    const { resources } = await mcp.client.listResources();
    assert.ok(resources.some((r) => r.uri === 'discern://docs' && r.mimeType === 'application/json'));
    assert.ok(resources.some((r) => r.uri === 'discern://docs/guides/connect-a-coding-agent'));
    const { resourceTemplates } = await mcp.client.listResourceTemplates();
    assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate).sort(), [
      'discern://docs/{+target}',
      'discern://map/{+target}',
      'discern://schema/{name}',
      'discern://skills/{name}',
    ]);
  });
  it('discern://schema/{name} serves every published schema byte for byte, and lists them', async () => {
    const published = readdirSync(join(REPO_ROOT, 'schema')).sort();
    assert.deepEqual(MCP_SCHEMAS.map((s) => s.file).sort(), published, 'every file in schema/ is a resource');
    const { resources } = await mcp.client.listResources();
    for (const schema of MCP_SCHEMAS) {
      assert.ok(
        resources.some((r) => r.uri === schema.uri && r.mimeType === 'application/json'),
        schema.uri,
      );
      const read = await mcp.client.readResource({ uri: schema.uri });
      const content = read.contents[0] as { text: string; mimeType: string };
      assert.equal(content.mimeType, 'application/json');
      assert.equal(content.text, readFileSync(join(REPO_ROOT, 'schema', schema.file), 'utf8'), schema.uri);
    }
    for (const name of [
      'config',
      'results',
      'proof-note',
      'exception-note',
      'progress-line',
      'mcp-tools',
      'cli',
      'conventions',
    ])
      assert.ok(
        MCP_SCHEMAS.some((s) => s.name === name),
        name,
      );
  });
  it('discern://instructions and discern://skills/{name} serve the built-in text refresh compiles and materialises', async () => {
    const { BUILTIN_INSTRUCTIONS, BUILTIN_SKILLS } = await import('../../generated/agent-assets.js');
    const read = await mcp.client.readResource({ uri: 'discern://instructions' });
    const content = read.contents[0] as { text: string; mimeType: string };
    assert.deepEqual([content.mimeType, content.text], ['text/markdown', BUILTIN_INSTRUCTIONS]);
    const { resources } = await mcp.client.listResources();
    assert.ok(BUILTIN_SKILLS.length >= 2);
    for (const skill of BUILTIN_SKILLS) {
      assert.ok(
        resources.some((r) => r.uri === `discern://skills/${skill.name}` && r.mimeType === 'text/markdown'),
        skill.name,
      );
      const page = await mcp.client.readResource({ uri: `discern://skills/${skill.name}` });
      assert.equal((page.contents[0] as { text: string }).text, skill.content);
    }
    await assert.rejects(
      mcp.client.readResource({ uri: 'discern://skills/..%2F..%2Fpackage.json' }),
      /there is no built-in skill/,
    );
    const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'schema/discern-mcp-tools.json'), 'utf8')) as {
      resources: { uri: string; names?: string[] }[];
    };
    assert.deepEqual(
      manifest.resources.find((r) => r.uri === 'discern://skills/{name}')?.names,
      BUILTIN_SKILLS.map((s) => s.name),
    );
  });
  const schemaEscapes: [string, RegExp][] = [
    ['discern://schema/nope', /there is no published schema "nope"; the schemas are .*config/],
    ['discern://schema/..%2Fconfig', /a schema name is one word, without \/ or \.\./],
    ['discern://schema/config%2F..%2F..%2Fpackage.json', /a schema name is one word/],
    ['discern://schema/%E0%A4%A', /not valid percent-encoding/],
    ['discern://schema/discern-config.schema.json', /there is no published schema/],
    ['discern://schema/%2E%2E', /not found/i],
  ];
  for (const [uri, message] of schemaEscapes) {
    it(`refuses ${uri}`, async () => {
      await assert.rejects(mcp.client.readResource({ uri }), (error: Error) => message.test(error.message));
    });
  }
  it('discern://status is the same bounded data as discern_status with no arguments', async () => {
    const read = await mcp.client.readResource({ uri: 'discern://status' });
    const tool = await callTool('discern_status', {});
    assert.deepEqual(JSON.parse(String((read.contents[0] as { text: string }).text)), tool.structuredContent?.['data']);
  });
  it('discern://impact is the same data as discern_impact', async () => {
    const read = await mcp.client.readResource({ uri: 'discern://impact' });
    const tool = await callTool('discern_impact', {});
    assert.deepEqual(JSON.parse(String((read.contents[0] as { text: string }).text)), tool.structuredContent?.['data']);
  });
  it('discern://map is the map index; discern://map/{+target} a page; the template lists the pages', async () => {
    const read = await mcp.client.readResource({ uri: 'discern://map' });
    const tool = await callTool('discern_map', {});
    assert.deepEqual(JSON.parse(String((read.contents[0] as { text: string }).text)), tool.structuredContent?.['data']);
    const page = await mcp.client.readResource({ uri: 'discern://map/guide/start' });
    assert.equal((page.contents[0] as { text: string }).text, '# Start here\n\nThe project in one page.\n');
    const { resources } = await mcp.client.listResources();
    assert.ok(resources.some((r) => r.uri === 'discern://map/guide/start'));
    await assert.rejects(mcp.client.readResource({ uri: 'discern://map/..%2F..%2Fdiscern.toml' }));
  });
  it("whole .. segments are resolved by URL normalisation, within the resource's own root", async () => {
    const page = await mcp.client.readResource({ uri: 'discern://map/other/../guide/start' });
    assert.equal((page.contents[0] as { text: string }).text, '# Start here\n\nThe project in one page.\n');
    await assert.rejects(mcp.client.readResource({ uri: 'discern://map/../../discern.toml' }), (error: Error) =>
      /has no page or region "discern.toml"/.test(error.message),
    );
  });
  it('discern://config is the resolved configuration doctor --verbose reports', async () => {
    const read = await mcp.client.readResource({ uri: 'discern://config' });
    const tool = await callTool('discern_doctor', { verbose: true });
    const config = JSON.parse(String((read.contents[0] as { text: string }).text)) as { repository: { trunk: string } };
    assert.deepEqual(config, (tool.structuredContent?.['data'] as { config: unknown }).config);
    assert.equal(config.repository.trunk, 'main');
  });
  it('discern://config answers where the trunk branch does not exist, and refuses outside a project', async () => {
    const feature = scratchRepo({ 'discern.toml': MINIMAL_CONFIG });
    feature.git('branch', '-m', 'main', 'feature');
    const fresh = scratchRepo({ 'discern.toml': MINIMAL_CONFIG }, { commit: false });
    const outside = tempDir('discern-mcp-config-outside-');
    const servers: Connected[] = [];
    try {
      for (const checkout of [feature.root, fresh.root]) {
        const server = await connectStdio(checkout);
        servers.push(server);
        const read = await server.client.readResource({ uri: 'discern://config' });
        const config = JSON.parse(String((read.contents[0] as { text: string }).text)) as {
          project: { name: string };
          repository: { trunk: string; trunk_source: string };
          jobs: unknown[];
        };
        assert.deepEqual(
          [config.project.name, config.repository.trunk, config.repository.trunk_source],
          ['Scratch', 'main', 'config'],
          checkout,
        );
        assert.deepEqual(config.jobs, [{ name: 'test', stage: 'test', commands: ['git --version'] }]);
      }
      const nowhere = await connectStdio(outside);
      servers.push(nowhere);
      await assert.rejects(nowhere.client.readResource({ uri: 'discern://config' }), (error: Error) =>
        /not inside a git checkout/.test(error.message),
      );
    } finally {
      for (const server of servers) await server.client.close();
      feature.cleanup();
      fresh.cleanup();
      rmSync(outside, { recursive: true, force: true });
    }
  });
  it('discern://docs is the same data as discern_docs with no arguments', async () => {
    const read = await mcp.client.readResource({ uri: 'discern://docs' });
    const tool = await callTool('discern_docs', {});
    assert.deepEqual(JSON.parse(String((read.contents[0] as { text: string }).text)), tool.structuredContent?.['data']);
  });
  it('discern://docs/{+target} is the page Markdown, also percent-encoded', async () => {
    const tool = await callTool('discern_docs', { target: 'guides/connect-a-coding-agent' });
    const content = (tool.structuredContent?.['data'] as { doc: { content: string } }).doc.content;
    for (const uri of [
      'discern://docs/guides/connect-a-coding-agent',
      'discern://docs/guides%2Fconnect-a-coding-agent',
      'discern://docs/10-guides/connect-a-coding-agent.md',
    ]) {
      const read = await mcp.client.readResource({ uri });
      assert.equal((read.contents[0] as { text: string; mimeType: string }).text, content, uri);
      assert.equal((read.contents[0] as { mimeType: string }).mimeType, 'text/markdown');
    }
  });
  const escapes = [
    'discern://docs/nope-not-a-page',
    'discern://docs/..%2F..%2Fpackage.json',
    'discern://docs/%2E%2E/%2E%2E/package.json',
    'discern://docs/%252E%252E%252Fpackage.json',
    'discern://docs/%2Fetc%2Fpasswd',
    'discern://docs/guides%5C..%5C..%5Cpackage.json',
    'discern://docs/%E0%A4%A',
  ];
  for (const uri of escapes) {
    it(`refuses ${uri}`, async () => {
      await assert.rejects(mcp.client.readResource({ uri }), (error: Error) =>
        /discern docs: |not valid percent-encoding/i.test(error.message),
      );
    });
  }
});

describe('server-side result validation', () => {
  it('a result that breaks its own schema is never sent: it becomes internal_error with a crash record', async () => {
    const faulty = await connectStdio(repo.root, { DISCERN_FAULT: 'result:docs' });
    try {
      const result = (await faulty.client.callTool({
        name: 'discern_docs',
        arguments: { search: 'exit codes' },
      })) as ToolResult;
      const envelope = result.structuredContent ?? {};
      assert.equal(envelope['error'], 'internal_error');
      assert.equal('injected_fault' in envelope, false);
      assert.equal(result.isError, true);
      const record = /crash record is at (\S+?);/.exec(String((envelope['hints'] as string[]).at(-1)))?.[1] ?? '';
      assert.match(readFileSync(record, 'utf8'), /result failed its schema: .*must NOT have additional properties/);
    } finally {
      await faulty.client.close();
    }
  });
});

describe('lifecycle', () => {
  it('exits promptly when the client closes stdin', async () => {
    const child = spawn(process.execPath, [DISCERN_BIN, 'mcp'], {
      cwd: repo.root,
      env: cleanEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } },
    };
    child.stdin.write(`${JSON.stringify(initialize)}\n`);
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    const closedAt = Date.now();
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    assert.equal(code, 0);
    // Generous bound: behaviour, not speed (bench/ measures speed).
    assert.ok(Date.now() - closedAt < 5000, `exited ${Date.now() - closedAt} ms after EOF`);
  });
  it('writes nothing but protocol on stdout', async () => {
    assert.equal(mcp.stderr(), '');
  });
});
