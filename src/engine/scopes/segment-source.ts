// Translation of a brace-free pattern, one `/`-separated segment at a time, into RegExp source. Splitting
// first is what keeps `*`, `?` and classes inside a segment and lets `**` stand for whole segments only.
import { classEnd, classSource } from './char-class.js';
import type { Translated } from './types.js';

// Syntax characters that are safe to escape under the `u` flag; `-` is deliberately absent, since `\-`
// outside a class is a syntax error there.
const LITERAL_SPECIAL = /[.*+?^${}()|[\]\\/]/g;

export function escapeLiteral(text: string): string {
  return text.replace(LITERAL_SPECIAL, '\\$&');
}

/** RegExp source for one segment other than a bare `**`. */
export function segmentSource(segment: string): Translated<{ source: string }> {
  const chars = Array.from(segment);
  let source = '';
  let i = 0;
  while (i < chars.length) {
    const c = chars[i] ?? '';
    if (c === '*') {
      // `**` that is not a whole segment (`a**b`) cannot cross `/` either, so it collapses to `*`.
      while (chars[i] === '*') i++;
      source += '[^/]*';
    } else if (c === '?') {
      source += '[^/]';
      i++;
    } else if (c === '[') {
      const end = classEnd(chars, i);
      if (end === undefined) return { ok: false, reason: '`[` has no closing `]` in the same path segment' };
      const cls = classSource(chars.slice(i + 1, end));
      if (!cls.ok) return cls;
      source += cls.source;
      i = end + 1;
    } else {
      source += escapeLiteral(c);
      i++;
    }
  }
  return { ok: true, source };
}

/**
 * RegExp source for a brace-free pattern of one or more segments, unanchored; the caller decides where it
 * may start and end. `**` as a whole segment is zero or more segments, or at the end one or more.
 */
export function segmentsSource(pattern: string): Translated<{ source: string }> {
  const segments = pattern.split('/');
  let source = '';
  for (const [index, segment] of segments.entries()) {
    const last = index === segments.length - 1;
    const invalid = segmentProblem(segment);
    if (invalid !== undefined) return { ok: false, reason: invalid };
    if (segment === '**') {
      // Trailing `dir/**` is everything under dir, never dir itself, so it needs at least one character;
      // `[^]`, not `.`, because `.` stops at line terminators and a path may contain any of them.
      source += last ? '[^]+' : '(?:[^/]+/)*';
      continue;
    }
    const translated = segmentSource(segment);
    if (!translated.ok) return translated;
    source += last ? translated.source : `${translated.source}/`;
  }
  return { ok: true, source };
}

// Changed paths are normalised by git, so these segments could never match: they are mistakes to report.
function segmentProblem(segment: string): string | undefined {
  if (segment === '..') return '`..` segment: patterns name paths inside the repository';
  if (segment === '.') return '`.` segment: changed paths never contain one';
  if (segment === '') return 'empty path segment (`//`)';
  return undefined;
}
