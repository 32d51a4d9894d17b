// A write the file system refused before a verb changed anything: a read-only mount (EROFS), a full disk
// (ENOSPC, EDQUOT) or missing permission (EACCES, EPERM). Thrown where such a refusal is certain to come first
// (taking a repository lock); the verb boundary turns it into write_denied instead of a crash (docs/decisions/0037).
import { errorCode } from './atomic-write.js';

const WRITE_REFUSALS = new Set(['EROFS', 'ENOSPC', 'EDQUOT', 'EACCES', 'EPERM']);

export class WriteDenied extends Error {
  constructor(
    readonly path: string,
    readonly code: string,
  ) {
    super(
      `${path} could not be written (${code}${code === 'ENOSPC' || code === 'EDQUOT' ? ': the disk is full' : code === 'EROFS' ? ': a read-only file system' : ''})`,
    );
    this.name = 'WriteDenied';
  }
}

/** The error as a WriteDenied when the file system refused a write; undefined for anything else. */
export function asWriteDenied(error: unknown, path: string): WriteDenied | undefined {
  const code = errorCode(error);
  return code !== undefined && WRITE_REFUSALS.has(code) ? new WriteDenied(path, code) : undefined;
}

const GIT_REFUSALS: [RegExp, string][] = [
  [/Read-only file system/, 'EROFS'],
  [/No space left on device/, 'ENOSPC'],
  [/Disk quota exceeded/, 'EDQUOT'],
];

/** The error code behind a git failure that only says, in its message, that the file system refused a write. */
export function gitWriteRefusal(stderr: string): string | undefined {
  return GIT_REFUSALS.find(([pattern]) => pattern.test(stderr))?.[1];
}
