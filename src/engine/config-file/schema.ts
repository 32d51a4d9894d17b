// The configuration schema as a map of keys: what a dotted path names in it (through $refs, tables of a name
// of your choosing, and the alternatives of a value that may be written several ways), described in words for
// `config explain`, and the fixed key paths it knows, for suggestions.
import { CONFIG_SCHEMA } from '../../../generated/config-schema.js';

type Node = Record<string, unknown>;

export interface KeyInfo {
  type: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  /** A table's named keys. */
  keys?: string[];
  /** The JSON types a value of the key may have. */
  accepts: Set<string>;
}

const ROOT = CONFIG_SCHEMA as Node;

/** The schema node a path names, or undefined when the schema has no such key. */
export function schemaAt(path: readonly string[]): Node | undefined {
  let nodes: Node[] = [ROOT];
  for (const key of path) {
    nodes = nodes.flatMap((n) => branches(n)).flatMap((n) => child(n, key));
    if (nodes.length === 0) return undefined;
  }
  // A key reached through several alternatives: they are merged as `anyOf`.
  return nodes.length === 1 ? nodes[0] : { anyOf: nodes };
}

export function explainKey(path: readonly string[]): KeyInfo | undefined {
  const node = schemaAt(path);
  if (!node) return undefined;
  const described = resolve(node);
  const flat = branches(node);
  const info: KeyInfo = { type: typeWords(node), accepts: new Set(flat.flatMap(jsonTypes)) };
  const description =
    str(node['description']) ?? str(described['description']) ?? flat.map((b) => str(b['description'])).find(Boolean);
  if (description) info.description = description;
  const fallback = 'default' in node ? node['default'] : described['default'];
  if (fallback !== undefined) info.default = fallback;
  const values = flat.flatMap((b) => (Array.isArray(b['enum']) ? (b['enum'] as unknown[]) : []));
  if (values.length > 0) info.enum = values;
  const keys = [...new Set(flat.flatMap((b) => Object.keys(props(b))))];
  if (keys.length > 0) info.keys = keys;
  return info;
}

/** Every key path the schema names outright (tables of your own naming contribute none below them). */
export function knownKeyPaths(): string[][] {
  const out: string[][] = [];
  const walk = (node: Node, path: string[], depth: number): void => {
    if (depth > 6) return;
    for (const b of branches(node)) {
      for (const [key, sub] of Object.entries(props(b))) {
        out.push([...path, key]);
        walk(sub as Node, [...path, key], depth + 1);
      }
    }
  };
  walk(ROOT, [], 0);
  return out;
}

function child(node: Node, key: string): Node[] {
  const named = props(node)[key];
  if (named) return [named as Node];
  const extra = node['additionalProperties'];
  if (typeof extra !== 'object' || extra === null) return [];
  const names = node['propertyNames'] as Node | undefined;
  const pattern = typeof names?.['pattern'] === 'string' ? new RegExp(names['pattern'] as string, 'u') : undefined;
  if (pattern && !pattern.test(key)) return [];
  return [extra as Node];
}

/** The object shapes a node may take: its $ref followed, its anyOf/oneOf alternatives flattened. */
function branches(node: Node): Node[] {
  const resolved = resolve(node);
  const alternatives = (resolved['anyOf'] ?? resolved['oneOf']) as Node[] | undefined;
  if (Array.isArray(alternatives)) return alternatives.flatMap(branches);
  return [resolved];
}

function resolve(node: Node): Node {
  let current = node;
  for (let i = 0; i < 16 && typeof current['$ref'] === 'string'; i++) {
    const name = (current['$ref'] as string).replace(/^#\/\$defs\//, '');
    const target = ((ROOT['$defs'] ?? {}) as Record<string, Node>)[name];
    if (!target) break;
    current = target;
  }
  return current;
}

function props(node: Node): Record<string, unknown> {
  const p = node['properties'];
  return typeof p === 'object' && p !== null ? (p as Record<string, unknown>) : {};
}

function jsonTypes(node: Node): string[] {
  const t = node['type'];
  if (typeof t === 'string') return t === 'integer' ? ['integer', 'number'] : [t];
  if (Array.isArray(t)) return t.map(String);
  if (Array.isArray(node['enum'])) return [...new Set((node['enum'] as unknown[]).map((v) => typeof v))];
  return [];
}

function typeWords(node: Node): string {
  const words = branches(node).map((b) => {
    if (Array.isArray(b['enum'])) return 'one of the listed values';
    const t = b['type'];
    if (t === 'array') {
      const items = b['items'];
      const inner = typeof items === 'object' && items !== null ? branches(items as Node).map(plainType) : [];
      return inner.length > 0 ? `array of ${[...new Set(inner)].join(' or ')}s` : 'array';
    }
    return plainType(b);
  });
  return [...new Set(words)].join(' or ');
}

function plainType(node: Node): string {
  const t = node['type'];
  if (t === 'object') return 'table';
  if (typeof t === 'string') return t;
  return 'value';
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
