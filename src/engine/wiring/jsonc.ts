// A JSON reader that remembers where every value is, and the edits discern makes to agents' settings files
// with it: set, add or remove one member of an object, or one element of an array, changing only those bytes.
// Everything else — other entries, unknown keys, key order, indentation, comments — stays exactly as it was,
// and each removal is the exact inverse of the insertion before it, so an entry discern added and later
// removes leaves the file byte for byte as it found it.
//
// `comments: true` reads JSON with comments and trailing commas (JSONC: VS Code's mcp.json, Gemini's
// settings.json); otherwise the text must be strict JSON.

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

interface NodeBase {
  start: number;
  end: number;
}
export interface ObjectNode extends NodeBase {
  type: 'object';
  members: MemberNode[];
}
export interface ArrayNode extends NodeBase {
  type: 'array';
  elements: JsonNode[];
}
export interface ScalarNode extends NodeBase {
  type: 'scalar';
  value: null | boolean | number | string;
}
export type JsonNode = ObjectNode | ArrayNode | ScalarNode;
export interface MemberNode {
  key: string;
  keyStart: number;
  value: JsonNode;
}

export type JsonParse = { ok: true; root: JsonNode } | { ok: false; line: number; column: number; reason: string };

class ParseFailure extends Error {
  constructor(
    readonly at: number,
    reason: string,
  ) {
    super(reason);
  }
}

export function parseJsonText(text: string, options: { comments: boolean }): JsonParse {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const fail = (reason: string, at = i): never => {
    throw new ParseFailure(at, reason);
  };
  const skip = (): void => {
    for (;;) {
      const c = text[i];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') i++;
      else if (c === '/' && options.comments && text[i + 1] === '/') {
        while (i < text.length && text[i] !== '\n') i++;
      } else if (c === '/' && options.comments && text[i + 1] === '*') {
        const close = text.indexOf('*/', i + 2);
        if (close === -1) fail('a /* comment is never closed');
        i = close + 2;
      } else if (c === '/') fail('a comment, which JSON does not allow here');
      else return;
    }
  };
  const string = (): string => {
    const start = i;
    i++;
    for (;;) {
      const c = text[i];
      if (c === undefined) fail('a string is never closed', start);
      if (c === '"') break;
      if (c === '\\') i += 2;
      else if (c === '\n') fail('a line break inside a string');
      else i++;
    }
    i++;
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch {
      return fail('a string with an invalid escape', start);
    }
  };
  const value = (): JsonNode => {
    skip();
    const start = i;
    const c = text[i];
    if (c === '{') {
      i++;
      const members: MemberNode[] = [];
      for (;;) {
        skip();
        if (text[i] === '}') break;
        if (members.length > 0) {
          if (text[i] !== ',') fail('expected , or } after a member');
          i++;
          skip();
          if (text[i] === '}' && options.comments) break;
        }
        if (text[i] !== '"') fail('expected a "key"');
        const keyStart = i;
        const key = string();
        skip();
        if (text[i] !== ':') fail('expected : after a key');
        i++;
        members.push({ key, keyStart, value: value() });
      }
      i++;
      return { type: 'object', start, end: i, members };
    }
    if (c === '[') {
      i++;
      const elements: JsonNode[] = [];
      for (;;) {
        skip();
        if (text[i] === ']') break;
        if (elements.length > 0) {
          if (text[i] !== ',') fail('expected , or ] after an element');
          i++;
          skip();
          if (text[i] === ']' && options.comments) break;
        }
        elements.push(value());
      }
      i++;
      return { type: 'array', start, end: i, elements };
    }
    if (c === '"') {
      const text = string();
      return { type: 'scalar', start, end: i, value: text };
    }
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
    if (!literal)
      return fail(c === undefined ? 'the text ends where a value should be' : `unexpected ${JSON.stringify(c)}`);
    i += literal[0].length;
    return { type: 'scalar', start, end: i, value: JSON.parse(literal[0]) as null | boolean | number };
  };
  try {
    const root = value();
    skip();
    if (i < text.length) fail('text after the end of the JSON value');
    return { ok: true, root };
  } catch (error) {
    if (!(error instanceof ParseFailure)) throw error;
    const before = text.slice(0, error.at);
    const line = before.split('\n').length;
    return { ok: false, line, column: error.at - before.lastIndexOf('\n'), reason: error.message };
  }
}

/** The node as a plain value, for comparing what is there with what should be. */
export function valueOf(node: JsonNode): JsonValue {
  if (node.type === 'scalar') return node.value;
  if (node.type === 'array') return node.elements.map(valueOf);
  const out: { [key: string]: JsonValue } = {};
  for (const m of node.members) out[m.key] = valueOf(m.value);
  return out;
}

