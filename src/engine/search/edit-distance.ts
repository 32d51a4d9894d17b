// Damerau–Levenshtein distance in its optimal-string-alignment form: insertions, deletions, substitutions
// and transpositions of adjacent characters each cost 1, and no substring is edited twice. Transpositions
// matter because they are the commonest typo ("wroktrees").

/** Counts by code point so a non-BMP character is one edit, not two. */
export function editDistance(a: string, b: string): number {
  const left = Array.from(a);
  const right = Array.from(b);
  if (left.length === 0) return right.length;
  if (right.length === 0) return left.length;

  // Three rolling rows: the transposition case looks two rows back.
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: right.length + 1 }, (_unused, j) => j);
  for (let i = 1; i <= left.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= right.length; j += 1) {
      const cost = left[i - 1] === right[j - 1] ? 0 : 1;
      let best = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && left[i - 1] === right[j - 2] && left[i - 2] === right[j - 1]) {
        best = Math.min(best, (beforePrevious[j - 2] ?? 0) + 1);
      }
      current.push(best);
    }
    beforePrevious = previous;
    previous = current;
  }
  return previous[right.length] ?? 0;
}
