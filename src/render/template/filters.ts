// The filters a presentation template may apply to a value: `{{data.head | short | code}}`. Codegen checks every
// filter name and its argument count against FILTERS, so a template cannot call one that does not exist.

import { mibText } from '../../core/units.js';
export interface FilterSpec {
  /** Arguments the filter takes (min, max). */
  args: [number, number];
  description: string;
}

export const FILTERS = {
  code: { args: [0, 0], description: 'Inline code, with a longer fence when the value holds a backtick.' },
  short: { args: [0, 1], description: 'The first 12 characters (or the given number): a commit id as people read it.' },
  cell: { args: [0, 0], description: 'Safe inside a table cell: pipes escaped, line breaks as spaces.' },
  count: { args: [0, 0], description: 'The number of items of a list (or keys of an object); 0 when absent.' },
  join: { args: [0, 1], description: "A list's items joined by the separator (default ', ')." },
  'code-list': {
    args: [0, 1],
    description: 'A list of strings, each as inline code, joined by the separator (default ", ").',
  },
  plural: { args: [1, 2], description: "A number with its noun: `n | plural 'file'` gives '1 file' or '3 files'." },
  default: { args: [1, 1], description: 'The argument when the value is absent or empty.' },
  json: { args: [0, 0], description: 'The value as compact JSON.' },
  quote: { args: [0, 0], description: 'A block quote: every line prefixed with "> ".' },
  bullets: { args: [0, 0], description: 'A list of strings as a Markdown bullet list.' },
  verbatim: {
    args: [0, 0],
    description: 'Whitespace-significant text inserted exactly, untouched by blank-line tidying.',
  },
  fence: {
    args: [0, 1],
    description:
      'A fenced code block (optional info string) holding the text exactly; its final line break ends the last line, not a blank one.',
  },
  seconds: { args: [0, 0], description: 'Milliseconds as whole seconds: "12 s".' },
  mib: { args: [0, 0], description: 'Bytes in MiB: "52.3 MiB" (whole MiB from 100 up).' },
  first: { args: [0, 0], description: 'The first item of a list.' },
  lines: { args: [0, 0], description: 'A list of strings, one a line.' },
} as const satisfies Record<string, FilterSpec>;

export type FilterName = keyof typeof FILTERS;

export function isTruthy(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0;
  if (v !== null && typeof v === 'object') return Object.keys(v).length > 0;
  return v !== undefined && v !== null && v !== false && v !== '' && v !== 0;
}

function text(v: unknown): string {
  return v === undefined || v === null
    ? ''
    : typeof v === 'string'
      ? v
      : typeof v === 'object'
        ? JSON.stringify(v)
        : String(v);
}

/** Inline code whose fence is longer than any run of backticks inside (CommonMark code spans). */
export function inlineCode(value: string): string {
  const longest = Math.max(0, ...[...value.matchAll(/`+/g)].map((m) => m[0].length));
  if (longest === 0) return `\`${value}\``;
  const ticks = '`'.repeat(longest + 1);
  return `${ticks} ${value} ${ticks}`;
}

export function fenced(value: string, info = 'text'): string {
  const longest = Math.max(2, ...[...value.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${info}\n${value}\n${ticks}`;
}

export function applyFilter(name: string, v: unknown, args: unknown[], env: { kept: string[] }): unknown {
  const list = Array.isArray(v) ? v : [];
  switch (name as FilterName) {
    case 'code':
      return v === undefined || v === null ? v : inlineCode(text(v));
    case 'short':
      return v === undefined || v === null ? v : text(v).slice(0, typeof args[0] === 'number' ? args[0] : 12);
    case 'cell':
      return text(v).replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
    case 'count':
      return Array.isArray(v) ? v.length : v !== null && typeof v === 'object' ? Object.keys(v).length : 0;
    case 'join':
      return list.map(text).join(typeof args[0] === 'string' ? args[0] : ', ');
    case 'code-list':
      return list.map((x) => inlineCode(text(x))).join(typeof args[0] === 'string' ? args[0] : ', ');
    case 'plural': {
      const n = typeof v === 'number' ? v : 0;
      const one = text(args[0]);
      return `${n} ${n === 1 ? one : args[1] !== undefined ? text(args[1]) : `${one}s`}`;
    }
    case 'default':
      return isTruthy(v) || v === 0 || v === false ? v : args[0];
    case 'json':
      return JSON.stringify(v);
    case 'quote':
      return v === undefined || v === null ? v : text(v).replace(/^/gm, '> ');
    case 'bullets':
      return list.map((x) => `- ${text(x)}`).join('\n');
    case 'lines':
      return list.map(text).join('\n');
    case 'verbatim':
      return v === undefined || v === null ? v : keepText(env, text(v));
    case 'fence':
      return v === undefined || v === null
        ? v
        : keepText(env, fenced(text(v).replace(/\n$/, ''), typeof args[0] === 'string' ? args[0] : 'text'));
    case 'seconds':
      return typeof v === 'number' ? `${Math.round(v / 1000)} s` : v;
    case 'mib':
      return typeof v === 'number' ? mibText(v) : v;
    case 'first':
      return list[0];
    default:
      throw new Error(`presentation filter "${name}" does not exist`);
  }
}

/** Marks a kept payload's place in the text until the section is tidied (private-use code points). */
export const KEEP_OPEN = '\u{F0000}';
export const KEEP_CLOSE = '\u{F0001}';

export function keepText(env: { kept: string[] }, value: string): string {
  env.kept.push(value);
  return `${KEEP_OPEN}${env.kept.length - 1}${KEEP_CLOSE}`;
}
