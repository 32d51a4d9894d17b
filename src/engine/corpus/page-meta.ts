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
    // `key:` with nothing after it reads as an empty list: the key is there but says nothing.
    if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    if (typeof value !== 'string') wrong(key, value, 'text (quote it to keep it as written)');
    else if (value.trim() !== '') meta[key] = value.trim();
  }
  const order = data['order'];
  if (typeof order === 'number') meta.order = order;
  else if (order !== undefined) wrong('order', order, 'a whole number');
  const aliases = data['aliases'];
  if (Array.isArray(aliases)) meta.aliases = aliases;
  else if (aliases !== undefined) wrong('aliases', aliases, 'a list, such as [a, b]');
  const publish = data['publish'];
  if (typeof publish === 'boolean') meta.publish = publish;
  else if (publish !== undefined) wrong('publish', publish, 'true or false');
  return { meta, problems };
}

function kindOf(value: FrontMatterValue): string {
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return `the text "${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  return `${typeof value === 'number' ? 'the number' : 'the boolean'} ${String(value)}`;
}
