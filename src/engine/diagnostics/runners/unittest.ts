// unittest's text report: per failure a `=====` rule, `FAIL: test_half (test_calc.RatioTest.test_half)` (or
// `ERROR:`; Python 3.10 and earlier print `(test_calc.RatioTest)`), a `-----` rule, then a traceback. The
// test's own frame is the one `in test_half`, not the innermost (for a failed assertion that is unittest's own
// case.py). Rerunning one test: `-k` with its dotted name.
import { checkoutPath, inCheckout } from '../checkout-path.js';
import { joinMessage, type LineFinding } from '../finding.js';

const HEADER = /^(FAIL|ERROR|UNEXPECTED SUCCESS): (\S+) \((\S+?)\)(?:\s.*)?$/;
const FRAME = /^\s*File "(.+?)", line (\d+)(?:, in (.*))?$/;

export function parseUnittest(lines: readonly string[], cwd?: string): LineFinding[] {
  const findings: LineFinding[] = [];
  for (let at = 1; at < lines.length; at++) {
    const header = HEADER.exec(lines[at] ?? '');
    if (header === null || !/^={20,}$/.test(lines[at - 1] ?? '')) continue;
    const method = header[2] ?? '';
    const dotted = (header[3] ?? '').endsWith(`.${method}`) ? (header[3] ?? '') : `${header[3] ?? ''}.${method}`;
    const frames: { file: string; line: number; fn: string }[] = [];
    const body: string[] = [];
    let i = at + 2;
    for (; i < lines.length && !/^(={20,}|-{20,})$/.test(lines[i] ?? ''); i++) {
      const line = lines[i] ?? '';
      const frame = FRAME.exec(line);
      if (frame !== null) {
        const file = checkoutPath(frame[1] ?? '', cwd);
        if (file !== undefined) frames.push({ file, line: Number(frame[2]), fn: frame[3] ?? '' });
      } else if (!/^\s/.test(line) && !/^Traceback \(most recent call last\):$/.test(line)) body.push(line);
    }
    const own = frames.find((f) => f.fn === method) ?? [...frames].reverse().find((f) => inCheckout(f.file));
    findings.push({
      at,
      through: i - 1,
      severity: 'error',
      message: joinMessage(body) || `${header[1]}: ${method}`,
      file: own?.file,
      line: own?.line,
      rule: dotted,
      narrow: { runner: 'unittest', args: ['-k', dotted] },
    });
  }
  return findings;
}
