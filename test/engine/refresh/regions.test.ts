// discern's region in a Markdown or TOML file: inserted after the user's text, replaced in place, and stripped
// back to the exact bytes it was inserted into; a file that held only the region strips to nothing; broken
// markers are refused with their line; the begin line carries the digest of the body. Also the skill-folder choice: the fewest folders that reach every agent.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  MARKDOWN_REGION,
  TOML_REGION,
  bodyStamp,
  findRegion,
  lineBreakOf,
  regionText,
  stampOf,
  stripRegion,
  upsertRegion,
} from '../../../src/engine/wiring/regions.js';
import { skillFolders, type AgentId } from '../../../src/engine/refresh/agents.js';

function region(body: string, eol = '\n'): string {
  return regionText(MARKDOWN_REGION, 'instructions', 'test', body, eol);
}

describe('regions', () => {
  const files: [string, string | null][] = [
    ['no file', null],
    ['an empty file', ''],
    ['text ending in a line break', '# Title\n\nUser text.\n'],
    ['text without a final line break', '# Title'],
    ['CRLF text', '# Title\r\n\r\nUser text.\r\n'],
    ['text ending in blank lines', 'a\n\n\n'],
  ];
  for (const [name, before] of files) {
    it(`${name}: insert, replace in place, strip back to the original bytes`, () => {
      const eol = lineBreakOf(before);
      const first = upsertRegion(before, region('Body\nline two\n', eol), MARKDOWN_REGION);
      assert.ok(first.ok);
      assert.ok(first.text.endsWith(`<!-- discern:end -->${eol}`));
      const same = upsertRegion(first.text, region('Body\nline two\n', eol), MARKDOWN_REGION);
      assert.ok(same.ok && same.text === first.text, 'setting the same region changes nothing');
      const changed = upsertRegion(first.text, region('Other body', eol), MARKDOWN_REGION);
      assert.ok(changed.ok && changed.text.includes('Other body') && !changed.text.includes('line two'));
      const stripped = stripRegion(changed.text, MARKDOWN_REGION);
      assert.ok(stripped.ok);
      assert.equal(stripped.text, before ?? '');
    });
  }
  it('keeps the text after a region that is not at the end, and does not join lines', () => {
    const r = region('x');
    for (const [text, expected] of [
      [`a\n\n${r}\nafter\n`, 'a\nafter\n'],
      [`a\n${r}\nafter`, 'a\nafter'],
      [`${r}\nafter\n`, 'after\n'],
    ] as const) {
      const stripped = stripRegion(text, MARKDOWN_REGION);
      assert.ok(stripped.ok);
      assert.equal(stripped.text, expected);
    }
  });
  it('finds the region with its inner text and line', () => {
    const found = findRegion(`one\n${region('x\ny')}\n`, MARKDOWN_REGION);
    assert.ok(found.ok && found.span);
    assert.equal(found.span.inner, 'x\ny');
    assert.equal(found.span.line, 2);
    assert.equal(found.span.stamp, '9ab9de25768ac172', 'the begin line carries the digest of the body');
  });
  it("stamps the begin line with its body's digest: the same for LF and CRLF, absent from an older line", () => {
    assert.equal(bodyStamp('x\ny'), '9ab9de25768ac172', "the first 16 hex digits of `printf 'x\\ny' | sha256sum`");
    assert.equal(region('x\ny').split('\n')[0], '<!-- discern:begin instructions sha256:9ab9de25768ac172: test -->');
    const crlf = findRegion(`${region('x\ny', '\r\n')}\r\n`, MARKDOWN_REGION);
    assert.ok(crlf.ok && crlf.span);
    assert.equal(crlf.span.stamp, bodyStamp(crlf.span.inner));
    const older = findRegion(
      '<!-- discern:begin instructions: written by discern -->\nx\n<!-- discern:end -->\n',
      MARKDOWN_REGION,
    );
    assert.ok(older.ok && older.span);
    assert.equal(older.span.stamp, undefined);
    assert.equal(stampOf('# discern:begin mcp sha256:36e2cb91b6adea2e: note'), '36e2cb91b6adea2e');
  });
  const broken: [string, string, RegExp][] = [
    [
      'a begin without an end',
      '<!-- discern:begin x -->\ntext\n',
      /line 1: a discern:begin line without a discern:end/,
    ],
    ['an end without a begin', 'text\n<!-- discern:end -->\n', /line 2: a discern:end line without a discern:begin/],
    ['two regions', `${region('a')}\n${region('b')}\n`, /line 4: a second discern region/],
    [
      'a nested begin',
      '<!-- discern:begin a -->\n<!-- discern:begin b -->\n<!-- discern:end -->\n',
      /line 2: a second discern:begin/,
    ],
  ];
  for (const [name, text, reason] of broken) {
    it(`refuses ${name}`, () => {
      const found = upsertRegion(text, region('z'), MARKDOWN_REGION);
      assert.ok(!found.ok);
      assert.match(`line ${found.line}: ${found.reason}`, reason);
      assert.ok(!stripRegion(text, MARKDOWN_REGION).ok);
    });
  }
  it('TOML regions are # comment lines', () => {
    const text = regionText(TOML_REGION, 'mcp', 'test', '[mcp_servers.discern]\ncommand = "discern"', '\n');
    assert.equal(
      text,
      '# discern:begin mcp sha256:36e2cb91b6adea2e: test\n[mcp_servers.discern]\ncommand = "discern"\n# discern:end',
    );
    const put = upsertRegion('model = "o4"\n', text, TOML_REGION);
    assert.ok(put.ok);
    assert.equal(put.text, `model = "o4"\n\n${text}\n`);
  });
});

describe('skill folders', () => {
  const cases: [AgentId[], [string, AgentId[]][]][] = [
    [
      ['claude_code', 'codex'],
      [
        ['.claude/skills', ['claude_code']],
        ['.agents/skills', ['codex']],
      ],
    ],
    [['claude_code'], [['.claude/skills', ['claude_code']]]],
    [['copilot'], [['.github/skills', ['copilot']]]],
    [['gemini'], [['.gemini/skills', ['gemini']]]],
    [['gemini', 'cursor'], [['.agents/skills', ['gemini', 'cursor']]]],
    [['claude_code', 'copilot'], [['.claude/skills', ['claude_code', 'copilot']]]],
    [
      ['claude_code', 'codex', 'gemini', 'cursor', 'copilot'],
      [
        ['.claude/skills', ['claude_code', 'cursor', 'copilot']],
        ['.agents/skills', ['codex', 'gemini', 'cursor', 'copilot']],
      ],
    ],
    [[], []],
  ];
  for (const [agents, expected] of cases) {
    it(`${agents.join(', ') || 'no agents'}: the fewest folders that reach every agent`, () => {
      assert.deepEqual(
        skillFolders(agents).map((c) => [c.folder, c.agents]),
        expected,
      );
    });
  }
});
