// The words of a simple command line (`npx jest --ci`, `python3 -m pytest -q 'tests/a b.py'`), as a POSIX shell
// would split them, or undefined when the line is more than one simple command: an operator, a redirection, a
// substitution, a variable or a comment makes its meaning the shell's, and a caller that rewrites arguments must
// not guess at it. Each word keeps the text it was written as, so a rewrite puts back untouched words exactly
// (an unquoted glob stays a glob).
export interface ShellWord {
  value: string;
  raw: string;
}

const OPERATOR = /[;&|<>()`$\n\r]/;

export function simpleCommandWords(line: string): ShellWord[] | undefined {
  const words: ShellWord[] = [];
  let word = '';
  let inWord = false;
  let start = 0;
  for (let i = 0; i < line.length; i++) {
    const ch = line.charAt(i);
    if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end === -1) return undefined;
      word += line.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (ch === '"') {
      let j = i + 1;
      for (; j < line.length && line.charAt(j) !== '"'; j++) {
        const c = line.charAt(j);
        if (c === '$' || c === '`') return undefined;
        if (c === '\\' && /["\\]/.test(line.charAt(j + 1))) j++;
        word += line.charAt(j);
      }
      if (j >= line.length) return undefined;
      inWord = true;
      i = j;
    } else if (ch === '\\') {
      if (i + 1 >= line.length || /[\n\r]/.test(line.charAt(i + 1))) return undefined;
      word += line.charAt(++i);
      inWord = true;
    } else if (ch === ' ' || ch === '\t') {
      if (inWord) words.push({ value: word, raw: line.slice(start, i) });
      word = '';
      inWord = false;
      start = i + 1;
    } else if (OPERATOR.test(ch) || (ch === '#' && !inWord)) {
      return undefined;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (inWord) words.push({ value: word, raw: line.slice(start) });
  return words.length === 0 ? undefined : words;
}
