// The front-matter keys a page's listing reads, each checked for its type. A value of the wrong type is
// reported and ignored, so the page is listed as if the key were absent — never with a guess at what was meant.
import type { FrontMatterValue } from './front-matter.js';

export interface PageMeta {
  id?: string;
  title?: string;
  description?: string;
  order?: number;
  aliases?: string[];
  publish?: boolean;
}

const TEXT_KEYS = ['id', 'title', 'description'] as const;

export function pageMeta(data: Readonly<Record<string, FrontMatterValue>>): { meta: PageMeta; problems: string[] } {
  const meta: PageMeta = {};
  const problems: string[] = [];
  const wrong = (key: string, value: FrontMatterValue, wanted: string): void => {
    problems.push(`\`${key}\` is ${kindOf(value)}; it must be ${wanted}`);
  };
  for (const key of TEXT_KEYS) {
    const value = data[key];
    // `key:` with nothing after it reads as null: the key is there but says nothing.
    if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) continue;
    if (typeof value !== 'string') wrong(key, value, 'text (quote it to keep it as written)');
    else if (value.trim() !== '') meta[key] = value.trim();
  }
  const order = data['order'];
  if (typeof order === 'number' && Number.isInteger(order)) meta.order = order;
  else if (order !== undefined && order !== null) wrong('order', order, 'a whole number');
  const aliases = data['aliases'];
  // An alias is a name, so `- 2024` is the alias "2024"; a nested list or map is not a name.
  if (Array.isArray(aliases) && aliases.every(isScalar)) meta.aliases = aliases.map(String);
  else if (aliases !== undefined && aliases !== null) wrong('aliases', aliases, 'a list of names, such as [a, b]');
  const publish = data['publish'];
  if (typeof publish === 'boolean') meta.publish = publish;
  else if (publish !== undefined && publish !== null) wrong('publish', publish, 'true or false');
  return { meta, problems };
}

function isScalar(value: FrontMatterValue): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function kindOf(value: FrontMatterValue): string {
  if (Array.isArray(value)) return value.every(isScalar) ? 'a list' : 'a list holding lists or maps';
  if (value === null) return 'empty';
  if (typeof value === 'object') return 'a map';
  if (typeof value === 'string') return `the text "${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  return `${typeof value === 'number' ? 'the number' : 'the boolean'} ${String(value)}`;
}
