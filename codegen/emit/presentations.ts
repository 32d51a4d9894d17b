// Each verb's authored Markdown comes from spec/verbs/<verb>/presentation.md. Codegen parses every template once,
// checks it against the verb's published result contract — every path it reads must exist in the result
// schema, every filter and block must exist — and emits the parsed trees as data into generated/presentations.ts.
// A template that reads a field the contract does not have is a codegen error, not an empty line at run time.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Contracts } from '../schemas/contracts.js';
import type { JsonSchema, SpecModel } from '../spec/types.js';
import { ProblemList } from '../spec/errors.js';
import { resultDefName } from '../schemas/names.js';
import { withCodeHeader } from './provenance.js';
import { parseTemplate, TemplateError } from '../../src/render/template/parse.js';
import type { Node, Template, Value } from '../../src/render/template/ast.js';
import { FILTERS } from '../../src/render/template/filters.js';
import { BLOCK_NAMES } from '../../src/render/markdown/block-names.js';

export const PRESENTATION_FILE = 'presentation.md';

export function emitPresentations(root: string, model: SpecModel, contracts: Contracts): Map<string, string> {
  const problems = new ProblemList();
  const templates: [string, Template][] = [];
  for (const verb of model.verbs) {
    const file = `${verb.dir}/${PRESENTATION_FILE}`;
    if (!existsSync(join(root, file))) {
      problems.add(file, '', `every verb has an authored presentation: write ${file} (docs/decisions/0031)`);
      continue;
    }
    let template: Template;
    try {
      template = parseTemplate(readFileSync(join(root, file), 'utf8'));
    } catch (error) {
      if (error instanceof TemplateError) {
        problems.add(file, '', error.message);
        continue;
      }
      throw error;
    }
    const schema = contracts.defs[resultDefName(verb.pascal)];
    if (!schema) throw new Error(`${verb.spec.verb}: no result definition`);
    const check = new TemplateCheck(contracts.defs, (message) => problems.add(file, '', message));
    for (const nodes of Object.values(template))
      if (nodes) check.nodes(nodes, { root: [schema], item: [schema], bound: {} });
    templates.push([verb.spec.verb, template]);
  }
  problems.throwIfAny();
  const body = templates.map(([verb, t]) => `  ${JSON.stringify(verb)}: ${JSON.stringify(t)},`).join('\n');
  return new Map([
    [
      'generated/presentations.ts',
      withCodeHeader(
        ['spec/verbs/*/presentation.md'],
        `import type { Template } from '../src/render/template/ast.js';\n\n/** Every verb's parsed presentation template, checked against its result contract. */\nexport const PRESENTATIONS: Readonly<Record<string, Template>> = {\n${body}\n};\n`,
      ),
    ],
  ]);
}

interface Scope {
  root: JsonSchema[];
  item: JsonSchema[];
  bound: Record<string, JsonSchema[]>;
}

/** Walks a template's tree, resolving each path against the schemas it can reach. */
class TemplateCheck {
  constructor(
    private readonly defs: Record<string, JsonSchema>,
    private readonly problem: (message: string) => void,
  ) {}

  nodes(nodes: readonly Node[], scope: Scope): void {
    for (const node of nodes) this.node(node, scope);
  }