/** The value at `path` (object keys), or undefined when the text does not parse or holds nothing there. */
export function memberAt(text: string, path: readonly string[], options: { comments: boolean }): JsonValue | undefined {
  const parsed = parseJsonText(text, options);
  if (!parsed.ok) return undefined;
  let node: JsonNode = parsed.root;
  for (const key of path) {
    if (node.type !== 'object') return undefined;
    const member: MemberNode | undefined = node.members.find((m) => m.key === key);
    if (member === undefined) return undefined;
    node = member.value;
  }
  return valueOf(node);
}

export function sameJson(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined || typeof a !== 'object' || typeof b !== 'object')
    return false;
  if (Array.isArray(a) || Array.isArray(b))
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, k) => sameJson(x, b[k]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameJson(a[k], b[k]));
}

// ---- layout ---------------------------------------------------------------------------------------------

/** The whitespace that starts the line `offset` is on. */
function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
}

/** Whether `offset` is the first non-blank character of its line. */
function startsLine(text: string, offset: number): boolean {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return text.slice(lineStart, offset).trim() === '';
}

/** The file's indentation step: the first indented line's whitespace, else two spaces. */
export function indentUnit(text: string): string {
  const match = /\n([ \t]+)\S/.exec(text);
  return match?.[1] ?? '  ';
}

/**
 * A value as JSON text at `indent`: spread over lines in a multi-line file (objects one member a line, a short
 * list of scalars on one line, as people and formatters write `"args": ["mcp"]`), on one line otherwise.
 */
export function formatValue(value: JsonValue, multiline: boolean, indent: string, unit: string): string {
  return multiline ? pretty(value, indent, unit) : inline(value);
}

/**
 * One line, spaced as people write it: `{ "command": "discern", "args": ["mcp"] }`. An object, and a list of
 * objects or lists, never has its first entry right after its bracket: only an entry discern adds to a
 * container that was already there does (appendEntry), which is how removal tells the two apart.
 */
