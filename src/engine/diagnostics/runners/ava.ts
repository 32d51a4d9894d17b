// AVA's default reporter: failures after a `─` rule, each a title (`file › test` when several files ran), the
// assertion's `file:line`, a code excerpt, the difference, and `› file:line:col` frames; a thrown error prints
// `Error thrown in test:` and a stack instead of the `file:line`. Blocks end where the next title starts after
// blank lines, and the list ends at another `─`. The diagnostic points at the frame in the test's file.
import { basename } from 'node:path';
import { checkoutPath } from '../checkout-path.js';
import { joinMessage, type LineFinding } from '../finding.js';
import { jsFrame, testFrame, type JsFrame } from './js-stack.js';

const RULE = /^\s*─\s*$/;
const FAILED_MARK = /^\s*✘ \[fail\]: /;
const WHERE = /^\s{2}(\S+):(\d+)$/;

export function parseAva(lines: readonly string[], cwd?: string): LineFinding[] {
  const rules = lines.flatMap((line, i) => (RULE.test(line) ? [i] : []));
  if (rules.length === 0 || !lines.some((line) => FAILED_MARK.test(line))) return [];
  const from = rules[0] ?? 0;
  const to = rules[1] ?? lines.length;
  const findings: LineFinding[] = [];
  for (const block of blocks(lines, from + 1, to)) {
    const title = (lines[block.at] ?? '').trim();
    const body = block.lines;
    const where = body.map((l) => WHERE.exec(l)).find((m) => m !== null && m !== undefined);
    const frames = body
      .map((l) => (/^\s*(?:›|at)\s/.test(l) ? jsFrame(l.replace(/^\s*›\s/, ''), cwd) : undefined))
      .filter((f): f is JsFrame => f !== undefined);
    const declared = where === undefined ? undefined : checkoutPath(where[1] ?? '', cwd);
    const testFile = declared ?? frames.find((f) => filePrefix(f.file) === titlePrefix(title))?.file;
    const frame =
      testFrame(frames, testFile) ??
      (declared === undefined ? undefined : { file: declared, line: Number(where?.[2]) });
    const name =
      testFile !== undefined && titlePrefix(title) === filePrefix(testFile)
        ? title.slice(title.indexOf(' › ') + 3)
        : title;
    findings.push({
      at: block.at,
      through: block.end,
      severity: 'error',
      message: messageOf(body) || `${title} failed`,
      file: frame?.file,
      line: frame?.line,
      col: frame !== undefined && 'col' in frame ? frame.col : undefined,
      // The title without the file prefix: AVA adds it only when it ran several files.
      rule: name,
      narrow: testFile === undefined ? undefined : { runner: 'ava', args: [testFile, '--match', name] },
    });
  }
  return findings;
}

/** Failure blocks: a title line after at least one blank line, up to the next title. */
function blocks(lines: readonly string[], from: number, to: number): { at: number; end: number; lines: string[] }[] {
  const found: { at: number; end: number; lines: string[] }[] = [];
  let blank = true;
  for (let i = from; i < to; i++) {
    const line = lines[i] ?? '';
    if (line.trim() === '') {
      blank = true;
      continue;
    }
    const starts =
      blank && /^ {2}\S/.test(line) && !WHERE.test(line) && (found.length === 0 || gapBefore(lines, i) >= 2);
    const current = found[found.length - 1];
    if (starts || current === undefined) found.push({ at: i, end: i, lines: [] });
    else {
      current.lines.push(line);
      current.end = i;
    }
    blank = false;
  }
  return found;
}

function gapBefore(lines: readonly string[], at: number): number {
  let gap = 0;
  for (let i = at - 1; i >= 0 && (lines[i] ?? '').trim() === ''; i--) gap++;
  return gap;
}

// The error's own line (`TypeError: …`) when one was thrown; else what AVA says under the code excerpt.
function messageOf(body: readonly string[]): string {
  const thrown = body.find((l) => /^\s*(?:[A-Z]\w*)?(?:Error|Exception)\b.*: /.test(l));
  if (thrown !== undefined) return thrown.trim();
  const text = body.filter((l) => !WHERE.test(l) && !/^\s*\d+:\s/.test(l) && !/^\s*(?:›|at)\s/.test(l));
  return joinMessage(text, 4);
}

/** `math` for `math › test`; AVA prefixes titles with the file's name when it ran several files. */
function titlePrefix(title: string): string | undefined {
  const cut = title.indexOf(' › ');
  return cut === -1 ? undefined : title.slice(0, cut);
}

function filePrefix(file: string): string {
  return basename(file).replace(/(\.(test|spec))?\.[cm]?[jt]sx?$/, '');
}
