// The JSON editor refresh uses on agents' settings files: it reads strict JSON and JSON with comments, sets
// one member or array element changing only those bytes in the file's own layout, and removing what it added
// gives the original bytes back — table-tested over the layouts people write.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  newJsonFile,
  parseJsonText,
  removeElements,
  removeMember,
  setElement,
  setMember,
  valueOf,
  type JsonValue,
} from '../../../src/engine/wiring/jsonc.js';

const ENTRY = { type: 'stdio', command: 'discern', args: ['mcp'] };
const PATH = ['mcpServers', 'discern'];
const STRICT = { comments: false };
const JSONC = { comments: true };

function set(text: string, options = STRICT): string {
  const edit = setMember(text, PATH, ENTRY, options);
  assert.ok(edit.ok, JSON.stringify(edit));
  return edit.text;
}

describe('parseJsonText', () => {
  const bad: [string, string, RegExp][] = [
    ['a trailing comma in strict JSON', '{"a": 1,}', /line 1, column 9: expected a "key"/],
    ['a comment in strict JSON', '{\n  // no\n  "a": 1\n}', /line 2, column 3: a comment/],
    ['an unclosed string', '{"a": "b}', /a string is never closed/],
    ['text after the value', '{} {}', /text after the end/],
    ['an empty file', '', /the text ends where a value should be/],
    ['a bare word', '{"a": yes}', /unexpected "y"/],
  ];
  for (const [name, text, reason] of bad) {
    it(`refuses ${name}`, () => {
      const parsed = parseJsonText(text, STRICT);
      assert.ok(!parsed.ok);
      assert.match(`line ${parsed.line}, column ${parsed.column}: ${parsed.reason}`, reason);
    });
  }
  it('reads comments and trailing commas only when asked, and a BOM', () => {
    const text = '\uFEFF{\n  /* block */ "a": [1, 2,], // line\n  "b": {"c": null,},\n}';
    assert.ok(!parseJsonText(text, STRICT).ok);
    const parsed = parseJsonText(text, JSONC);
    assert.ok(parsed.ok);
    assert.deepEqual(valueOf(parsed.root), { a: [1, 2], b: { c: null } });
  });
  it("keeps every value's place", () => {
    const text = '{"k": "v\\"x", "n": -1.5e3, "t": true}';
    const parsed = parseJsonText(text, STRICT);
    assert.ok(parsed.ok && parsed.root.type === 'object');
    assert.deepEqual(
      parsed.root.members.map((m) => text.slice(m.value.start, m.value.end)),
      ['"v\\"x"', '-1.5e3', 'true'],
    );
  });
});