function inline(value: JsonValue): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const items = value.map(inline).join(', ');
    return value.every((v) => v === null || typeof v !== 'object') ? `[${items}]` : `[ ${items} ]`;
  }
  const members = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${inline(v)}`);
  return members.length === 0 ? '{}' : `{ ${members.join(', ')} }`;
}

function pretty(value: JsonValue, indent: string, unit: string): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const inner = indent + unit;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const flat = `[${value.map((v) => JSON.stringify(v)).join(', ')}]`;
    if (value.every((v) => v === null || typeof v !== 'object') && flat.length <= 60) return flat;
    return `[\n${value.map((v) => inner + pretty(v, inner, unit)).join(',\n')}\n${indent}]`;
  }
  const keys = Object.keys(value);
  if (keys.length === 0) return '{}';
  return `{\n${keys.map((k) => `${inner}${JSON.stringify(k)}: ${pretty(value[k] ?? null, inner, unit)}`).join(',\n')}\n${indent}}`;
}

interface Layout {
  multiline: boolean;
  /** Indentation of the container's entries. */
  indent: string;
  /** Indentation of its closing bracket. */
  closing: string;
  unit: string;
  /** Between a key and its value (`: ` or `:`). */
  colon: string;
  /** After a comma on one line (` ` or ``). */
  space: string;
}

function layoutOf(text: string, container: ObjectNode | ArrayNode): Layout {
  const unit = indentUnit(text);
  const inside = text.slice(container.start, container.end);
  const entries: { start: number; value: JsonNode }[] =
    container.type === 'object'
      ? container.members.map((m) => ({ start: m.keyStart, value: m.value }))
      : container.elements.map((e) => ({ start: e.start, value: e }));
  const last = entries[entries.length - 1];
  const closing = lineIndent(text, container.start);
  const member = container.type === 'object' ? container.members[container.members.length - 1] : undefined;
  const colon = member
    ? (text.slice(member.keyStart, member.value.start).match(/:\s*$/)?.[0] ?? ': ').replace(/\n[\s\S]*/, ' ')
    : ': ';
  if (!last) {
    // The empty document gets its entries spread over lines. Any other empty container keeps what is between
    // its brackets, and the entry goes on one line right after the opening one: that tells it apart from a
    // container discern created, so removing the entry later gives back the empty container, not nothing.
    const isRoot =
      text
        .slice(0, container.start)
        .replace(/^\uFEFF/, '')
        .trim() === '';
    return { multiline: isRoot, indent: closing + unit, closing, unit, colon, space: ' ' };
  }
  const multiline = inside.includes('\n') && startsLine(text, last.start);
  const indent = multiline ? lineIndent(text, last.start) : closing + unit;
  const second = entries[1];
  // After a comma on one line: as between the first two entries, else as anywhere in the file.
  const space = second
    ? /,(\s*)$/.exec(text.slice(entries[0]?.value.end ?? 0, second.start))?.[1] === ''
      ? ''
      : ' '
    : /,[ \t]/.test(text)
      ? ' '
      : '';
  return {
    multiline,
    indent,
    closing,
    unit: indent.startsWith(closing) && indent.length > closing.length ? indent.slice(closing.length) : unit,
    colon,
    space,
  };
}

// ---- edits ----------------------------------------------------------------------------------------------

/** Adds `entry` (a member `"key": value`, or an array element) after the container's last entry. */
function appendEntry(text: string, container: ObjectNode | ArrayNode, render: (layout: Layout) => string): string {
  const layout = layoutOf(text, container);
  const entry = render(layout);
  const entries = container.type === 'object' ? container.members.map((m) => m.value) : container.elements;
  const last = entries[entries.length - 1];
  if (!last) {
    const [open, close] = container.type === 'object' ? ['{', '}'] : ['[', ']'];
    if (layout.multiline)
      return `${text.slice(0, container.start)}${open}\n${layout.indent}${entry}\n${layout.closing}${close}${text.slice(container.end)}`;
    return text.slice(0, container.start + 1) + entry + text.slice(container.start + 1);
  }
  const separator = layout.multiline ? `,\n${layout.indent}` : `,${layout.space}`;
  return text.slice(0, last.end) + separator + entry + text.slice(last.end);
}

function renderMember(key: string, value: JsonValue): (layout: Layout) => string {
  return (layout) =>
    `${JSON.stringify(key)}${layout.colon}${formatValue(value, layout.multiline, layout.indent, layout.unit)}`;
}

/**
 * Removes entry `index` of the container, with the separator that belongs to it. `kept` is true when it was
 * the only entry of a container that was there before it (the entry sits right after the opening bracket, as
 * appendEntry puts it into an existing empty container): the container stays, exactly as it was.
 */
function removeEntry(text: string, container: ObjectNode | ArrayNode, index: number): { text: string; kept: boolean } {
  const starts =
    container.type === 'object' ? container.members.map((m) => m.keyStart) : container.elements.map((e) => e.start);
  const values = container.type === 'object' ? container.members.map((m) => m.value) : container.elements;
  if (values.length === 1) {
    if (starts[0] === container.start + 1)
      return { text: text.slice(0, starts[0]) + text.slice(values[0]?.end), kept: true };
    return {
      text: text.slice(0, container.start) + (container.type === 'object' ? '{}' : '[]') + text.slice(container.end),
      kept: false,
    };
  }
  if (index > 0) return { text: text.slice(0, values[index - 1]?.end) + text.slice(values[index]?.end), kept: false };
  return { text: text.slice(0, starts[0]) + text.slice(starts[1]), kept: false };
}

export type JsonEdit = { ok: true; text: string; changed: boolean } | { ok: false; reason: string };

/** The object at `path` (each step a member key) and its parent chain, or where the path stops. */
function walk(
  root: JsonNode,
  path: readonly string[],
): { nodes: ObjectNode[]; missingAt: number } | { notObject: string } {
  if (root.type !== 'object') return { notObject: 'the top level' };
  const nodes: ObjectNode[] = [root];
  for (let k = 0; k < path.length; k++) {
    const member = nodes[nodes.length - 1]?.members.find((m) => m.key === path[k]);
    if (!member) return { nodes, missingAt: k };
    if (member.value.type !== 'object') return { notObject: `\`${path.slice(0, k + 1).join('.')}\`` };
    nodes.push(member.value);
  }
  return { nodes, missingAt: path.length };
}

/** Builds `{path[from]: {…: value}}` for keys that do not exist yet. */
function nest(path: readonly string[], from: number, value: JsonValue): JsonValue {
  let out = value;
  for (let k = path.length - 1; k >= from; k--) out = { [path[k] ?? '']: out };
  return out;
}

/**
 * Sets the member at `path` (the last step is the key) to `value`, creating the objects on the way. Only its
 * value's bytes change when it exists; it is appended after the last member when it does not.
 */
