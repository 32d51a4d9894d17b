// The checkout's sparse-checkout patterns, and which tracked paths they leave out. In a sparse checkout the paths
// outside the patterns are not checked out and carry skip-worktree: that is expected, and the jobs do not see
// them. A skip-worktree path the patterns select is a file hidden from git status, and is refused like any other.
// Inside-or-outside is decided as git 2.39 decides it (dir.c, path_in_sparse_checkout): in cone mode by the
// recursive and parent directory sets, otherwise by the patterns as gitignore rules, the last match deciding and an
// undecided path taking its nearest decided directory's answer. Whatever cannot be read for certain counts as
// inside, so an error refuses rather than lets a hidden file through.
import { createHash } from 'node:crypto';
import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { git } from './git.js';

export interface SparseCheckout {
  /** sha256 of <git-dir>/info/sparse-checkout, byte for byte. */
  digest: string;
  /** core.sparseCheckoutCone. */
  cone: boolean;
  /** Whether git would check this tracked path out (true when it cannot tell). */
  selects(path: string): boolean;
}

/**
 * The sparse checkout in effect, or undefined in a full checkout. Without a sparse-checkout file git checks out
 * everything whatever core.sparseCheckout says, so a checkout without one costs one failed read and no git process.
 */
export async function readSparseCheckout(
  gitDir: string,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<SparseCheckout | undefined> {
  let content: Buffer;
  try {
    content = readFileSync(join(gitDir, 'info', 'sparse-checkout'));
  } catch {
    return undefined;
  }
  const read = await git(
    ['config', '--type=bool', '--get-regexp', '^core\\.(sparsecheckout|sparsecheckoutcone|ignorecase)$'],
    { cwd, env },
  );
  // The last value of a key is the one git uses.
  const settings = new Map<string, string>();
  for (const line of read.stdout.split('\n')) {
    const [key, value] = line.split(' ');
    if (key && value) settings.set(key, value);
  }
  if (settings.get('core.sparsecheckout') !== 'true') return undefined;
  const cone = settings.get('core.sparsecheckoutcone') === 'true';
  const ignoreCase = settings.get('core.ignorecase') === 'true';
  const patterns = parsePatterns(content.toString('utf8'));
  const coneSets = cone ? coneSetsFrom(patterns, ignoreCase) : undefined;
  const rules = coneSets ? undefined : patterns.map((p) => compileRule(p, ignoreCase));
  return {
    digest: createHash('sha256').update(content).digest('hex'),
    cone,
    selects: coneSets
      ? (path) => coneSelects(coneSets, ignoreCase ? path.toLowerCase() : path)
      : (path) => rulesSelect(rules ?? [], path),
  };
}

/**
 * The skip-worktree paths (from `git ls-files -v -z`, flag `S`) a sparse checkout accounts for: outside its
 * patterns and absent from the working tree. A file present there is seen by the jobs but not by git status when
 * `sparse.expectFilesOutsideOfPatterns` is set, so it is not accounted for.
 */
export function outsideSparsePatterns(sparse: SparseCheckout, root: string, path: string): boolean {
  if (sparse.selects(path)) return false;
  try {
    lstatSync(join(root, path));
    return false;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR';
  }
}

interface Pattern {
  /** The pattern without its `!` and trailing `/`. */
  body: string;
  negative: boolean;
  mustBeDir: boolean;
}

/** The file's lines as git reads them (dir.c add_patterns_from_buffer and parse_path_pattern). */
export function parsePatterns(text: string): Pattern[] {
  const patterns: Pattern[] = [];
  for (const raw of text.split('\n')) {
    const line = trimTrailingSpaces(raw.endsWith('\r') ? raw.slice(0, -1) : raw);
    if (line === '' || line.startsWith('#')) continue;
    let body = line;
    const negative = body.startsWith('!');
    if (negative) body = body.slice(1);
    const mustBeDir = body.endsWith('/');
    if (mustBeDir) body = body.slice(0, -1);
    patterns.push({ body, negative, mustBeDir });
  }
  return patterns;
}

/** Trailing spaces go unless escaped with a backslash (dir.c trim_trailing_spaces). */
function trimTrailingSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && line[end - 1] === ' ') {
    let slashes = 0;
    for (let i = end - 2; i >= 0 && line[i] === '\\'; i--) slashes++;
    if (slashes % 2 === 1) break;
    end--;
  }
  return line.slice(0, end);
}

interface ConeSets {
  /** `/*` without a following `!/*\/`: every path is selected. */
  full: boolean;
  recursive: Set<string>;
  parents: Set<string>;
}

/** The cone's directory sets, or undefined when a pattern is not a cone pattern (git then reads them as rules). */
function coneSetsFrom(patterns: readonly Pattern[], ignoreCase: boolean): ConeSets | undefined {
  const sets: ConeSets = { full: false, recursive: new Set(), parents: new Set() };
  for (const p of patterns) {
    if (p.negative && p.mustBeDir && p.body === '/*') {
      sets.full = false;
      continue;
    }
    if (!p.negative && !p.mustBeDir && p.body === '/*') {
      sets.full = true;
      continue;
    }
    if (p.body.length < 2 || !p.body.startsWith('/') || p.body.includes('**') || !p.mustBeDir) return undefined;
    if (!plainConePath(p.body)) return undefined;
    const parent = p.body.length > 2 && p.body.endsWith('/*');
    if (parent !== p.negative) return undefined;
    let dir = unescape(p.body.slice(1, parent ? -2 : undefined));
    if (ignoreCase) dir = dir.toLowerCase();
    if (parent) {
      sets.parents.add(dir);
      sets.recursive.delete(dir);
    } else {
      sets.recursive.add(dir);
    }
  }
  return sets;
}