  private node(node: Node, scope: Scope): void {
    if ('text' in node) return;
    if ('value' in node) {
      this.value(node.value, scope);
      for (const f of node.filters) {
        const spec = (FILTERS as Record<string, { args: [number, number] }>)[f.name];
        if (!spec) this.problem(`unknown filter "${f.name}" (filters: ${Object.keys(FILTERS).join(', ')})`);
        else if (f.args.length < spec.args[0] || f.args.length > spec.args[1])
          this.problem(`filter "${f.name}" takes ${spec.args[0]}–${spec.args[1]} arguments, not ${f.args.length}`);
        for (const a of f.args) this.value(a, scope);
      }
      return;
    }
    if ('if' in node) {
      for (const branch of node.if) {
        for (const all of branch.when) for (const t of all) [t.left, t.right].forEach((v) => v && this.value(v, scope));
        this.nodes(branch.then, scope);
      }
      if (node.else) this.nodes(node.else, scope);
      return;
    }
    if ('each' in node) {
      const over = this.value(node.each, scope);
      const items = over.flatMap((s) => this.itemsOf(s));
      if (over.length > 0 && items.length === 0)
        this.problem(`{{#each ${describe(node.each)}}}: that value is neither a list nor a map`);
      this.nodes(node.body, {
        ...scope,
        item: items,
        bound: node.as ? { ...scope.bound, [node.as]: items } : scope.bound,
      });
      if (node.empty) this.nodes(node.empty, scope);
      return;
    }
    if (!(BLOCK_NAMES as readonly string[]).includes(node.block))
      this.problem(`unknown block "${node.block}" (blocks: ${BLOCK_NAMES.join(', ')})`);
    for (const a of node.args) this.value(a, scope);
  }

  /** The schemas a value can have; reports a path the contract does not have. */
  private value(value: Value, scope: Scope): JsonSchema[] {
    if ('literal' in value || value.from === 'meta') return [{}];
    const [start, path] =
      value.from === 'root'
        ? [scope.root, value.path]
        : value.from === 'item'
          ? [scope.item, value.path]
          : [scope.bound[value.path[0] ?? ''] ?? [], value.path.slice(1)];
    let current = start.flatMap((s) => this.expand(s));
    for (const [i, key] of path.entries()) {
      const next = current.flatMap((s) => this.property(s, key)).flatMap((s) => this.expand(s));
      if (next.length === 0) {
        this.problem(
          `"${describe(value)}": the result contract has no "${key}" at ${path.slice(0, i).join('.') || 'this level'}`,
        );
        return [];
      }
      current = next;
    }
    return current;
  }

  /** A schema with its $ref followed and its alternatives (oneOf, anyOf, allOf, then/else) laid side by side. */
  private expand(schema: JsonSchema, depth = 0): JsonSchema[] {
    if (depth > 20) return [schema];
    const ref = schema['$ref'];
    let out: JsonSchema[] = [schema];
    if (typeof ref === 'string') {
      const name = /^#\/\$defs\/(.+)$/.exec(ref)?.[1];
      const target = name ? this.defs[name] : undefined;
      if (!target) throw new Error(`presentation check: cannot follow ${ref}`);
      out = this.expand(target, depth + 1);
    }
    for (const key of ['oneOf', 'anyOf', 'allOf']) {
      const list = schema[key];
      if (Array.isArray(list)) out = out.concat(list.flatMap((s) => this.expand(s as JsonSchema, depth + 1)));
    }
    for (const key of ['then', 'else']) {
      const s = schema[key];
      if (s && typeof s === 'object') out = out.concat(this.expand(s as JsonSchema, depth + 1));
    }
    return out;
  }

  private property(schema: JsonSchema, key: string): JsonSchema[] {
    const props = schema['properties'];
    if (props && typeof props === 'object' && key in props)
      return [(props as Record<string, JsonSchema>)[key] as JsonSchema];
    const extra = schema['additionalProperties'];
    if (extra && typeof extra === 'object') return [extra as JsonSchema];
    // A list's items by position (`list.0`) and its length.
    if (schema['type'] === 'array' || schema['items']) {
      if (/^\d+$/.test(key) && schema['items']) return [schema['items'] as JsonSchema];
      if (key === 'length') return [{ type: 'integer' }];
    }
    return [];
  }

  /** What `each` walks: a list's items, or a map's {key, value} entries. */
  private itemsOf(schema: JsonSchema): JsonSchema[] {
    if (schema['items']) return this.expand(schema['items'] as JsonSchema);
    const extra = schema['additionalProperties'];
    if (extra && typeof extra === 'object')
      return [{ type: 'object', properties: { key: { type: 'string' }, value: extra } }];
    return [];
  }
}

function describe(value: Value): string {
  if ('literal' in value) return JSON.stringify(value.literal);
  return `${value.from === 'root' ? '@root.' : ''}${value.path.join('.')}`;
}
