// The repository files that are policy beside discern.toml (spec/policy.yaml policy_files: the trusted signers).
// An effort that edited one since its merge-base, leaving it different from the trunk's, makes a policy change
// the owner approves by name, whatever it adds or removes: a key the change trusts is a key that can vouch for
// any landing. The same rule as discern.toml's keys (compare.ts): a line the trunk gained after the effort left
// it is not one the effort removes. Pure; the callers read the three versions of each file.
import type { DiscernPolicyChange } from '../../../generated/types.js';
import { POLICY_FILES } from '../../../generated/policy-sections.js';

/** One policy file's text at the trunk's tip, the merge-base and the change (undefined: the file is absent). */
export interface PolicyFileVersions {
  path: string;
  trunk: string | undefined;
  base: string | undefined;
  head: string | undefined;
}

export { POLICY_FILES };

/** The file's meaningful lines: blank lines and comments are not rules. */
function rules(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

const same = (a: string[] | undefined, b: string[] | undefined): boolean =>
  a === undefined || b === undefined ? a === b : a.length === b.length && a.every((line, i) => line === b[i]);

export function policyFileChanges(files: readonly PolicyFileVersions[]): DiscernPolicyChange[] {
  const out: DiscernPolicyChange[] = [];
  for (const file of files) {
    const trunk = rules(file.trunk);
    const base = rules(file.base);
    const head = rules(file.head);
    if (same(base, head) || same(trunk, head)) continue;
    const added = (head ?? []).filter((line) => !(trunk ?? []).includes(line));
    const removed = (trunk ?? []).filter((line) => !(head ?? []).includes(line));
    const kind = trunk === undefined ? 'addition' : head === undefined ? 'removal' : 'change';
    const parts = [
      added.length > 0 ? `adds ${added.length} line${added.length === 1 ? '' : 's'}` : '',
      removed.length > 0 ? `removes ${removed.length} line${removed.length === 1 ? '' : 's'}` : '',
    ].filter(Boolean);
    out.push({
      section: file.path,
      key: file.path,
      ...(trunk !== undefined ? { trunk } : {}),
      ...(head !== undefined ? { change: head } : {}),
      kind,
      approval: 'approve_policy',
      sentence:
        head === undefined
          ? `${file.path} is removed (the trunk has ${trunk?.length ?? 0} line${trunk?.length === 1 ? '' : 's'})`
          : `${file.path} ${trunk === undefined ? 'is added' : 'changes'}: it ${parts.join(' and ') || 'reorders its lines'}${added.length > 0 ? ` (${added.map((l) => l.slice(0, 60)).join('; ')})` : ''}`,
    });
  }
  return out;
}

/** Whether a change set touches a policy file: only then are its versions read. */
export function touchesPolicyFile(paths: Iterable<string>): boolean {
  for (const path of paths) if (POLICY_FILES.includes(path)) return true;
  return false;
}

/** Both sides of every changed path (a rename counts at its old and new path). */
export function changedPaths(changes: readonly { path: string; from?: string }[]): string[] {
  return changes.flatMap((c) => (c.from !== undefined ? [c.path, c.from] : [c.path]));
}
