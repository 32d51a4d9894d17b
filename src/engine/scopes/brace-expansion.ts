// `{a,b}` alternatives are expanded into separate patterns before anything else, because an alternative may
// hold `/` or a whole `**` segment (`{src,lib}/**`), which only the segment-level translation understands.
import { classEnd } from './char-class.js';
import type { Translated } from './types.js';

// Expansion multiplies (`{a,b}{c,d}` is four patterns); a bound keeps a pathological config from
// exhausting memory, far above anything a real scope needs.
const MAX_ALTERNATIVES = 256;

type Expansion = Translated<{ alternatives: string[] }>;

/** Every pattern the braces in `pattern` stand for, in written order; a pattern without braces is itself. */
export function expandBraces(pattern: string): Expansion {
  const alternatives: string[] = [];
  const reason = expandInto(Array.from(pattern), alternatives);
  return reason === undefined ? { ok: true, alternatives } : { ok: false, reason };
}

function expandInto(chars: readonly string[], out: string[]): string | undefined {
  const open = firstOpenBrace(chars);
  if (open === undefined) {
    out.push(chars.join(''));
    return out.length > MAX_ALTERNATIVES ? `braces expand to more than ${MAX_ALTERNATIVES} patterns` : undefined;
  }
  const group = readGroup(chars, open);
  if (group === undefined) return '`{` has no closing `}`';
  const prefix = chars.slice(0, open);
  const suffix = chars.slice(group.close + 1);
  // Nested and later groups are expanded by the recursion, since each result still carries them.
  for (const alternative of group.alternatives) {
    const reason = expandInto([...prefix, ...alternative, ...suffix], out);
    if (reason !== undefined) return reason;
  }
  return undefined;
}

// A `{` inside a bracket expression is a member of the class, not a group.
function skipClass(chars: readonly string[], i: number): number {
  return chars[i] === '[' ? (classEnd(chars, i) ?? i) : i;
}

function firstOpenBrace(chars: readonly string[]): number | undefined {
  for (let i = 0; i < chars.length; i++) {
    i = skipClass(chars, i);
    if (chars[i] === '{') return i;
  }
  return undefined;
}

function readGroup(chars: readonly string[], open: number): { close: number; alternatives: string[][] } | undefined {
  const alternatives: string[][] = [];
  let current: string[] = [];
  let depth = 0;
  for (let i = open + 1; i < chars.length; i++) {
    const end = skipClass(chars, i);
    if (end !== i) {
      current.push(...chars.slice(i, end + 1));
      i = end;
      continue;
    }
    const c = chars[i] ?? '';
    if (c === '}' && depth === 0) {
      alternatives.push(current);
      return { close: i, alternatives };
    }
    if (c === ',' && depth === 0) {
      alternatives.push(current);
      current = [];
      continue;
    }
    if (c === '{') depth++;
    if (c === '}') depth--;
    current.push(c);
  }
  return undefined;
}
