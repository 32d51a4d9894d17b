// Lists of tools, resources and prompts in hand-written pages are generated regions: filled from spec/, stale
// ones caught by generate:check, and served by the manual without their markers.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fillRegions, withoutRegionMarkers } from '../../codegen/emit/doc-regions.js';
import { MCP_TOOLS } from '../../generated/mcp-table.js';
import { REPO_ROOT, runCli } from '../helpers/cli.js';

const regions = new Map([['names', '- a\n- b\n']]);

describe('generated regions in hand-written pages', () => {
  it('fills a region between its markers, whatever it held, and leaves the rest of the page as it was', () => {
    const page = 'Before.\n\n<!-- generated:names -->\nstale\n<!-- /generated:names -->\n\nAfter.\n';
    const { text, problems } = fillRegions(page, regions);
    assert.deepEqual(problems, []);
    assert.equal(text, 'Before.\n\n<!-- generated:names -->\n- a\n- b\n<!-- /generated:names -->\n\nAfter.\n');
    assert.equal(fillRegions(text, regions).text, text, 'a filled page is a fixed point');
    assert.equal(withoutRegionMarkers(text), 'Before.\n\n- a\n- b\n\nAfter.\n');
  });

  it('names an unknown region and a marker left open', () => {
    const unknown = fillRegions('<!-- generated:other -->\n<!-- /generated:other -->\n', regions);
    assert.match(unknown.problems[0] ?? '', /no generated region is called "other" \(known: names\)/);
    const open = fillRegions('<!-- generated:names -->\n- a\n', regions);
    assert.match(open.problems[0] ?? '', /no matching end/);
  });

  it('the pages that list tools name every tool the server has', () => {
    // The overview's table of main commands is written by hand, so it is held to the same list here.
    const pages = [
      'docs/20-reference/mcp-server.md',
      'docs/10-guides/connect-a-coding-agent.md',
      'docs/00-start/overview.md',
    ];
    for (const page of [...pages, 'README.md']) {
      const text = readFileSync(`${REPO_ROOT}${page}`, 'utf8');
      for (const tool of MCP_TOOLS) assert.ok(text.includes(`\`${tool.name}\``), `${page} names ${tool.name}`);
    }
  });

  it('the manual serves those pages without the markers', async () => {
    const { stdout } = await runCli(['docs', 'reference/mcp-server', '--markdown']);
    assert.ok(stdout.includes('`discern_verify`'), 'the generated table is there');
    assert.doesNotMatch(stdout, /<!-- \/?generated:/);
  });
});