/** No glob character but escaped ones and a final `/*` (dir.c add_pattern_to_hashsets). */
function plainConePath(body: string): boolean {
  const special = (c: string | undefined): boolean => c === '*' || c === '?' || c === '[' || c === '\\';
  for (let i = 1; i < body.length; i++) {
    const c = body[i];
    if (!special(c)) continue;
    if (body[i - 1] === '\\') continue;
    if (c === '\\' && special(body[i + 1])) continue;
    if (body[i - 1] === '/' && c === '*' && i === body.length - 1) continue;
    return false;
  }
  return true;
}

function unescape(text: string): string {
  return text.replace(/\\(.)/gu, '$1');
}

/** path_matches_pattern_list in cone mode, for a file. */
function coneSelects(sets: ConeSets, path: string): boolean {
  if (sets.full) return true;
  if (sets.recursive.has(path)) return true;
  const slash = path.lastIndexOf('/');
  if (slash < 0) return true;
  if (sets.parents.has(path.slice(0, slash))) return true;
  for (let at = path.indexOf('/'); at >= 0; at = path.indexOf('/', at + 1))
    if (sets.recursive.has(path.slice(0, at))) return true;
  return false;
}

interface Rule {
  negative: boolean;
  mustBeDir: boolean;
  /** Matched against the basename when the pattern has no slash, else against the whole path. */
  basename: boolean;
  /** undefined when the pattern could not be translated: it then matches everything (selects). */
  regex: RegExp | undefined;
}

function compileRule(p: Pattern, ignoreCase: boolean): Rule {
  const basename = !p.body.includes('/');
  const body = !basename && p.body.startsWith('/') ? p.body.slice(1) : p.body;
  const source = wildmatchSource(body);
  let regex: RegExp | undefined;
  try {
    regex = source === undefined ? undefined : new RegExp(`^${source}$`, ignoreCase ? 'isu' : 'su');
  } catch {
    // A class git reads but RegExp does not (a reversed range): the rule selects.
    regex = undefined;
  }
  return { negative: p.negative, mustBeDir: p.mustBeDir, basename, regex };
}

/** The path's verdict: its own when a rule decides, else its nearest directory's; no decision leaves it out. */
function rulesSelect(rules: readonly Rule[], path: string): boolean {
  let dir = false;
  for (let end = path.length; end > 0; end = path.lastIndexOf('/', end - 1)) {
    const prefix = path.slice(0, end);
    const verdict = lastMatch(rules, prefix, prefix.slice(prefix.lastIndexOf('/') + 1), dir);
    if (verdict !== undefined) return verdict;
    dir = true;
  }
  return false;
}

function lastMatch(rules: readonly Rule[], path: string, basename: string, dir: boolean): boolean | undefined {
  for (let i = rules.length - 1; i >= 0; i--) {
    const rule = rules[i];
    if (rule === undefined || (rule.mustBeDir && !dir)) continue;
    // A rule that could not be read selects: an error must not leave a file out.
    if (rule.regex === undefined) return true;
    if (rule.regex.test(rule.basename ? basename : path)) return !rule.negative;
  }
  return undefined;
}

/** RegExp source for git's wildmatch with WM_PATHNAME, or undefined for what it does not read for certain. */
function wildmatchSource(pattern: string): string | undefined {
  const chars = [...pattern];
  let out = '';
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] ?? '';
    if (c === '*') {
      let j = i;
      while (chars[j + 1] === '*') j++;
      const double = j > i;
      const startsSegment = i === 0 || chars[i - 1] === '/';
      const next = chars[j + 1];
      if (double && startsSegment && next === '/') {
        out += '(?:.*/)?';
        j++;
      } else if (double && startsSegment && next === undefined) {
        out += '.*';
      } else {
        out += '[^/]*';
      }
      i = j;
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '[') {
      const end = chars.indexOf(']', i + (chars[i + 1] === '!' || chars[i + 1] === '^' ? 3 : 2));
      const body = end < 0 ? undefined : chars.slice(i + 1, end);
      if (body === undefined || body.some((b) => b === '[' || b === '\\' || b === '/')) return undefined;
      const negated = body[0] === '!' || body[0] === '^';
      const members = (negated ? body.slice(1) : body).map((m) => (m === ']' || m === '^' ? `\\${m}` : m)).join('');
      out += negated ? `[^${members}/]` : `(?!/)[${members}]`;
      i = end;
    } else if (c === '\\') {
      const escaped = chars[i + 1];
      if (escaped === undefined) return undefined;
      out += literal(escaped);
      i++;
    } else {
      out += literal(c);
    }
  }
  return out;
}

function literal(c: string): string {
  return /[\\^$.*+?()[\]{}|/]/u.test(c) ? `\\${c}` : c;
}
