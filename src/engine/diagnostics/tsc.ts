// TypeScript's compiler. Piped output and --pretty false print `file(line,col): error TSxxxx: message`; the
// pretty form (a terminal, or --pretty true) prints `file:line:col - error TSxxxx: message`. Both continue a
// chained message ("Types of property 'a' are incompatible.") on the following indented lines, which are the
// part that explains the error, so they are kept. Global errors (bad tsconfig) have no location.
import { checkoutPath } from './checkout-path.js';
import type { LineFinding } from './finding.js';

const PIPED = /^(.+?)\((\d+),(\d+)\): (error|warning) (TS\d+): (.*)$/;
const PRETTY = /^(.+?):(\d+):(\d+) - (error|warning) (TS\d+): (.*)$/;
const GLOBAL = /^(error|warning) (TS\d+): (.*)$/;
const CONTINUATION_LINES = 10;

export function parseTsc(lines: readonly string[], cwd?: string): LineFinding[] {
  const findings: LineFinding[] = [];
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at] ?? '';
    if (!line.includes(' TS') && !line.startsWith('error') && !line.startsWith('warning')) continue;
    const located = PIPED.exec(line) ?? PRETTY.exec(line);
    const global = located === null ? GLOBAL.exec(line) : null;
    if (located === null && global === null) continue;
    const [severity, rule, first] =
      located !== null ? [located[4], located[5], located[6]] : [global?.[1], global?.[2], global?.[3]];
    findings.push({
      at,
      severity: severity === 'warning' ? 'warning' : 'error',
      message: [first ?? '', ...continuation(lines, at)].join('\n'),
      file: located?.[1] === undefined ? undefined : checkoutPath(located[1], cwd),
      line: located === null ? undefined : Number(located[2]),
      col: located === null ? undefined : Number(located[3]),
      rule,
    });
  }
  return findings;
}

function continuation(lines: readonly string[], at: number): string[] {
  const kept: string[] = [];
  for (let i = at + 1; i < lines.length && kept.length < CONTINUATION_LINES; i++) {
    const line = lines[i] ?? '';
    if (!/^\s+\S/.test(line)) break;
    kept.push(line.trimEnd());
  }
  return kept;
}
