// Reads each policy file (spec/policy.yaml policy_files) at the trunk's tip, the merge-base and the change, in one
// `git cat-file --batch`, and judges what the change did to them (policy-files.ts). Asked only when the change
// touches one: an ordinary change costs nothing here.
import type { DiscernPolicyChange } from '../../../generated/types.js';
import { readCommittedFiles } from '../git/committed-files.js';
import { POLICY_FILES, policyFileChanges, type PolicyFileVersions } from './policy-files.js';

type Run = { cwd: string; env: Readonly<Record<string, string | undefined>>; signal?: AbortSignal };

export async function readPolicyFileChanges(
  run: Run,
  at: { trunk: string; base: string | null; head: string },
): Promise<DiscernPolicyChange[]> {
  const revisions = [at.trunk, at.base, at.head] as const;
  const requests = POLICY_FILES.flatMap((path) =>
    revisions
      .filter((rev): rev is string => rev !== null)
      .map((rev) => ({ name: `${rev}:${path}`, command: ['cat-file', 'blob', `${rev}:${path}`] })),
  );
  const answers = await Promise.all(readCommittedFiles(requests, run));
  const text = (name: string): string | undefined => {
    const at = requests.findIndex((r) => r.name === name);
    const answer = at >= 0 ? answers[at] : undefined;
    return answer !== undefined && answer.code === 0 ? answer.stdout : undefined;
  };
  const versions: PolicyFileVersions[] = POLICY_FILES.map((path) => ({
    path,
    trunk: text(`${at.trunk}:${path}`),
    base: at.base === null ? undefined : text(`${at.base}:${path}`),
    head: text(`${at.head}:${path}`),
  }));
  return policyFileChanges(versions);
}
