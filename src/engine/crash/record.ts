// When discern itself fails unexpectedly it writes a crash record — what ran, where, and the stack — and
// the caller gets internal_error naming the file, never a stack trace on stdout. Records live under the
// repository's git common dir when there is one, else under the OS temp dir.
import { spawnSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VERSION } from '../../../generated/registry.js';
import { gitEnvironment } from '../git/git.js';

export interface CrashFacts {
  verb: string;
  target: string;
  surface: string;
  error: unknown;
}

export function writeCrashRecord(facts: CrashFacts): string {
  const at = new Date();
  const dir = crashDirectory(facts.target);
  const error = facts.error instanceof Error ? facts.error : new Error(String(facts.error));
  const record = {
    at: at.toISOString(),
    discern: VERSION,
    node: process.versions.node,
    platform: `${process.platform}-${process.arch}`,
    pid: process.pid,
    verb: facts.verb,
    surface: facts.surface,
    target: facts.target,
    error: { name: error.name, message: error.message, stack: error.stack ?? '' },
  };
  const name = `${at.toISOString().replace(/[:.]/g, '-')}-${process.pid}.json`;
  const path = join(dir, name);
  const temp = `${path}.tmp`;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(temp, `${JSON.stringify(record, null, 2)}\n`);
    renameSync(temp, path);
    return path;
  } catch {
    // Even the record could not be written (a full disk leaves an empty temp file): remove what was begun and
    // say where it would have been rather than fail twice.
    try {
      rmSync(temp, { force: true });
    } catch {
      // A read-only directory never let it be created.
    }
    return `${path} (not written: the directory is not writable)`;
  }
}

function crashDirectory(target: string): string {
  if (existsSync(target)) {
    const result = spawnSync('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], {
      cwd: target,
      env: gitEnvironment(process.env),
      encoding: 'utf8',
      timeout: 5000,
    });
    const common = result.status === 0 ? result.stdout.trim() : '';
    if (common.length > 0) return join(common, 'discern', 'crash');
  }
  return join(tmpdir(), 'discern', 'crash');
}
