// Bracket expressions (`[abc]`, `[a-z]`, `[!x]`). They are read on code points, not UTF-16 units, so a range
// or a single member can be a character outside the Basic Multilingual Plane.
import type { Translated } from './types.js';

/**
 * Index of the `]` closing the class opened at `open`, or undefined when the class is not closed within the
 * same path segment. As in POSIX, a `]` right after `[` (or after `[!`) is a member, not the end.
 */
export function classEnd(chars: readonly string[], open: number): number | undefined {
  let i = open + 1;
  if (chars[i] === '!' || chars[i] === '^') i++;
  if (chars[i] === ']') i++;
  for (; i < chars.length; i++) {
    // A class can never match `/`, so letting one span a separator would only hide a typo.
    if (chars[i] === '/') return undefined;
    if (chars[i] === ']') return i;
  }
  return undefined;
}

// Inside a RegExp class under the `u` flag only these need escaping, and only these may be escaped.
const CLASS_SPECIAL = new Set(['\\', ']', '[', '^', '-']);

function member(c: string): string {
  return CLASS_SPECIAL.has(c) ? `\\${c}` : c;
}

/** RegExp source for the class whose members (between `[` and `]`) are `body`. */
export function classSource(body: readonly string[]): Translated<{ source: string }> {
  let i = 0;
  const negated = body[0] === '!' || body[0] === '^';
  if (negated) i = 1;
  let members = '';
  while (i < body.length) {
    const from = body[i] ?? '';
    const to = body[i + 2];
    // A `-` is a range only between two members; first or last it is a literal dash.
    if (body[i + 1] === '-' && to !== undefined) {
      if ((from.codePointAt(0) ?? 0) > (to.codePointAt(0) ?? 0)) {
        return { ok: false, reason: `character range \`${from}-${to}\` is out of order` };
      }
      members += `${member(from)}-${member(to)}`;
      i += 3;
    } else {
      members += member(from);
      i += 1;
    }
  }
  // A range such as `[!-0]` spans `/`, so the separator is excluded explicitly rather than by construction.
  const source = negated ? `[^${members}/]` : `(?!/)[${members}]`;
  return { ok: true, source };
}
