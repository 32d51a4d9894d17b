// Parts of discern's own install that a call loads when it first needs them: the manual and the built-in agent
// text are chunks of dist/ of their own (generated modules under tsx). A file missing there is a damaged install,
// not a discern bug, so the load says which file is gone and the verb answers with its own slug instead of a crash.

/** A part of the install cannot be used: its file is missing, or it holds nothing. */
export class DamagedInstall extends Error {
  constructor(
    /** What the part holds, in words: "the manual's pages". */
    readonly what: string,
    /** What is wrong, in words a refusal's message and next action use: "/…/dist/chunks/x.js is missing". */
    readonly problem: string,
  ) {
    super(`${what} cannot be loaded: ${problem}`);
    this.name = 'DamagedInstall';
  }
}

/** Loads one part; a missing file becomes DamagedInstall, anything else is thrown as it came. */
export async function loadBundled<T>(what: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const file = missingFile(error);
    if (file === undefined) throw error;
    throw new DamagedInstall(what, `${file} is missing`);
  }
}

/**
 * The file a failed load names when the failure is a missing file: the bin's own loader (bin.cts, which reads
 * each chunk itself for the code cache) fails with ENOENT and the path; Node's require and ESM loader with
 * MODULE_NOT_FOUND / ERR_MODULE_NOT_FOUND and the path in the message.
 */
export function missingFile(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, path, message } = error as { code?: unknown; path?: unknown; message?: unknown };
  if (code === 'ENOENT') return typeof path === 'string' ? path : 'a file';
  if (code !== 'MODULE_NOT_FOUND' && code !== 'ERR_MODULE_NOT_FOUND') return undefined;
  const named = typeof message === 'string' ? /Cannot find module '([^']+)'/.exec(message)?.[1] : undefined;
  return named ?? 'a module';
}
