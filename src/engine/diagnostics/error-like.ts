// Whether one line of a job's output looks like a compiler, linter or test-runner diagnostic. The runner counts
// these while streaming (`error_like_lines`), so the check is a handful of anchored patterns, cheap per line.
const SHAPES: readonly RegExp[] = [
  // tsc piped: src/a.ts(3,7): error TS2322: …
  /^\S[^()]*\(\d+,\d+\): (?:error|warning)\b/,
  // gcc, clang, tsc --pretty false variants and generic: file:line:col: severity: …
  /^\S[^:]*:\d+(?::\d+)?: (?:fatal error|error|warning)\b/i,
  // eslint stylish body line: "  12:5  error  message  rule"
  /^\s+\d+:\d+\s+(?:error|warning)\s/,
  // Python tracebacks and frames
  /^Traceback \(most recent call last\):/,
  /^\s*File "[^"]+", line \d+/,
  // Bare severity prefixes many tools print
  /^(?:error|ERROR|Error|FAIL|FAILED|fatal):?\s/,
  /^not ok \d+/,
  /\berror TS\d+:/,
];

export function isErrorLikeLine(line: string): boolean {
  if (line.length === 0 || line.length > 4096) return false;
  for (const shape of SHAPES) if (shape.test(line)) return true;
  return false;
}
