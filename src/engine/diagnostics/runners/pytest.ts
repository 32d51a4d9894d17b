// pytest's console report. `FAILURES` (and `ERRORS`) hold one section per failure under a `____ name ____`
// header; what the section shows depends on --tb: `path:line: Type` after the code (long, auto), `path:line: in
// fn` above it (short), Python's own `File "path", line N` frames (native), or only `path:line: message` lines
// (line). `E   ` lines carry the exception. The `short test summary info` lists each failure's node id
// (`FAILED tests/test_x.py::Class::test - message`), which names the test's file: the diagnostic points at the
// test's own frame in it (pytest starts each traceback at the test function), not at the innermost frame in a
// library or the standard library. -q drops the headers but not the sections.
import { checkoutPath, inCheckout } from '../checkout-path.js';
import { joinMessage, type LineFinding } from '../finding.js';

const BANNER = /^={3,} (FAILURES|ERRORS) ={3,}$/;
const ANY_BANNER = /^={3,} .* ={3,}$|^={3,}$/;
const HEADER = /^_{3,} (.+?) _{3,}$/;
const SUMMARY = /^(FAILED|ERROR) (\S+?)(?: - (.*))?$/;
const LOCATION = /^(\S[^:]*?\.py):(\d+):(?: (.*))?$/;
const NATIVE = /^\s*File "(.+?)", line (\d+)(?:, in (.*))?$/;

interface Frame {
  file: string;
  line: number;
}

interface Section {
  at: number;
  end: number;
  name: string;
  lines: string[];
}

export function parsePytest(lines: readonly string[], cwd?: string): LineFinding[] {
  const nodeIds = summaryIds(lines);
  const sections = sectionsOf(lines);
  if (sections.length === 0) return lineMode(lines, nodeIds, cwd);
  // A section header is the node id after the file, `::` written `.`. Two files may hold tests of one name: the
  // section's own frames say which file it is, else the summary's order does (pytest prints both in one order).
  const byHeader = new Map<string, string[]>();
  for (const id of nodeIds) {
    const header = id.slice(id.indexOf('::') + 2).replace(/::/g, '.');
    const same = byHeader.get(header);
    if (same === undefined) byHeader.set(header, [id]);
    else same.push(id);
  }
  const used = new Set<string>();
  return sections.map((section) => {
    const frames = framesOf(section.lines, cwd);
    // A module that failed to import is named by its path; an error in setup or teardown says so before the name.
    const collecting = /^ERROR collecting (\S+\.py)$/.exec(section.name)?.[1];
    const candidates = byHeader.get(section.name.replace(/^ERROR at (?:setup|teardown|call) of /, '')) ?? [];
    const nodeId =
      collecting ??
      candidates.find((id) => !used.has(id) && frames.some((f) => f.file === id.split('::')[0])) ??
      candidates.find((id) => !used.has(id)) ??
      candidates[0];
    if (nodeId !== undefined) used.add(nodeId);
    const testFile = nodeId === undefined ? undefined : nodeId.split('::')[0];
    const frame =
      (testFile === undefined ? undefined : frames.find((f) => f.file === testFile)) ?? innermostOwn(frames);
    return {
      at: section.at,
      through: section.end,
      severity: 'error',
      message: messageOf(section.lines) || `${section.name} failed`,
      file: frame?.file ?? testFile,
      line: frame?.line,
      rule: nodeId ?? section.name,
      narrow: nodeId === undefined ? undefined : { runner: 'pytest', args: [nodeId] },
    } satisfies LineFinding;
  });
}

/** The node ids of the summary, in order: `tests/test_x.py::Class::test_y[param]`. */
function summaryIds(lines: readonly string[]): string[] {
  const ids: string[] = [];
  for (const line of lines) {
    const summary = SUMMARY.exec(line);
    if (summary !== null && (summary[2] ?? '').includes('::')) ids.push(summary[2] ?? '');
  }
  return ids;
}

function sectionsOf(lines: readonly string[]): Section[] {
  const sections: Section[] = [];
  let inReport = false;
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at] ?? '';
    if (BANNER.test(line)) {
      inReport = true;
      continue;
    }
    if (ANY_BANNER.test(line)) {
      inReport = false;
      continue;
    }
    if (!inReport) continue;
    const header = HEADER.exec(line);
    const current = sections[sections.length - 1];
    if (header !== null) sections.push({ at, end: at, name: header[1] ?? '', lines: [] });
    else if (current !== undefined) {
      current.lines.push(line);
      current.end = at;
    }
  }
  return sections;
}

function framesOf(lines: readonly string[], cwd: string | undefined): Frame[] {
  const frames: Frame[] = [];
  for (const line of lines) {
    const match = LOCATION.exec(line) ?? NATIVE.exec(line);
    if (match === null) continue;
    const file = checkoutPath(match[1] ?? '', cwd);
    if (file !== undefined) frames.push({ file, line: Number(match[2]) });
  }
  return frames;
}

/** The innermost frame in the checkout's own code: not an installed package, not the standard library. */
function innermostOwn(frames: readonly Frame[]): Frame | undefined {
  return [...frames].reverse().find((f) => inCheckout(f.file) && !/site-packages|dist-packages/.test(f.file));
}

function messageOf(lines: readonly string[]): string {
  const errors = lines.filter((l) => /^E(\s|$)/.test(l)).map((l) => l.slice(1));
  if (errors.length > 0) return joinMessage(errors);
  // --tb=native: the exception is the unindented line after the last frame.
  const last = lines.findLastIndex((l) => NATIVE.test(l));
  return last === -1 ? '' : joinMessage(lines.slice(last + 1).filter((l) => !/^\s/.test(l)));
}

// --tb=line: one `path:line: message` per failure (the crash's place), in the summary's order.
function lineMode(lines: readonly string[], ids: readonly string[], cwd: string | undefined): LineFinding[] {
  const findings: LineFinding[] = [];
  let inReport = false;
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at] ?? '';
    if (BANNER.test(line)) inReport = true;
    else if (ANY_BANNER.test(line)) inReport = false;
    const location = inReport ? /^(\S[^:]*?\.py):(\d+): (.*)$/.exec(line) : null;
    if (location === null) continue;
    const nodeId = ids[findings.length];
    const testFile = nodeId?.slice(0, nodeId.indexOf('::'));
    const file = checkoutPath(location[1] ?? '', cwd);
    // A crash inside the standard library or a package says nothing about the project: the test's file does.
    const own = file !== undefined && inCheckout(file) && !/site-packages|dist-packages/.test(file);
    findings.push({
      at,
      severity: 'error',
      message: location[3] ?? '',
      file: own ? file : testFile,
      line: own ? Number(location[2]) : undefined,
      rule: nodeId,
      narrow: nodeId === undefined ? undefined : { runner: 'pytest', args: [nodeId] },
    });
  }
  return findings.length === ids.length ? findings : findings.map(({ rule: _r, narrow: _n, ...f }) => f);
}
