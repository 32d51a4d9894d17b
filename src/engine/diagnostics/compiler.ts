// gcc, clang and the many tools that copy their shape (swiftc, nvcc, gfortran, some linters):
// `file:line:col: severity: message` or `file:line: severity: message`. `note:` lines elaborate on the
// preceding diagnostic and are not diagnostics themselves. A trailing `[-Wflag]` names the warning option;
// any other trailing `[rule-id]` names the rule.
import { checkoutPath } from './checkout-path.js';
import type { LineFinding } from './finding.js';

// The path may start with a drive letter (C:\...) and may contain spaces, but not a leading one (indented
// lines are context, not diagnostics).
const SHAPE = /^((?:[A-Za-z]:[\\/])?[^\s:][^:]*?):(\d+)(?::(\d+))?: (fatal error|error|warning): (.*)$/i;
const FLAGS = /\s*\[(-W[^\]\s]*)\]$/;
// Linters that copy the shape often end with their rule id in brackets: `… [no-tabs]`, `… [E501]`.
const RULE = /\s+\[([A-Za-z][\w./@-]*)\]$/;

export function parseCompiler(lines: readonly string[], cwd?: string): LineFinding[] {
  const findings: LineFinding[] = [];
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at] ?? '';
    if (!/: (?:fatal error|error|warning): /i.test(line)) continue;
    const shape = SHAPE.exec(line);
    // A timestamp ("12:30:45: error: ...") has the same shape; a file name is never all digits.
    if (shape === null || /^\d+$/.test(shape[1] ?? '')) continue;
    let message = shape[5] ?? '';
    const flags = FLAGS.exec(message);
    if (flags !== null) message = message.slice(0, flags.index);
    const rule = flags === null ? RULE.exec(message) : null;
    if (rule !== null) message = message.slice(0, rule.index);
    findings.push({
      at,
      severity: shape[4]?.toLowerCase() === 'warning' ? 'warning' : 'error',
      message,
      file: checkoutPath(shape[1] ?? '', cwd),
      line: Number(shape[2]),
      col: shape[3] === undefined ? undefined : Number(shape[3]),
      rule: flags !== null ? warningOption(flags[1] ?? '') : rule !== null ? rule[1] : undefined,
      narrow: { file: checkoutPath(shape[1] ?? '', cwd) ?? shape[1] ?? '' },
    });
  }
  return findings;
}

// clang writes `[-Werror,-Wunused-variable]` and gcc `[-Werror=unused-variable]` when a warning was promoted;
// the rule is the warning's own option either way.
function warningOption(flags: string): string | undefined {
  const options = flags
    .split(',')
    .map((flag) => flag.replace(/^-Werror=/, '-W'))
    .filter((flag) => flag !== '-Werror');
  return options[options.length - 1];
}
