// Turns one `paths` entry into a predicate over repository-relative paths. The form is decided from the
// written pattern first (where it may match), then the body is translated to one anchored RegExp.
import { expandBraces } from './brace-expansion.js';
import { segmentsSource } from './segment-source.js';
import type { CompiledPattern, Translated } from './types.js';

const GLOB_CHARACTERS = /[*?[{]/;

/**
 * root: the whole path, from the repository root (exact paths, `dir/**`, globs with `/`).
 * basename: the last segment at any depth (`*.md`).
 * segments: whole segments anywhere in the path, the last included (`/fixtures/`).
 */
type Anchor = 'root' | 'basename' | 'segments';

const BOUNDS: Record<Anchor, { start: string; end: string }> = {
  root: { start: '^', end: '$' },
  basename: { start: '(?:^|/)', end: '$' },
  segments: { start: '(?:^|/)', end: '(?:/|$)' },
};

export function compilePattern(pattern: string): CompiledPattern {
  const shape = shapeOf(pattern);
  if (!shape.ok) return shape;
  const expanded = expandBraces(shape.body);
  if (!expanded.ok) return expanded;
  const sources: string[] = [];
  for (const alternative of expanded.alternatives) {
    const translated = segmentsSource(alternative);
    if (!translated.ok) return translated;
    sources.push(translated.source);
  }
  const { start, end } = BOUNDS[shape.anchor];
  let regex: RegExp;
  try {
    regex = new RegExp(`${start}(?:${sources.join('|')})${end}`, 'u');
  } catch (error) {
    // The translation escapes everything it does not emit itself, so this is a bug, but user input must
    // still come back as a problem rather than an exception.
    return { ok: false, reason: `could not be translated: ${error instanceof Error ? error.message : String(error)}` };
  }
  return { ok: true, test: (path) => regex.test(path) };
}

function shapeOf(pattern: string): Translated<{ body: string; anchor: Anchor }> {
  if (pattern === '') return { ok: false, reason: 'empty pattern' };
  let body = pattern;
  while (body.startsWith('./')) body = body.slice(2);
  if (body === '' || body === '/') return { ok: false, reason: 'pattern names no path' };
  if (body.startsWith('/') && body.endsWith('/')) return { ok: true, body: body.slice(1, -1), anchor: 'segments' };
  if (body.endsWith('/')) {
    // `docs/` reads as either `docs/**` or `/docs/`; guessing would silently widen or narrow the scope.
    const name = body.slice(0, -1);
    return {
      ok: false,
      reason: `trailing \`/\`: write \`${name}/**\` for everything under it at the root, or \`/${name}/\` for that segment anywhere`,
    };
  }
  if (body.startsWith('/')) return { ok: true, body: body.slice(1), anchor: 'root' };
  const anywhere = !body.includes('/') && GLOB_CHARACTERS.test(body);
  return { ok: true, body, anchor: anywhere ? 'basename' : 'root' };
}
