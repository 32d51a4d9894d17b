// Parses a presentation template into its tree. The syntax is a small Handlebars-like subset chosen for
// Markdown: `{{#state}}…{{/state}}` (and evidence, authority, owner) hold the sections in their fixed order;
// `{{#if a == 'x' and b}}…{{else if c}}…{{else}}…{{/if}}`; `{{#each list as row}}…{{else}}…{{/each}}`;
// `{{path | filter arg}}`; `{{> block arg}}` for a shared Markdown block; `{{! comment}}`. A line that holds
// only a block tag or a comment disappears with its line break, so a template reads like the Markdown it makes.
// Inside `each`, bare names read the current item; `@root.` reads the result, `@index`/`@number`/`@first`/
// `@last` the position. Errors carry the line, for codegen to report against the template file.
import {
  SECTIONS,
  type CompareOp,
  type Condition,
  type Filter,
  type Node,
  type SectionName,
  type Template,
  type Test,
  type Value,
} from './ast.js';

export class TemplateError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`line ${line}: ${message}`);
  }
}

interface Tag {
  body: string;
  start: number;
  end: number;
  line: number;
}

type Piece = { text: string } | { tag: Tag };

const BLOCK_TAG = /^(?:[#/!]|else\b)/;

/** Splits the source into text and tags, removing the lines that hold only a block tag or a comment. */
function pieces(source: string): Piece[] {
  const tags: Tag[] = [];
  let at = 0;
  for (;;) {
    const open = source.indexOf('{{', at);
    if (open < 0) break;
    const close = source.indexOf('}}', open + 2);
    if (close < 0) throw new TemplateError('a tag opened with {{ is never closed', lineOf(source, open));
    tags.push({ body: source.slice(open + 2, close).trim(), start: open, end: close + 2, line: lineOf(source, open) });
    at = close + 2;
  }
  const out: Piece[] = [];
  let textFrom = 0;
  for (const tag of tags) {
    let cutStart = tag.start;
    let cutEnd = tag.end;
    if (BLOCK_TAG.test(tag.body)) {
      const lineStart = source.lastIndexOf('\n', tag.start - 1) + 1;
      const newline = source.indexOf('\n', tag.end);
      const lineEnd = newline < 0 ? source.length : newline;
      const before = source.slice(Math.max(lineStart, textFrom), tag.start);
      const after = source.slice(tag.end, lineEnd);
      if (lineStart >= textFrom && /^[ \t]*$/.test(before) && /^[ \t]*$/.test(after)) {
        cutStart = lineStart;
        cutEnd = newline < 0 ? lineEnd : newline + 1;
      }
    }
    if (cutStart > textFrom) out.push({ text: source.slice(textFrom, cutStart) });
    out.push({ tag });
    textFrom = cutEnd;
  }
  if (textFrom < source.length) out.push({ text: source.slice(textFrom) });
  return out;
}

function lineOf(source: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (source.charCodeAt(i) === 10) line++;
  return line;
}

/** Splits a tag body into words, keeping quoted strings whole. */
function words(body: string, line: number): string[] {
  const out: string[] = [];
  const re = /\s*('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|\|(?=\s|$)|[^\s]+)/gy;
  let m: RegExpExecArray | null;
  while ((m = re.exec(body)) !== null) {
    if (m[1] === undefined) break;
    out.push(m[1]);
    if (re.lastIndex >= body.length) break;
  }
  if (out.join('').replace(/\s/g, '').length !== body.replace(/\s/g, '').length)
    throw new TemplateError(`cannot read the tag {{${body}}}`, line);
  return out;
}

interface Scope {
  inEach: boolean;
  bound: string[];
}

function value(word: string, scope: Scope, line: number): Value {
  if (/^'.*'$|^".*"$/s.test(word)) return { literal: word.slice(1, -1).replace(/\\(.)/g, '$1') };
  if (/^-?\d+(\.\d+)?$/.test(word)) return { literal: Number(word) };
  if (word === 'true' || word === 'false') return { literal: word === 'true' };
  if (word === 'null') return { literal: null };
  if (!/^(@?[A-Za-z_][\w-]*)(\.[\w-]+)*$/.test(word))
    throw new TemplateError(`"${word}" is neither a path nor a literal`, line);
  const parts = word.split('.');
  const head = parts[0] ?? '';
  if (head === '@root') return { path: parts.slice(1), from: 'root' };
  if (head.startsWith('@')) {
    if (!['@index', '@number', '@first', '@last'].includes(head) || parts.length > 1)
      throw new TemplateError(`unknown position value "${word}"`, line);
    if (!scope.inEach) throw new TemplateError(`${head} is only meaningful inside {{#each}}`, line);
    return { path: [head], from: 'meta' };
  }
  if (head === 'this') {
    if (!scope.inEach) throw new TemplateError('"this" is only meaningful inside {{#each}}', line);
    return { path: parts.slice(1), from: 'item' };
  }
  if (scope.bound.includes(head)) return { path: parts, from: 'bound' };
  return { path: parts, from: scope.inEach ? 'item' : 'root' };
}

const OPS: readonly CompareOp[] = ['==', '!=', '>', '<', '>=', '<='];

function condition(ws: string[], scope: Scope, line: number): Condition {
  if (ws.length === 0) throw new TemplateError('a condition is missing', line);
  const groups: Condition = [[]];
  let i = 0;
  while (i < ws.length) {
    let word = ws[i++] ?? '';
    const test: Test = { left: { literal: null } };
    if (word.startsWith('!')) {
      test.not = true;
      word = word.slice(1);
    }
    test.left = value(word, scope, line);
    const op = ws[i] as CompareOp | undefined;
    if (op !== undefined && OPS.includes(op)) {
      const right = ws[i + 1];
      if (right === undefined) throw new TemplateError(`"${op}" needs a value on its right`, line);
      test.op = op;
      test.right = value(right, scope, line);
      i += 2;
    }
    groups[groups.length - 1]?.push(test);
    const joiner = ws[i];
    if (joiner === undefined) break;
    if (joiner === 'and') i++;
    else if (joiner === 'or') {
      groups.push([]);
      i++;
    } else throw new TemplateError(`expected "and", "or" or the end of the condition, found "${joiner}"`, line);
    if (i >= ws.length) throw new TemplateError(`the condition ends with "${joiner}"`, line);
  }
  return groups;
}

function interpolation(ws: string[], scope: Scope, line: number): { value: Value; filters: Filter[] } {
  const [first, ...rest] = ws;
  if (first === undefined) throw new TemplateError('an empty tag {{}}', line);
  const filters: Filter[] = [];
  for (let i = 0; i < rest.length;) {
    if (rest[i] !== '|') throw new TemplateError(`expected "|" before a filter, found "${rest[i] ?? ''}"`, line);
    const name = rest[i + 1];
    if (name === undefined || !/^[a-z][a-z-]*$/.test(name))
      throw new TemplateError('a filter name is missing after "|"', line);
    i += 2;
    const args: Value[] = [];
    while (i < rest.length && rest[i] !== '|') args.push(value(rest[i++] ?? '', scope, line));
    filters.push({ name, args });
  }
  return { value: value(first, scope, line), filters };
}

type Frame =
  | { kind: 'section'; name: SectionName; nodes: Node[]; line: number }
  | { kind: 'if'; branches: { when: Condition; then: Node[] }[]; otherwise?: Node[]; line: number }
  | { kind: 'each'; over: Value; as?: string; body: Node[]; empty?: Node[]; line: number };

export function parseTemplate(source: string): Template {
  const template: Partial<Record<SectionName, Node[]>> = {};
  const stack: Frame[] = [];
  const seen: SectionName[] = [];
  const scope = (): Scope => {
    const eaches = stack.filter((f): f is Extract<Frame, { kind: 'each' }> => f.kind === 'each');
    return { inEach: eaches.length > 0, bound: eaches.flatMap((f) => (f.as ? [f.as] : [])) };
  };
  const target = (line: number): Node[] => {
    const top = stack[stack.length - 1];
    if (!top)
      throw new TemplateError(
        'content outside a section: put it inside {{#state}}, {{#evidence}}, {{#authority}} or {{#owner}}',
        line,
      );
    if (top.kind === 'section') return top.nodes;
    if (top.kind === 'if') return top.otherwise ?? top.branches[top.branches.length - 1]?.then ?? [];
    return top.empty ?? top.body;
  };
  for (const piece of pieces(source)) {
    if ('text' in piece) {
      if (stack.length === 0 && piece.text.trim() === '') continue;
      const line = 0;
      if (stack.length === 0)
        throw new TemplateError(`text outside a section: "${piece.text.trim().slice(0, 40)}"`, line);
      target(line).push({ text: piece.text });
      continue;
    }
    const { body, line } = piece.tag;
    if (body.startsWith('!')) continue;
    const ws = words(body.replace(/^[#/>]\s*/, ''), line);
    const head = ws[0] ?? '';
    if (body.startsWith('#')) {
      if ((SECTIONS as readonly string[]).includes(head)) {
        const name = head as SectionName;
        if (stack.length > 0) throw new TemplateError(`section {{#${name}}} inside another block`, line);
        if (seen.includes(name)) throw new TemplateError(`section ${name} appears twice`, line);
        const order = SECTIONS.indexOf(name);
        if (seen.some((s) => SECTIONS.indexOf(s) > order))
          throw new TemplateError(`section ${name} is out of order: sections go ${SECTIONS.join(', ')}`, line);
        seen.push(name);
        stack.push({ kind: 'section', name, nodes: [], line });
      } else if (head === 'if') {
        target(line);
        stack.push({ kind: 'if', branches: [{ when: condition(ws.slice(1), scope(), line), then: [] }], line });
      } else if (head === 'each') {
        target(line);
        const over = value(ws[1] ?? '', scope(), line);
        if (ws.length === 4 && ws[2] === 'as' && /^[a-z][A-Za-z0-9_]*$/.test(ws[3] ?? ''))
          stack.push({ kind: 'each', over, as: ws[3] ?? '', body: [], line });
        else if (ws.length === 2) stack.push({ kind: 'each', over, body: [], line });
        else throw new TemplateError('write {{#each path}} or {{#each path as name}}', line);
      } else throw new TemplateError(`unknown block {{#${head}}}`, line);
      continue;
    }
    if (head === 'else' && !body.startsWith('/')) {
      const top = stack[stack.length - 1];
      if (top?.kind === 'if') {
        if (top.otherwise) throw new TemplateError('{{else}} after {{else}}', line);
        if (ws[1] === 'if') top.branches.push({ when: condition(ws.slice(2), scope(), line), then: [] });
        else if (ws.length === 1) top.otherwise = [];
        else throw new TemplateError('write {{else}} or {{else if condition}}', line);
      } else if (top?.kind === 'each' && ws.length === 1) {
        if (top.empty) throw new TemplateError('{{else}} after {{else}}', line);
        top.empty = [];
      } else throw new TemplateError('{{else}} outside {{#if}} or {{#each}}', line);
      continue;
    }
    if (body.startsWith('/')) {
      const top = stack.pop();
      const name = top?.kind === 'section' ? top.name : top?.kind;
      if (!top || name !== head)
        throw new TemplateError(`{{/${head}}} closes ${top ? `{{#${name}}} (line ${top.line})` : 'nothing'}`, line);
      if (top.kind === 'section') template[top.name] = top.nodes;
      else if (top.kind === 'if')
        target(line).push({ if: top.branches, ...(top.otherwise ? { else: top.otherwise } : {}) });
      else
        target(line).push({
          each: top.over,
          ...(top.as ? { as: top.as } : {}),
          body: top.body,
          ...(top.empty ? { empty: top.empty } : {}),
        });
      continue;
    }
    if (body.startsWith('>')) {
      if (!/^[a-z][a-z-]*$/.test(head)) throw new TemplateError(`"${head}" is not a block name`, line);
      target(line).push({ block: head, args: ws.slice(1).map((w) => value(w, scope(), line)) });
      continue;
    }
    target(line).push(interpolation(ws, scope(), line));
  }
  const open = stack[stack.length - 1];
  if (open)
    throw new TemplateError(`{{#${open.kind === 'section' ? open.name : open.kind}}} is never closed`, open.line);
  if (!template.state) throw new TemplateError('the template has no {{#state}} section', 1);
  return template as Template;
}
