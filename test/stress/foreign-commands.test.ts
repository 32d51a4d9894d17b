// No command runs that did not come from the project's own discern.toml or the user's argv
// (docs/decisions/0039-confinement-and-redaction.md). Every string a tool takes, handed shell syntax that would
// create a marker file if any shell ever read it; file names with the same syntax in the tree the verbs read;
// and a discern.toml that is not the project's committed one (an uncommitted edit before the gate, one in a
// parent directory). No marker ever appears.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { MCP_TOOLS } from '../../generated/mcp-table.js';
import { runCli } from '../helpers/cli.js';
import { connectStdio, type Connected } from '../helpers/mcp-client.js';
import { cleanEnv, scratchRepo, tempDir, type ScratchRepo } from '../helpers/scratch-repo.js';

const toolsFile: unknown = JSON.parse(
  readFileSync(new URL('../../schema/discern-mcp-tools.json', import.meta.url), 'utf8'),
);
const markers = tempDir('discern-markers-');
const payloads = (tag: string): string[] => [
  `$(touch ${join(markers, `${tag}-dollar`)})`,
  `;touch ${join(markers, `${tag}-semicolon`)}`,
  `\`touch ${join(markers, `${tag}-backtick`)}\``,
  `x|touch ${join(markers, `${tag}-pipe`)}`,
  `x&&touch ${join(markers, `${tag}-and`)}`,
  `x\ntouch ${join(markers, `${tag}-newline`)}`,
  `'"; touch ${join(markers, `${tag}-quote`)}; echo "`,
];

const CONFIG = `[project]
name = "Commands"

[repository]
trunk = "main"

[jobs]
test = "true"

[scopes.docs]
paths = ["docs/**"]
`;

let repo: ScratchRepo;
let mcp: Connected;

before(async () => {
  repo = scratchRepo({
    'discern.toml': CONFIG,
    // File names that are shell syntax, in the tree status, coupling, impact and the map read.
    [`docs/$(touch ${markers.replaceAll('/', '_')}).md`]: '# odd name\n',
    'docs/`touch x`.md': '# odd name\n',
    'discern/map/10-guide/;touch y.md': '---\ntitle: Odd\n---\n# Odd\n',
  });
  repo.write('docs/$(touch z) changed.md', '# uncommitted\n');
  mcp = await connectStdio(repo.root);
});
after(async () => {
  await mcp.client.close();
});

function assertNoMarker(what: string): void {
  assert.deepEqual(readdirSync(markers), [], `${what}: a shell read an input`);
  assert.ok(
    !existsSync(join(repo.root, 'x')) && !existsSync(join(repo.root, 'y')) && !existsSync(join(repo.root, 'z')),
    `${what}: a file name was run`,
  );
}

type Schema = { properties?: Record<string, { type?: string | string[]; items?: { type?: string } }> };
const SCHEMAS = new Map(
  (toolsFile as { tools: { name: string; inputSchema: Schema }[] }).tools.map((t) => [t.name, t.inputSchema]),
);

describe('every string a tool takes is data, never shell text', () => {
  it('each tool, each string or string-array input, each payload', async () => {
    let calls = 0;
    for (const tool of MCP_TOOLS) {
      const props = SCHEMAS.get(tool.name)?.properties ?? {};
      for (const [key, schema] of Object.entries(props)) {
        if (key === 'path') continue;
        const isString = schema.type === 'string';
        const isList = schema.type === 'array' && schema.items?.type === 'string';
        if (!isString && !isList) continue;
        for (const payload of payloads(`${tool.name}-${key}`)) {
          // dry_run where a tool has it: the input is what is probed, not a landing or a new worktree.
          const args: Record<string, unknown> = {
            [key]: isList ? [payload] : payload,
            ...('dry_run' in props ? { dry_run: true } : {}),
            ...(tool.name === 'discern_await' ? { timeout: 1 } : {}),
          };
          calls++;
          const result = (await mcp.client.callTool({ name: tool.name, arguments: args })) as {
            structuredContent?: { error?: string };
          };
          assert.notEqual(
            result.structuredContent?.error,
            'internal_error',
            `${tool.name}.${key} = ${JSON.stringify(payload)} crashed`,
          );
          assertNoMarker(`${tool.name}.${key}`);
        }
      }
    }
    console.log(`tool calls with shell payloads: ${calls}`);
  });

  it('the verbs that read the tree (status, impact, coupling, map, done) treat odd file names as names', async () => {
    for (const tool of [
      'discern_status',
      'discern_impact',
      'discern_coupling',
      'discern_map',
      'discern_checkpoints',
      'discern_improvement',
    ]) {
      await mcp.client.callTool({ name: tool, arguments: {} });
      assertNoMarker(tool);
    }
  });
});

describe('which discern.toml may run commands', () => {
  it('an uncommitted edit of discern.toml does not reach the gate: done refuses the dirty tree, the edit never runs', async () => {
    const r = scratchRepo({ 'discern.toml': CONFIG });
    const marker = join(markers, 'edited-config');
    r.write('discern.toml', CONFIG.replace('test = "true"', `test = "touch ${marker}"`));
    const run = await runCli(['done', '--json'], { cwd: r.root, env: cleanEnv() });
    const result = JSON.parse(run.stdout) as { ok: boolean; error?: string };
    assert.equal(result.ok, false);
    assert.equal(result.error, 'dirty_worktree');
    assert.ok(!existsSync(marker));
  });

  it("a discern.toml in a parent directory is not the project's: a checkout without one runs nothing", async () => {
    const parent = tempDir('discern-parent-');
    const marker = join(markers, 'parent-config');
    const { writeFileSync, mkdirSync } = await import('node:fs');
    writeFileSync(join(parent, 'discern.toml'), CONFIG.replace('test = "true"', `test = "touch ${marker}"`));
    mkdirSync(join(parent, 'child'));
    const inner = scratchRepo();
    // The child checkout is a scratch repository moved under the parent.
    const { renameSync } = await import('node:fs');
    renameSync(inner.root, join(parent, 'child', 'repo'));
    for (const verb of [['test'], ['done'], ['prepare']]) {
      const run = await runCli([...verb, '--json'], { cwd: join(parent, 'child', 'repo'), env: cleanEnv() });
      assert.equal(
        (JSON.parse(run.stdout) as { error?: string }).error,
        'no_project',
        `${verb.join(' ')}: ${run.stdout.slice(0, 300)}`,
      );
    }
    assert.ok(!existsSync(marker));
    assertNoMarker('parent config');
  });
});
