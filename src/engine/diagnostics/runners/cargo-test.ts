// `cargo test`: per test binary `Running unittests src/lib.rs (…)` or `Running tests/api.rs (…)`, then per
// failure a `---- tests::adds stdout ----` section with the panic: `thread 'tests::adds' (4242) panicked at
// src/lib.rs:20:9:` and the message on the next lines (Rust 1.73 and later), or `thread '…' panicked at
// 'message', src/lib.rs:20:9` (earlier). With RUST_BACKTRACE the section also holds the backtrace, whose frame
// for the test function itself (`calc::tests::adds at ./src/lib.rs:20:9`) is the test's own line when the panic
// came from a function it called.
import { checkoutPath, inCheckout } from '../checkout-path.js';
import { joinMessage, type LineFinding } from '../finding.js';

const RUNNING = /^\s*Running (?:unittests )?(\S+) \(/;
const SECTION = /^---- (\S+) stdout ----$/;
const PANIC = /^thread '([^']*)'(?: \(\d+\))? panicked at (\S+?):(\d+):(\d+):$/;
const OLD_PANIC = /^thread '([^']*)' panicked at '(.*)', (\S+?):(\d+):(\d+)$/;
const SYMBOL = /^\s+\d+: (\S+)$/;
const SYMBOL_AT = /^\s+at \.?\/?(\S+?):(\d+):(\d+)$/;

export function parseCargoTest(lines: readonly string[], cwd?: string): LineFinding[] {
  const findings: LineFinding[] = [];
  let target: string[] | undefined;
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at] ?? '';
    const running = RUNNING.exec(line);
    if (running !== null) {
      target = targetOf(running[1] ?? '');
      continue;
    }
    const section = SECTION.exec(line);
    if (section === null) continue;
    const name = section[1] ?? '';
    const body: string[] = [];
    let i = at + 1;
    for (; i < lines.length && !SECTION.test(lines[i] ?? '') && !/^failures:$/.test(lines[i] ?? ''); i++)
      body.push(lines[i] ?? '');
    const through = i - 1;
    const panic = panicOf(body, cwd);
    const own = ownFrame(body, name, cwd);
    findings.push({
      at,
      through,
      severity: 'error',
      message: panic?.message || `${name} failed`,
      file: own?.file ?? panic?.file,
      line: own?.line ?? panic?.line,
      col: own?.col ?? panic?.col,
      rule: name,
      narrow: { runner: 'cargo-test', args: [...(target ?? []), name], binaryArgs: ['--exact'] },
    });
  }
  return findings;
}

/** `--lib` for src/lib.rs, `--bin name` for src/main.rs and src/bin/name.rs, `--test api` for tests/api.rs. */
function targetOf(source: string): string[] | undefined {
  if (/(^|\/)src\/lib\.rs$/.test(source)) return ['--lib'];
  const test = /(?:^|\/)tests\/([^/]+)\.rs$/.exec(source) ?? /(?:^|\/)tests\/([^/]+)\/main\.rs$/.exec(source);
  if (test !== null) return ['--test', test[1] ?? ''];
  const bin = /(?:^|\/)src\/bin\/([^/]+)\.rs$/.exec(source);
  if (bin !== null) return ['--bin', bin[1] ?? ''];
  return undefined;
}

interface Place {
  file: string;
  line: number;
  col: number;
}

function panicOf(body: readonly string[], cwd: string | undefined): (Place & { message: string }) | undefined {
  for (let i = 0; i < body.length; i++) {
    const line = body[i] ?? '';
    const old = OLD_PANIC.exec(line);
    if (old !== null) {
      const file = checkoutPath(old[3] ?? '', cwd);
      return file === undefined
        ? undefined
        : { file, line: Number(old[4]), col: Number(old[5]), message: old[2] ?? '' };
    }
    const panic = PANIC.exec(line);
    if (panic === null) continue;
    const message: string[] = [];
    for (let j = i + 1; j < body.length; j++) {
      const next = body[j] ?? '';
      if (next.trim() === '' || /^(?:stack backtrace:|note: )/.test(next)) break;
      message.push(next);
    }
    const file = checkoutPath(panic[2] ?? '', cwd);
    if (file === undefined) return undefined;
    return { file, line: Number(panic[3]), col: Number(panic[4]), message: joinMessage(message) };
  }
  return undefined;
}

/** The backtrace frame of the test function itself: its symbol ends with the test's path. */
function ownFrame(body: readonly string[], name: string, cwd: string | undefined): Place | undefined {
  for (let i = 0; i + 1 < body.length; i++) {
    const symbol = SYMBOL.exec(body[i] ?? '');
    if (symbol === null || !(symbol[1] === name || (symbol[1] ?? '').endsWith(`::${name}`))) continue;
    const where = SYMBOL_AT.exec(body[i + 1] ?? '');
    if (where === null) continue;
    const file = checkoutPath(where[1] ?? '', cwd);
    if (file !== undefined && inCheckout(file)) return { file, line: Number(where[2]), col: Number(where[3]) };
  }
  return undefined;
}
