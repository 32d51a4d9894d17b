// The git version on PATH, for doctor and for features that need a minimum git.
import { tmpdir } from 'node:os';
import { git, GitUnavailable } from '../git/git.js';

export interface GitVersion {
  text: string;
  major: number;
  minor: number;
  patch: number;
}

/** Runs in the OS temp dir: the version needs no repository, and the caller's directory may be gone. */
export async function gitVersion(env: Readonly<Record<string, string | undefined>>): Promise<GitVersion | undefined> {
  try {
    const result = await git(['--version'], { cwd: tmpdir(), env });
    const m = /git version (\d+)\.(\d+)(?:\.(\d+))?/.exec(result.stdout);
    if (result.code !== 0 || !m) return undefined;
    return {
      text: `${m[1]}.${m[2]}${m[3] !== undefined ? `.${m[3]}` : ''}`,
      major: Number(m[1]),
      minor: Number(m[2]),
      patch: Number(m[3] ?? 0),
    };
  } catch (error) {
    if (error instanceof GitUnavailable) return undefined;
    throw error;
  }
}

export function atLeast(version: GitVersion, major: number, minor: number): boolean {
  return version.major > major || (version.major === major && version.minor >= minor);
}