function setMemberLf(
  text: string,
  path: readonly string[],
  value: JsonValue,
  options: { comments: boolean },
): JsonEdit {
  const parsed = parseJsonText(text, options);
  if (!parsed.ok)
    return { ok: false, reason: `not valid JSON at line ${parsed.line}, column ${parsed.column}: ${parsed.reason}` };
  const parents = path.slice(0, -1);
  const key = path[path.length - 1] ?? '';
  const found = walk(parsed.root, parents);
  if ('notObject' in found) return { ok: false, reason: `${found.notObject} is not an object` };
  const container = found.nodes[found.nodes.length - 1] as ObjectNode;
  if (found.missingAt < parents.length) {
    const name = parents[found.missingAt] ?? '';
    return {
      ok: true,
      changed: true,
      text: appendEntry(text, container, renderMember(name, nest(path, found.missingAt + 1, value))),
    };
  }
  const member = container.members.find((m) => m.key === key);
  if (!member) return { ok: true, changed: true, text: appendEntry(text, container, renderMember(key, value)) };
  if (sameJson(valueOf(member.value), value)) return { ok: true, changed: false, text };
  // The value keeps its own shape: spread over lines if it was, on one line if it was.
  const multiline = text.slice(member.value.start, member.value.end).includes('\n');
  const replacement = formatValue(value, multiline, lineIndent(text, member.keyStart), layoutOf(text, container).unit);
  return {
    ok: true,
    changed: true,
    text: text.slice(0, member.value.start) + replacement + text.slice(member.value.end),
  };
}

/**
 * Removes the member at `path`, then every object on the way that the removal left empty: what setMember
 * created goes with it. `empty` is true when the whole document is left as an empty object.
 */
function removeMemberLf(
  text: string,
  path: readonly string[],
  options: { comments: boolean },
): JsonEdit & { empty?: boolean } {
  let current = text;
  let changed = false;
  for (let depth = path.length; depth >= 1; depth--) {
    const parsed = parseJsonText(current, options);
    if (!parsed.ok)
      return { ok: false, reason: `not valid JSON at line ${parsed.line}, column ${parsed.column}: ${parsed.reason}` };
    const found = walk(parsed.root, path.slice(0, depth - 1));
    if ('notObject' in found || found.missingAt < depth - 1) break;
    const container = found.nodes[found.nodes.length - 1] as ObjectNode;
    const index = container.members.findIndex((m) => m.key === path[depth - 1]);
    if (index === -1) break;
    const member = container.members[index];
    // Parents are removed only when the removal emptied them.
    if (depth < path.length && !(member?.value.type === 'object' && member.value.members.length === 0)) break;
    const removed = removeEntry(current, container, index);
    current = removed.text;
    changed = true;
    if (removed.kept) break;
  }
  const parsed = parseJsonText(current, options);
  const empty = parsed.ok && parsed.root.type === 'object' && parsed.root.members.length === 0;
  return { ok: true, changed, text: current, empty };
}

/**
 * Makes the array at `path` hold `value` in place of the element `owns` recognises (appending it when there
 * is none), creating the array and the objects on the way.
 */
function setElementLf(
  text: string,
  path: readonly string[],
  owns: (value: JsonValue) => boolean,
  value: JsonValue,
  options: { comments: boolean },
): JsonEdit {
  const parsed = parseJsonText(text, options);
  if (!parsed.ok)
    return { ok: false, reason: `not valid JSON at line ${parsed.line}, column ${parsed.column}: ${parsed.reason}` };
  const parents = path.slice(0, -1);
  const found = walk(parsed.root, parents);
  if ('notObject' in found) return { ok: false, reason: `${found.notObject} is not an object` };
  const container = found.nodes[found.nodes.length - 1] as ObjectNode;
  if (found.missingAt < parents.length) {
    return {
      ok: true,
      changed: true,
      text: appendEntry(
        text,
        container,
        renderMember(parents[found.missingAt] ?? '', nest(path, found.missingAt + 1, [value])),
      ),
    };
  }
  const key = path[path.length - 1] ?? '';
  const member = container.members.find((m) => m.key === key);
  if (!member) return { ok: true, changed: true, text: appendEntry(text, container, renderMember(key, [value])) };
  if (member.value.type !== 'array') return { ok: false, reason: `\`${path.join('.')}\` is not an array` };
  const array = member.value;
  const existing = array.elements.find((e) => owns(valueOf(e)));
  if (existing) {
    if (sameJson(valueOf(existing), value)) return { ok: true, changed: false, text };
    const multiline = text.slice(existing.start, existing.end).includes('\n');
    return {
      ok: true,
      changed: true,
      text:
        text.slice(0, existing.start) +
        formatValue(value, multiline, lineIndent(text, existing.start), layoutOf(text, array).unit) +
        text.slice(existing.end),
    };
  }
  return {
    ok: true,
    changed: true,
    text: appendEntry(text, array, (layout) => formatValue(value, layout.multiline, layout.indent, layout.unit)),
  };
}

