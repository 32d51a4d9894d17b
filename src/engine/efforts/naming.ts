// An effort's name: given, derived from the title, or effort-<n>; made unique against what already exists
// (a branch, a worktree directory, a registered worktree) with a numeric suffix. Pure: the caller says what is
// taken.
import { branchNameProblem } from '../git/ref-name.js';
import { slugify } from '../project/slug.js';

export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const MAX_NAME = 64;

/** A name from a title: lower case, words joined by '-', at most 40 characters; undefined when nothing is left. */
export function nameFromTitle(title: string): string | undefined {
  return slugify(title, 40);
}

/** Why a name cannot name an effort's branch under this prefix, or undefined when it can. */
export function nameProblem(name: string, prefix: string): string | undefined {
  if (!NAME_PATTERN.test(name) || name.length > MAX_NAME)
    return 'use letters, digits, ".", "_" and "-", starting with a letter or digit, at most 64 characters';
  if (name.endsWith('.lock') || name.endsWith('.') || name.includes('..'))
    return 'a branch name cannot end with ".lock" or ".", or contain ".."';
  return branchNameProblem(`${prefix}${name}`);
}

export interface UniqueName {
  name: string;
  /** What took the wanted name, when a suffix was added. */
  takenBy?: string;
}

/**
 * The first of `wanted`, `wanted-2`, `wanted-3`… that nothing takes. `taken` answers with what holds a name
 * (for the note), or undefined when it is free.
 */
export function uniqueName(wanted: string, taken: (name: string) => string | undefined): UniqueName {
  const first = taken(wanted);
  if (first === undefined) return { name: wanted };
  for (let n = 2; n < 10_000; n++) {
    const suffix = `-${n}`;
    const candidate = `${wanted.slice(0, MAX_NAME - suffix.length)}${suffix}`;
    if (taken(candidate) === undefined) return { name: candidate, takenBy: first };
  }
  throw new Error(`no free name after ${wanted}-9999`);
}
