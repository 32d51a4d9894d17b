// ESLint's json formatter: one line, an array of `{filePath, messages: [{ruleId, severity, message, line,
// column, fix?}]}`. Severity 2 is an error, 1 a warning; a parsing error has a null ruleId and `fatal: true`.
import { checkoutPath } from '../checkout-path.js';
import type { LineFinding } from '../finding.js';

export function parseEslintJson(lines: readonly string[], cwd?: string): LineFinding[] {
  const findings: LineFinding[] = [];
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at] ?? '';
    if (!line.startsWith('[{"filePath":')) continue;
    let results: unknown;
    try {
      results = JSON.parse(line);
    } catch {
      continue;
    }
    if (!Array.isArray(results)) continue;
    for (const result of results as unknown[]) {
      if (!isRecord(result) || typeof result['filePath'] !== 'string' || !Array.isArray(result['messages'])) continue;
      const file = checkoutPath(result['filePath'], cwd);
      for (const message of result['messages'] as unknown[]) {
        if (!isRecord(message) || typeof message['message'] !== 'string') continue;
        findings.push({
          at,
          severity: message['severity'] === 1 ? 'warning' : 'error',
          message: message['message'],
          file,
          line: typeof message['line'] === 'number' ? message['line'] : undefined,
          col: typeof message['column'] === 'number' ? message['column'] : undefined,
          rule: typeof message['ruleId'] === 'string' ? message['ruleId'] : undefined,
          fix_available: isRecord(message['fix']) ? true : undefined,
          narrow: file === undefined ? undefined : { file },
        });
      }
    }
  }
  return findings;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