/** Removes every element `owns` recognises from the array at `path`, then the containers that left empty. */
function removeElementsLf(
  text: string,
  path: readonly string[],
  owns: (value: JsonValue) => boolean,
  options: { comments: boolean },
): JsonEdit & { empty?: boolean } {
  let current = text;
  let changed = false;
  for (;;) {
    const parsed = parseJsonText(current, options);
    if (!parsed.ok)
      return { ok: false, reason: `not valid JSON at line ${parsed.line}, column ${parsed.column}: ${parsed.reason}` };
    const found = walk(parsed.root, path.slice(0, -1));
    if ('notObject' in found || found.missingAt < path.length - 1) break;
    const member = (found.nodes[found.nodes.length - 1] as ObjectNode).members.find(
      (m) => m.key === path[path.length - 1],
    );
    if (!member || member.value.type !== 'array') break;
    const index = member.value.elements.findIndex((e) => owns(valueOf(e)));
    if (index === -1) break;
    const wasOnly = member.value.elements.length === 1;
    const removed = removeEntry(current, member.value, index);
    current = removed.text;
    changed = true;
    if (removed.kept) break;
    if (wasOnly) {
      // The array is empty now: remove it, and the objects it leaves empty, as setElement created them.
      const removed = removeEmptied(current, path, options);
      if (!removed.ok) return removed;
      current = removed.text;
      break;
    }
  }
  const parsed = parseJsonText(current, options);
  const empty = parsed.ok && parsed.root.type === 'object' && parsed.root.members.length === 0;
  return { ok: true, changed, text: current, empty };
}

/** Removes the empty array or object at `path` and each parent it leaves empty. */
function removeEmptied(text: string, path: readonly string[], options: { comments: boolean }): JsonEdit {
  let current = text;
  for (let depth = path.length; depth >= 1; depth--) {
    const parsed = parseJsonText(current, options);
    if (!parsed.ok) return { ok: false, reason: parsed.reason };
    const found = walk(parsed.root, path.slice(0, depth - 1));
    if ('notObject' in found || found.missingAt < depth - 1) break;
    const container = found.nodes[found.nodes.length - 1] as ObjectNode;
    const index = container.members.findIndex((m) => m.key === path[depth - 1]);
    const value = container.members[index]?.value;
    const isEmpty =
      value !== undefined &&
      ((value.type === 'array' && value.elements.length === 0) ||
        (value.type === 'object' && value.members.length === 0));
    if (!isEmpty) break;
    const removed = removeEntry(current, container, index);
    current = removed.text;
    if (removed.kept) break;
  }
  return { ok: true, changed: true, text: current };
}

/**
 * A file whose every line ends in CRLF is edited as LF and given its CRLF back, so the lines discern adds end
 * like the file's own. A file that mixes the two is edited as it is.
 */
function keepingCrlf<R extends { ok: boolean; text?: string }>(text: string, edit: (lf: string) => R): R {
  const crlf = text.includes('\r\n') && !/(^|[^\r])\n/.test(text);
  if (!crlf) return edit(text);
  const result = edit(text.replace(/\r\n/g, '\n'));
  return result.ok && typeof result.text === 'string'
    ? { ...result, text: result.text.replace(/\n/g, '\r\n') }
    : result;
}

export function setMember(
  text: string,
  path: readonly string[],
  value: JsonValue,
  options: { comments: boolean },
): JsonEdit {
  return keepingCrlf(text, (lf) => setMemberLf(lf, path, value, options));
}

export function removeMember(
  text: string,
  path: readonly string[],
  options: { comments: boolean },
): JsonEdit & { empty?: boolean } {
  return keepingCrlf(text, (lf) => removeMemberLf(lf, path, options));
}

export function setElement(
  text: string,
  path: readonly string[],
  owns: (value: JsonValue) => boolean,
  value: JsonValue,
  options: { comments: boolean },
): JsonEdit {
  return keepingCrlf(text, (lf) => setElementLf(lf, path, owns, value, options));
}

export function removeElements(
  text: string,
  path: readonly string[],
  owns: (value: JsonValue) => boolean,
  options: { comments: boolean },
): JsonEdit & { empty?: boolean } {
  return keepingCrlf(text, (lf) => removeElementsLf(lf, path, owns, options));
}

/** A new settings file holding only `value`, in the layout agents' own tools write. */
export function newJsonFile(value: JsonValue): string {
  return `${pretty(value, '', '  ')}\n`;
}
