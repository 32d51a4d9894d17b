// Confinement over MCP (docs/decisions/0039-confinement-and-redaction.md): every tool input that names a file,
// page, target, handle or ref, and every resource template, handed each spelling of a path that leads outside the
// project (.., encoded separators, backslashes, absolute paths, NUL, links inside the project that lead out).
// The answer is a classified refusal or a confined answer: never the outside secret, never /etc/passwd, and the
// outside directory is left byte for byte.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { join } from 'node:path';
import { connectStdio, type Connected } from '../helpers/mcp-client.js';
import { HOSTILE_BASE_CONFIG as CONFIG, hostileProject, leaks, type Hostile } from './hostile-fixture.js';

let h: Hostile;
let mcp: Connected;
let before0: Map<string, string>;
let calls = 0;

before(async () => {
  h = hostileProject(CONFIG);
  before0 = h.snapshot();
  mcp = await connectStdio(h.repo.root);
});
after(async () => {
  await mcp.client.close();
});

type ToolResult = {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

async function call(name: string, args: Record<string, unknown>): Promise<ToolResult> {
  calls++;
  const result = (await mcp.client.callTool({ name, arguments: args })) as ToolResult;
  const text = JSON.stringify(result);
  assert.ok(
    !leaks(text),
    `${name} ${JSON.stringify(args)} returned content from outside the project:\n${text.slice(0, 2000)}`,
  );
  assert.ok(result.structuredContent, `${name} ${JSON.stringify(args)}: an envelope, not a protocol error`);
  assert.notEqual(
    result.structuredContent['error'],
    'internal_error',
    `${name} ${JSON.stringify(args)} crashed: ${String(result.structuredContent['message'])}`,
  );
  return result;
}

/** The tool inputs that name something: each gets every probe (arrays get it as their one item). */
const NAMING_INPUTS: [tool: string, key: string, extra: Record<string, unknown>][] = [
  ['discern_map', 'target', {}],
  ['discern_map', 'search', {}],
  ['discern_docs', 'target', {}],
  ['discern_coupling', 'file', {}],
  ['discern_coupling', 'with', { file: ['src/a.ts'] }],
  ['discern_patterns', 'logbook_file', {}],
  ['discern_progress', 'handle', {}],
  ['discern_accept', 'target', { dry_run: true }],
  ['discern_start', 'name', { dry_run: true }],
  ['discern_start', 'from', { dry_run: true }],
  ['discern_update', 'from', { dry_run: true }],
  ['discern_await', 'green', { timeout: 1 }],
  ['discern_await', 'landed', { timeout: 1 }],
  ['discern_await', 'resume', { timeout: 1 }],
  ['discern_standards', 'names', { dry_run: true }],
];
const ARRAY_KEYS = new Set(['file', 'names']);

describe('MCP tool inputs that name a file, page, effort, handle or ref', () => {
  for (const [tool, key, extra] of NAMING_INPUTS) {
    it(`${tool}.${key}: every escape spelling is refused or confined`, async () => {
      const slugs = new Set<string>();
      for (const probe of [...h.probes, `x\u0000${h.probes[0] ?? ''}`]) {
        const result = await call(tool, { ...extra, [key]: ARRAY_KEYS.has(key) ? [probe] : probe });
        const envelope = result.structuredContent as { ok: boolean; error?: string };
        slugs.add(envelope.ok ? 'ok' : (envelope.error ?? '?'));
      }
      // Printed so a reader sees what each input answers (unknown_target, invalid_arguments, a confined miss …).
      console.log(`${tool}.${key}: ${[...slugs].sort().join(', ')}`);
    });
  }

  it('a validate_config file outside the project is read as the caller names it, never echoed line by line', async () => {
    // The one input documented to take any absolute path (a draft written anywhere): its parse errors name a
    // line and column, not the text; /etc/passwd is not TOML and nothing of it comes back.
    const result = await call('discern_validate_config', { file: '/etc/passwd' });
    assert.equal((result.structuredContent as { error?: string }).error, 'invalid_toml');
    for (const probe of h.probes) await call('discern_validate_config', { file: probe });
  });
});

describe('MCP `path`: it names the checkout to act in, and must be one', () => {
  it('a directory outside any checkout, a link to one, a relative or encoded path: classified refusals', async () => {
    const paths = [
      h.outside,
      join(h.repo.root, 'linkdir'),
      `${h.repo.root}/../${h.outside.split('/').pop() ?? ''}`,
      'relative/path',
      `${h.repo.root}/%2e%2e`,
      '/etc',
      '/etc/passwd',
      `${h.repo.root}\u0000/x`,
    ];
    const tools = [
      'discern_status',
      'discern_map',
      'discern_doctor',
      'discern_impact',
      'discern_coupling',
      'discern_checkpoints',
      'discern_patterns',
      'discern_progress',
      'discern_refresh',
      'discern_improvement',
      'discern_prepare',
      'discern_test',
      'discern_done',
      'discern_standards',
      'discern_validate_config',
    ];
    for (const tool of tools) {
      for (const path of paths) {
        const args: Record<string, unknown> = {
          path,
          ...(tool === 'discern_refresh' || tool === 'discern_done' || tool === 'discern_standards'
            ? { dry_run: true }
            : {}),
          ...(tool === 'discern_validate_config' ? { file: 'discern.toml' } : {}),
        };
        const result = await call(tool, args);
        const envelope = result.structuredContent as { ok: boolean; error?: string };
        const seen = JSON.stringify(envelope);
        // Whatever the answer, it is never about the outside directory: no result names it as its root.
        assert.ok(!seen.includes(`"root":"${h.outside}`), `${tool} ${path} took the outside directory for a project`);
        // A link inside the checkout to a folder outside it is that folder, as git sees it once it has changed
        // into it; `/repo/../elsewhere` is elsewhere. Neither is the checkout around the link.
        // validate_config checks a text and works outside any checkout by design (it reads, never writes).
        if (tool === 'discern_validate_config' && envelope.error !== 'internal_error') continue;
        assert.equal(envelope.ok, false, `${tool} with path ${path} acted: ${seen.slice(0, 400)}`);
        assert.ok(
          ['no_repository', 'invalid_arguments', 'no_project'].includes(envelope.error ?? ''),
          `${tool} ${path}: ${envelope.error}`,
        );
      }
    }
  });
});

describe('MCP resource templates', () => {
  it('discern://map/{+target}, docs/{+target}, schema/{name}, skills/{name}: no escape spelling reads outside', async () => {
    const outcomes = new Map<string, number>();
    for (const scheme of ['map', 'docs', 'schema', 'skills']) {
      for (const probe of h.probes) {
        for (const uri of [
          `discern://${scheme}/${probe}`,
          `discern://${scheme}/${encodeURI(probe)}`,
          `discern://${scheme}/${encodeURIComponent(probe)}`,
        ]) {
          calls++;
          let text: string;
          try {
            text = JSON.stringify(await mcp.client.readResource({ uri }));
            outcomes.set('read', (outcomes.get('read') ?? 0) + 1);
          } catch (error) {
            text = error instanceof Error ? error.message : String(error);
            outcomes.set('refused', (outcomes.get('refused') ?? 0) + 1);
          }
          assert.ok(!leaks(text), `${uri} returned content from outside the project:\n${text.slice(0, 2000)}`);
        }
      }
    }
    console.log(`resource reads: ${JSON.stringify(Object.fromEntries(outcomes))}`);
  });

  it('the map never follows its links: the linked page and directory are notices, not pages', async () => {
    const read = await mcp.client.readResource({ uri: 'discern://map' });
    const text = JSON.stringify(read);
    assert.ok(!leaks(text));
    assert.match(text, /symbolic-link/);
  });
});

describe('after every probe', () => {
  it('the outside directory is byte for byte what it was, and nothing ran', () => {
    assert.deepEqual(h.snapshot(), before0);
    console.log(`MCP calls and reads made: ${calls}`);
  });
});
