// Several committed files (`<commit-ish>:<path>`) read by one `git cat-file --batch` instead of one process each
// (docs/decisions/0043). Each request names the command it stands in for (`cat-file blob`, `show`); a file the
// batch finds as a blob answers exactly as that command would (its bytes, exit 0, nothing on stderr). Anything
// else — a missing path, a tree, a name the batch protocol cannot carry — is asked with that command, so a
// failure keeps its own message (callers quote it).
import { git, type GitResult } from './git.js';

export interface FileRequest {
  /** `<commit-ish>:<path>`. */
  name: string;
  /** The git command the answer must equal, e.g. ['cat-file', 'blob', name] or ['show', name]. */
  command: readonly string[];
}

type Run = { cwd: string; env: Readonly<Record<string, string | undefined>>; signal?: AbortSignal };

/** One answer per request, in order. */
export function readCommittedFiles(requests: readonly FileRequest[], run: Run): Promise<GitResult>[] {
  const o = { cwd: run.cwd, env: run.env, ...(run.signal ? { signal: run.signal } : {}) };
  // The batch reads one name per line: a name with a line break (or a NUL, which git.ts refuses) goes alone.
  const batchable = requests.every((r) => !/[\n\r\0]/.test(r.name));
  const batch = batchable
    ? git(['cat-file', '--batch'], { ...o, input: requests.map((r) => `${r.name}\n`).join(''), bytes: true })
    : undefined;
  batch?.catch(() => undefined);
  return requests.map(async (request, index) => {
    const answered = batch ? await batch : undefined;
    const blob =
      answered && answered.code === 0 && answered.stdoutBytes
        ? parseBatch(answered.stdoutBytes, requests.length)[index]
        : undefined;
    if (blob !== undefined) return { code: 0, stdout: blob.toString('utf8'), stderr: '' };
    return git(request.command, o);
  });
}

/**
 * `cat-file --batch` output: per request `<oid> <type> <size>` LF, the bytes, LF; or `<name> missing` (or
 * `ambiguous`) LF. The blobs' bytes by position; undefined where the answer is not a blob.
 */
export function parseBatch(output: Buffer, count: number): (Buffer | undefined)[] {
  return parseBatchObjects(output, count).map((o) => (o?.type === 'blob' ? o.content : undefined));
}

export interface BatchObject {
  oid: string;
  type: string;
  content: Buffer;
}

/** `cat-file --batch` output as objects of any type, by position; undefined for a name git reports missing. */
export function parseBatchObjects(output: Buffer, count: number): (BatchObject | undefined)[] {
  const objects: (BatchObject | undefined)[] = [];
  let at = 0;
  for (let n = 0; n < count; n++) {
    const end = output.indexOf(0x0a, at);
    if (end < 0) break;
    const header = /^([0-9a-f]{40,64}) (\S+) (\d+)$/.exec(output.subarray(at, end).toString('utf8'));
    if (header === null) {
      objects.push(undefined);
      at = end + 1;
      continue;
    }
    const contentEnd = end + 1 + Number(header[3]);
    if (contentEnd > output.length) break;
    objects.push({
      oid: header[1] as string,
      type: header[2] as string,
      content: output.subarray(end + 1, contentEnd),
    });
    at = contentEnd + 1;
  }
  while (objects.length < count) objects.push(undefined);
  return objects;
}

/** One `git cat-file --batch` over `names` (none may hold a line break), each answer an object or undefined. */
export async function readObjects(
  names: readonly string[],
  run: Run,
): Promise<{ ok: true; objects: (BatchObject | undefined)[] } | { ok: false; reason: string }> {
  if (names.some((n) => /[\n\r\0]/.test(n))) return { ok: false, reason: 'a name holds a line break' };
  const answered = await git(['cat-file', '--batch'], {
    cwd: run.cwd,
    env: run.env,
    ...(run.signal ? { signal: run.signal } : {}),
    input: names.map((n) => `${n}\n`).join(''),
    bytes: true,
  });
  if (answered.code !== 0 || answered.stdoutBytes === undefined)
    return { ok: false, reason: answered.stderr.trim() || `git cat-file exited ${answered.code}` };
  return { ok: true, objects: parseBatchObjects(answered.stdoutBytes, names.length) };
}