describe('setMember and removeMember', () => {
  const layouts: [string, string, string][] = [
    [
      'two-space, another server',
      '{\n  "mcpServers": {\n    "other": {\n      "command": "x"\n    }\n  }\n}\n',
      '{\n  "mcpServers": {\n    "other": {\n      "command": "x"\n    },\n    "discern": {\n      "type": "stdio",\n      "command": "discern",\n      "args": ["mcp"]\n    }\n  }\n}\n',
    ],
    [
      'four-space, a one-line server, a key after',
      '{\n    "mcpServers": {\n        "other": {"command": "x"}\n    },\n    "zzz": 1\n}',
      '{\n    "mcpServers": {\n        "other": {"command": "x"},\n        "discern": {\n            "type": "stdio",\n            "command": "discern",\n            "args": ["mcp"]\n        }\n    },\n    "zzz": 1\n}',
    ],
    [
      'tabs, no map yet',
      '{\n\t"theme": "dark"\n}\n',
      '{\n\t"theme": "dark",\n\t"mcpServers": {\n\t\t"discern": {\n\t\t\t"type": "stdio",\n\t\t\t"command": "discern",\n\t\t\t"args": ["mcp"]\n\t\t}\n\t}\n}\n',
    ],
    [
      'minified',
      '{"mcpServers":{"other":{"command":"x"}}}',
      '{"mcpServers":{"other":{"command":"x"},"discern":{ "type": "stdio", "command": "discern", "args": ["mcp"] }}}',
    ],
    [
      'an empty map kept as it was',
      '{ "theme": "GitHub", "mcpServers": {} }',
      '{ "theme": "GitHub", "mcpServers": {"discern": { "type": "stdio", "command": "discern", "args": ["mcp"] }} }',
    ],
    [
      'an empty multi-line map',
      '{\n  "mcpServers": {\n  }\n}\n',
      '{\n  "mcpServers": {"discern": { "type": "stdio", "command": "discern", "args": ["mcp"] }\n  }\n}\n',
    ],
  ];
  for (const [name, before, after] of layouts) {
    it(`${name}: adds only the entry, is idempotent, and removing it gives back the bytes`, () => {
      const wired = set(before);
      assert.equal(wired, after);
      const again = setMember(wired, PATH, ENTRY, STRICT);
      assert.ok(again.ok && !again.changed && again.text === wired);
      const removed = removeMember(wired, PATH, STRICT);
      assert.ok(removed.ok && removed.changed);
      assert.equal(removed.text, before);
      assert.equal(removed.empty, false);
    });
  }
  it('a CRLF file gets CRLF lines, and gives back its bytes', () => {
    const before = '{\r\n  "mcpServers": {\r\n    "a": {}\r\n  }\r\n}\r\n';
    const wired = set(before);
    assert.ok(!/[^\r]\n/.test(wired), JSON.stringify(wired));
    const removed = removeMember(wired, PATH, STRICT);
    assert.ok(removed.ok && removed.text === before);
  });
  it('an empty document gets the entry spread over lines; removing it leaves an empty document', () => {
    const wired = set('{}\n');
    assert.equal(wired, newJsonFile({ mcpServers: { discern: ENTRY } }));
    const removed = removeMember(wired, PATH, STRICT);
    assert.ok(removed.ok && removed.empty === true);
  });
  it('changes only the value of an entry that differs, in its own shape', () => {
    assert.equal(
      set('{"mcpServers": {"discern": {"command": "old"}, "b": 1}}'),
      '{"mcpServers": {"discern": { "type": "stdio", "command": "discern", "args": ["mcp"] }, "b": 1}}',
    );
    const multi = '{\n  "mcpServers": {\n    "discern": {\n      "command": "old"\n    }\n  }\n}';
    assert.equal(
      set(multi),
      '{\n  "mcpServers": {\n    "discern": {\n      "type": "stdio",\n      "command": "discern",\n      "args": ["mcp"]\n    }\n  }\n}',
    );
  });
  it('removes discern first among others with the separator that follows it', () => {
    const text = '{"mcpServers": {"discern": {}, "b": {}}}';
    const removed = removeMember(text, PATH, STRICT);
    assert.ok(removed.ok);
    assert.equal(removed.text, '{"mcpServers": {"b": {}}}');
  });
  it('keeps comments and trailing commas of JSON with comments', () => {
    const text = '{\n  // servers\n  "servers": {\n    "a": {"command": "x"}, // trailing\n  },\n}\n';
    const edit = setMember(text, ['servers', 'discern'], ENTRY, JSONC);
    assert.ok(edit.ok);
    assert.equal(
      edit.text,
      '{\n  // servers\n  "servers": {\n    "a": {"command": "x"},\n    "discern": {\n      "type": "stdio",\n      "command": "discern",\n      "args": ["mcp"]\n    }, // trailing\n  },\n}\n',
    );
    const removed = removeMember(edit.text, ['servers', 'discern'], JSONC);
    assert.ok(removed.ok && removed.text === text);
  });
  it('refuses a map that is not an object, and leaves a file without the entry as it is', () => {
    const edit = setMember('{"mcpServers": []}', PATH, ENTRY, STRICT);
    assert.ok(!edit.ok);
    assert.match(edit.reason, /`mcpServers` is not an object/);
    const top = setMember('[1]', PATH, ENTRY, STRICT);
    assert.ok(!top.ok && /the top level is not an object/.test(top.reason));
    const none = removeMember('{"a": 1}', PATH, STRICT);
    assert.ok(none.ok && !none.changed && none.text === '{"a": 1}');
  });
});

describe('setElement and removeElements', () => {
  const GROUP = { matcher: 'startup', hooks: [{ type: 'command', command: 'discern status --markdown' }] };
  const owns = (v: JsonValue): boolean =>
    typeof v === 'object' && v !== null && !Array.isArray(v) && v['matcher'] === 'startup';
  const LIST = ['hooks', 'SessionStart'];
  const cases: [string, string][] = [
    ['no hooks at all', '{\n  "permissions": {\n    "allow": []\n  }\n}\n'],
    [
      'another hook group first',
      '{\n  "hooks": {\n    "SessionStart": [\n      {"hooks": [{"type": "command", "command": "echo hi"}]}\n    ]\n  }\n}\n',
    ],
    ['another event only', '{"hooks": {"Stop": [{"hooks": []}]}}'],
    ['an empty list kept as it was', '{"hooks": {"SessionStart": []}}'],
  ];
  for (const [name, before] of cases) {
    it(`${name}: adds the group once, and removing it gives back the bytes`, () => {
      const edit = setElement(before, LIST, owns, GROUP, STRICT);
      assert.ok(edit.ok && edit.changed);
      const parsed = parseJsonText(edit.text, STRICT);
      assert.ok(parsed.ok);
      const list =
        ((valueOf(parsed.root) as Record<string, Record<string, JsonValue[]>>)['hooks'] ?? {})['SessionStart'] ?? [];
      assert.equal(list.filter(owns).length, 1);
      const again = setElement(edit.text, LIST, owns, GROUP, STRICT);
      assert.ok(again.ok && !again.changed);
      const removed = removeElements(edit.text, LIST, owns, STRICT);
      assert.ok(removed.ok);
      assert.equal(removed.text, before);
    });
  }
  it('replaces a group of its own that changed, leaving the others', () => {
    const text = '{"hooks": {"SessionStart": [{"matcher": "startup", "hooks": []}, {"matcher": "x"}]}}';
    const edit = setElement(text, LIST, owns, GROUP, STRICT);
    assert.ok(edit.ok);
    assert.equal(
      edit.text,
      '{"hooks": {"SessionStart": [{ "matcher": "startup", "hooks": [ { "type": "command", "command": "discern status --markdown" } ] }, {"matcher": "x"}]}}',
    );
  });
});
