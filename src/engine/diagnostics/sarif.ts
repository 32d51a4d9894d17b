// SARIF 2.x (eslint's SARIF formatter, CodeQL, Semgrep, many security scanners). The document is often wrapped
// in noise (npm warnings before it, a "done" line after), so when the whole text is not JSON the span up to
// the last "}" is tried from the first "{" and from the first line that starts with "{".
import { checkoutPath } from './checkout-path.js';
import { positiveInt, type Finding } from './finding.js';

type Json = Record<string, unknown>;

export function parseSarif(text: string, cwd?: string): Finding[] {
  // Cheap gate: a SARIF log always has a "runs" key, so most outputs never reach JSON.parse.
  if (!text.includes('"runs"')) return [];
  const log = sarifLog(text);
  if (log === undefined) return [];
  const findings: Finding[] = [];
  for (const run of arrayOf(log['runs'])) {
    const artifacts = arrayOf(run['artifacts']);
    for (const result of arrayOf(run['results'])) {
      if (!isProblem(result)) continue;
      const rule = stringOf(result['ruleId']) ?? stringOf(objectOf(result['rule'])?.['id']);
      const fixes = result['fixes'];
      findings.push({
        severity: severityOf(result['level']),
        message: messageOf(result['message']) ?? rule ?? 'SARIF result without a message',
        ...locationOf(arrayOf(result['locations'])[0], artifacts, cwd),
        rule,
        fix_available: Array.isArray(fixes) && fixes.length > 0 ? true : undefined,
      });
    }
    // A file the tool could not even parse is reported as an invocation notification, not a result (eslint's
    // formatter does this for parsing errors); dropping it would hide the actual cause of the failure.
    for (const invocation of arrayOf(run['invocations'])) {
      for (const key of ['toolExecutionNotifications', 'toolConfigurationNotifications']) {
        for (const note of arrayOf(invocation[key])) {
          if (note['level'] !== 'error') continue;
          findings.push({
            severity: 'error',
            message: messageOf(note['message']) ?? 'the tool reported an error',
            ...locationOf(arrayOf(note['locations'])[0], artifacts, cwd),
            rule: stringOf(objectOf(note['descriptor'])?.['id']),
          });
        }
      }
    }
  }
  return findings;
}

function sarifLog(text: string): Json | undefined {
  const whole = parseJson(text);
  if (whole !== undefined && isSarif(whole)) return whole;
  const last = text.lastIndexOf('}');
  // The first "{" of the text, then the first "{" that opens a line: noise before the log can hold braces of
  // its own ("> lint {fast}"), while a printed log starts its own line.
  const lineStart = /^\{/m.exec(text)?.index ?? -1;
  const starts = [...new Set([text.indexOf('{'), lineStart])].filter((first) => first !== -1 && first < last);
  for (const first of starts) {
    if (first === 0 && last === text.length - 1) continue; // that was the whole text
    const inner = parseJson(text.slice(first, last + 1));
    if (inner !== undefined && isSarif(inner)) return inner;
  }
  return undefined;
}

function parseJson(text: string): Json | undefined {
  try {
    return objectOf(JSON.parse(text));
  } catch {
    return undefined;
  }
}

function isSarif(doc: Json): boolean {
  if (!Array.isArray(doc['runs'])) return false;
  const version = doc['version'];
  const schema = doc['$schema'];
  return (typeof version === 'string' && /^2\./.test(version)) || (typeof schema === 'string' && /sarif/i.test(schema));
}

// kind "pass"/"notApplicable" results record checks that succeeded, and suppressed results were accepted in
// source (eslint-disable, # nosec): neither is a reason the job failed.
function isProblem(result: Json): boolean {
  const kind = result['kind'];
  if (kind === 'pass' || kind === 'notApplicable') return false;
  const suppressions = arrayOf(result['suppressions']);
  return !suppressions.some((s) => s['status'] === undefined || s['status'] === 'accepted');
}

// SARIF's own default for a missing level is "warning", but this runs on a job that failed: an unlevelled or
// "none" result is treated as the failure's cause rather than quietly downgraded.
function severityOf(level: unknown): 'error' | 'warning' {
  return level === 'warning' || level === 'note' ? 'warning' : 'error';
}

function messageOf(message: unknown): string | undefined {
  const m = objectOf(message);
  const text = stringOf(m?.['text']) ?? stringOf(m?.['markdown']);
  if (text === undefined) return undefined;
  // Messages may carry {0}-style placeholders filled from `arguments`.
  const args = Array.isArray(m?.['arguments']) ? (m['arguments'] as unknown[]) : [];
  const filled =
    args.length === 0 ? text : text.replace(/\{(\d+)\}/g, (all, n: string) => stringOf(args[Number(n)]) ?? all);
  return filled.trim() === '' ? undefined : filled;
}

function locationOf(
  location: Json | undefined,
  artifacts: Json[],
  cwd: string | undefined,
): Pick<Finding, 'file' | 'line' | 'col'> {
  const physical = objectOf(location?.['physicalLocation']);
  const artifact = objectOf(physical?.['artifactLocation']);
  // The uri may be given only by index into run.artifacts.
  const index = artifact?.['index'];
  const indexed = typeof index === 'number' ? objectOf(artifacts[index]?.['location']) : undefined;
  const uri = stringOf(artifact?.['uri']) ?? stringOf(indexed?.['uri']);
  const region = objectOf(physical?.['region']);
  return {
    file: uri === undefined ? undefined : checkoutPath(decodeRelative(uri), cwd),
    line: positiveInt(region?.['startLine']),
    col: positiveInt(region?.['startColumn']),
  };
}

// Relative SARIF uris are URI references, so "my%20file.ts" names "my file.ts"; file: URIs are decoded by
// checkoutPath and other schemes are left alone.
function decodeRelative(uri: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(uri)) return uri;
  try {
    return decodeURIComponent(uri);
  } catch {
    return uri;
  }
}

function objectOf(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

function arrayOf(value: unknown): Json[] {
  if (!Array.isArray(value)) return [];
  const objects: Json[] = [];
  for (const item of value) {
    const object = objectOf(item);
    if (object !== undefined) objects.push(object);
  }
  return objects;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;
}
