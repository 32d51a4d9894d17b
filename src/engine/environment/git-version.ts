// The git version on PATH, for doctor and for features that need a minimum git.
import { git, GitUnavailable } from '../git/git.js';

export interface GitVersion {
  text: string;
  major: number;
  minor: number;
  patch: number;
}

export async function gitVersion(cwd: string): Promise<GitVersion | undefined> {
  try {
    const result = await git(['--version'], { cwd });
    const m = /git version (\d+)\.(\d+)(?:\.(\d+))?/.exec(result.stdout);
    if (result.code !== 0 || !m) return undefined;
    return { text: `${m[1]}.${m[2]}${m[3] !== undefined ? `.${m[3]}` : ''}`, major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3] ?? 0) };
  } catch (error) {
    if (error instanceof GitUnavailable) return undefined;
    throw error;
  }
}

export function atLeast(version: GitVersion, major: number, minor: number): boolean {
  return version.major > major || (version.major === major && version.minor >= minor);
}
