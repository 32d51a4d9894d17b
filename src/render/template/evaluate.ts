// Walks a parsed presentation template over a result. Text is Markdown as authored; values are inserted as
// text (Markdown needs no escaping here: a filter such as `code` or `cell` makes a value safe where it goes).
// Whitespace-significant payloads (`verbatim`, `fence`) are kept out of the blank-line tidying, byte for byte.
import type { Condition, Node, SectionName, Template, Test, Value } from './ast.js';
import { SECTIONS } from './ast.js';
import { applyFilter, isTruthy, KEEP_CLOSE, KEEP_OPEN, keepText } from './filters.js';

/** How the Markdown is meant: in full (MCP, --markdown, --render), or as the human view's compact summary. */
export interface PresentOptions {
  compact?: boolean;
}

/** A shared Markdown block a template calls with `{{> name args}}`; undefined renders nothing. */
export type Block = (args: unknown[], result: unknown, options: PresentOptions) => string | undefined;

interface Env {
  root: unknown;
  item: unknown;
  meta: Record<string, unknown>;
  bound: Record<string, unknown>;
  blocks: Readonly<Record<string, Block>>;
  options: PresentOptions;
  /** Exact payloads, swapped in after tidying; the text holds a private-use marker in their place. */
  kept: string[];
}

export function evaluateTemplate(
  template: Template,
  result: unknown,
  blocks: Readonly<Record<string, Block>>,
  options: PresentOptions = {},
): Partial<Record<SectionName, string>> {
  const out: Partial<Record<SectionName, string>> = {};
  for (const name of SECTIONS) {
    const nodes = template[name];
    if (!nodes) continue;
    const env: Env = { root: result, item: result, meta: {}, bound: {}, blocks, options, kept: [] };
    const text = restore(tidy(renderNodes(nodes, env)), env.kept);
    if (text.trim().length > 0) out[name] = text;
  }
  return out;
}

/** At most one blank line between blocks, none at either end; kept payloads are untouched (not yet in). */
function tidy(text: string): string {
  return text
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^\n+/, '')
    .replace(/\n+$/, '');
}

function restore(text: string, kept: readonly string[]): string {
  return text.replace(new RegExp(`${KEEP_OPEN}(\\d+)${KEEP_CLOSE}`, 'gu'), (_m, i: string) => kept[Number(i)] ?? '');
}

function renderNodes(nodes: readonly Node[], env: Env): string {
  let out = '';
  for (const node of nodes) out += renderNode(node, env);
  return out;
}

function renderNode(node: Node, env: Env): string {
  if ('text' in node) return node.text;
  if ('value' in node) {
    let v = resolve(node.value, env);
    for (const f of node.filters)
      v = applyFilter(
        f.name,
        v,
        f.args.map((a) => resolve(a, env)),
        env,
      );
    return v === undefined || v === null
      ? ''
      : typeof v === 'string'
        ? v
        : typeof v === 'object'
          ? JSON.stringify(v)
          : String(v);
  }
  if ('if' in node) {
    for (const branch of node.if) if (holds(branch.when, env)) return renderNodes(branch.then, env);
    return node.else ? renderNodes(node.else, env) : '';
  }
  if ('each' in node) {
    const list = resolve(node.each, env);
    const items = Array.isArray(list)
      ? list
      : list !== undefined && list !== null && typeof list === 'object'
        ? Object.entries(list).map(([key, v]) => ({ key, value: v }))
        : [];
    if (items.length === 0) return node.empty ? renderNodes(node.empty, env) : '';
    let out = '';
    items.forEach((item, index) => {
      const meta = {
        '@index': index,
        '@number': index + 1,
        '@first': index === 0,
        '@last': index === items.length - 1,
      };
      out += renderNodes(node.body, {
        ...env,
        item,
        meta,
        bound: node.as ? { ...env.bound, [node.as]: item } : env.bound,
      });
    });
    return out;
  }
  const block = env.blocks[node.block];
  if (!block) throw new Error(`presentation block "${node.block}" is not registered`);
  // A block's Markdown is finished (a table, a fenced diagnostic output): it is kept out of the blank-line and
  // trailing-space tidying, so output it quotes keeps its exact bytes.
  const out = block(
    node.args.map((a) => resolve(a, env)),
    env.root,
    env.options,
  );
  return out === undefined || out === '' ? '' : keepText(env, out.replace(/^\n+|\n+$/g, ''));
}

function resolve(value: Value, env: Env): unknown {
  if ('literal' in value) return value.literal;
  if (value.from === 'meta') return env.meta[value.path[0] ?? ''];
  let v: unknown = value.from === 'root' ? env.root : value.from === 'item' ? env.item : env.bound;
  for (const key of value.path) {
    if (v === undefined || v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

function holds(condition: Condition, env: Env): boolean {
  return condition.some((all) => all.every((test) => passes(test, env)));
}

function passes(test: Test, env: Env): boolean {
  const left = resolve(test.left, env);
  let ok: boolean;
  if (!test.op || !test.right) ok = isTruthy(left);
  else {
    const right = resolve(test.right, env);
    switch (test.op) {
      case '==':
        ok = left === right;
        break;
      case '!=':
        ok = left !== right;
        break;
      default:
        ok = typeof left === 'number' && typeof right === 'number' && compare(test.op, left, right);
    }
  }
  return test.not ? !ok : ok;
}

function compare(op: '>' | '<' | '>=' | '<=', a: number, b: number): boolean {
  return op === '>' ? a > b : op === '<' ? a < b : op === '>=' ? a >= b : a <= b;
}
