// Where inline forms close, for one source string, in time close to linear in its length. A naive search from
// each opener rescans the rest of the text whenever no closer exists (`_a _a _a …` took seconds), so every
// search remembers what it learned: backtick runs are indexed once, and each scan for an emphasis closer, a
// link's `]` or its `)` records the answer for every position it walked, so a later scan stops where an
// earlier one has been.

export interface CodeSpan {
  content: string;
  raw: string;
  end: number;
}

const UNKNOWN = -2;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const SPACE = /\s/;

export class Delimiters {
  private runEnds: Int32Array | undefined;
  private runsByLength: Map<number, number[]> | undefined;
  private readonly spans = new Map<number, CodeSpan | null>();
  private readonly closers = new Map<string, Int32Array>();
  private readonly brackets = new Map<number, number>();
  private parens: Int32Array | undefined;

  constructor(readonly source: string) {}

  /** Where the run of backticks that `at` is inside ends. */
  runEnd(at: number): number {
    if (this.runEnds === undefined) this.indexRuns();
    return (this.runEnds as Int32Array)[at] ?? at + 1;
  }

  /**
   * A code span opening at `start`: the next run of exactly as many backticks closes it; one padding space each
   * side goes. An opener is the rest of the run from `start` (an escaped backtick can split a run).
   */
  codeSpan(start: number): CodeSpan | undefined {
    const known = this.spans.get(start);
    if (known !== undefined) return known ?? undefined;
    const span = this.findSpan(start);
    this.spans.set(start, span ?? null);
    return span;
  }

  private findSpan(start: number): CodeSpan | undefined {
    const runEnd = this.runEnd(start);
    const count = runEnd - start;
    const starts = this.runsByLength?.get(count) ?? [];
    // The first indexed run of this length starting after this one (runs are indexed in order).
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((starts[mid] ?? 0) <= runEnd) lo = mid + 1;
      else hi = mid;
    }
    const found = starts[lo];
    if (found === undefined) return undefined;
    const after = found + count;
    let content = this.source.slice(runEnd, found).replace(/\n/g, ' ');
    if (content.length >= 2 && content.startsWith(' ') && content.endsWith(' ') && content.trim() !== '')
      content = content.slice(1, -1);
    return { content, raw: this.source.slice(start, after).replace(/\n/g, ' '), end: after };
  }

  /** One pass: the end of the run each backtick belongs to, and the start of every maximal run by its length. */
  private indexRuns(): void {
    const { source } = this;
    const ends = new Int32Array(source.length + 1);
    const byLength = new Map<number, number[]>();
    for (let i = source.length - 1; i >= 0; i--) {
      if (source[i] === '`') ends[i] = source[i + 1] === '`' ? (ends[i + 1] as number) : i + 1;
    }
    for (let i = 0; i < source.length; i++) {
      if (source[i] !== '`' || source[i - 1] === '`') continue;
      const length = (ends[i] as number) - i;
      const list = byLength.get(length) ?? [];
      list.push(i);
      byLength.set(length, list);
    }
    this.runEnds = ends;
    this.runsByLength = byLength;
  }

  /** Past a backtick at `at`: the end of its code span, or of its run when it opens none (a run is one piece). */
  private pastBackticks(at: number): number {
    return this.codeSpan(at)?.end ?? this.runEnd(at);
  }

  /**
   * Where the emphasis opened at `start` by `marker` closes, or -1. The opener must be followed by a non-space
   * and the closer preceded by one; `_` does not open or close inside a word (snake_case stays as it is); a
   * single marker next to another of its kind is part of a stronger one, so it neither opens nor closes.
   */
  closing(start: number, marker: string): number {
    const { source } = this;
    const ch = marker[0] ?? '*';
    const single = marker.length === 1;
    const inner = start + marker.length;
    const first = source[inner];
    if (first === undefined || SPACE.test(first)) return -1;
    if (single && (first === ch || source[start - 1] === ch)) return -1;
    if (ch === '_' && LETTER_OR_DIGIT.test(source[start - 1] ?? '')) return -1;
    // The walk below depends only on the position, so its answer holds for every position it passes.
    let memo = this.closers.get(marker);
    if (memo === undefined) {
      memo = new Int32Array(source.length + 1).fill(UNKNOWN);
      this.closers.set(marker, memo);
    }
    const walked: number[] = [];
    let result = -1;
    let at = inner + 1;
    while (at < source.length) {
      const known = memo[at] as number;
      if (known !== UNKNOWN) {
        result = known;
        break;
      }
      walked.push(at);
      const c = source[at];
      if (c === '\\') {
        at += 2;
        continue;
      }
      if (c === '`') {
        at = this.pastBackticks(at);
        continue;
      }
      if (source.startsWith(marker, at) && !SPACE.test(source[at - 1] ?? ' ')) {
        const after = source[at + marker.length] ?? '';
        if (single && (after === ch || source[at - 1] === ch)) {
          at += 1;
          continue;
        }
        if (ch === '_' && LETTER_OR_DIGIT.test(after)) {
          at += 1;
          continue;
        }
        result = at;
        break;
      }
      at += 1;
    }
    for (const p of walked) memo[p] = result;
    return result;
  }

  /** The `]` matching the `[` at `start`, or -1; brackets balance, escapes and code spans are skipped. */
  closingBracket(start: number): number {
    const known = this.brackets.get(start);
    if (known !== undefined) return known;
    const { source } = this;
    // Every `[` met on the way is matched (or found unmatched) by the same walk: remember them all.
    const open: number[] = [];
    for (let i = start; i < source.length; i++) {
      const c = source[i];
      if (c === '\\') {
        i++;
        continue;
      }
      if (c === '`') {
        i = this.pastBackticks(i) - 1;
        continue;
      }
      if (c === '[') {
        const seen = this.brackets.get(i);
        if (seen !== undefined && i !== start) {
          // Already walked from here: jump past its match, or every bracket still open is unmatched too.
          if (seen === -1) break;
          i = seen;
          continue;
        }
        open.push(i);
      }
      if (c === ']' && open.length > 0) {
        this.brackets.set(open.pop() as number, i);
        if (open.length === 0) break;
      }
    }
    for (const p of open) this.brackets.set(p, -1);
    return this.brackets.get(start) ?? -1;
  }

  /**
   * The `)` that ends a link destination starting at `from` (parentheses balance), or -1 when a line break or
   * the end comes first. Every position walked learns where the walk from it would end: the `)` that closes the
   * level it was met at, or -1 for a level never closed.
   */
  closingParen(from: number): number {
    const { source } = this;
    if (this.parens === undefined) this.parens = new Int32Array(source.length + 1).fill(UNKNOWN);
    const memo = this.parens;
    const levels: number[][] = [[]];
    let result = -1;
    let j = from;
    while (j < source.length) {
      const known = memo[j] as number;
      if (known === -1) break;
      // A walk from here already found this level's `)`: go straight to it.
      if (known !== UNKNOWN && known !== j) {
        j = known;
        continue;
      }
      levels[levels.length - 1]?.push(j);
      const c = source[j];
      if (c === '\\') {
        j += 2;
        continue;
      }
      if (c === '\n') break;
      if (c === '(') levels.push([]);
      if (c === ')') {
        for (const p of levels.pop() ?? []) memo[p] = j;
        if (levels.length === 0) {
          result = j;
          break;
        }
      }
      j += 1;
    }
    for (const level of levels) for (const p of level) memo[p] = -1;
    return result;
  }
}
