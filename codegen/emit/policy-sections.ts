// spec/policy.yaml → generated/policy-sections.ts: the closed list of discern.toml keys that are not policy, and
// the repository files that are. spec/signing.yaml → generated/signing.ts: the signing namespaces and where the
// trusted keys live. Checked here so the lists can never name a key the config schema lacks, and the trusted
// keys' file is always a policy file.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { withCodeHeader } from './provenance.js';
import { configKeyExists } from './config-migrations.js';

const SOURCE = 'spec/policy.yaml';
const SIGNING = 'spec/signing.yaml';

interface PolicySpec {
  not_policy: { key: string; why: string }[];
  policy_files?: { path: string; why: string }[];
}

interface SigningSpec {
  namespaces: { proof: string; exception: string };
  allowed_signers: string;
  hash: string;
}

export function emitPolicySections(root: string): Map<string, string> {
  const spec = parse(readFileSync(join(root, SOURCE), 'utf8')) as PolicySpec;
  const signing = parse(readFileSync(join(root, SIGNING), 'utf8')) as SigningSpec;
  const schema = JSON.parse(readFileSync(join(root, 'spec/config.schema.json'), 'utf8')) as Record<string, unknown>;
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const entry of spec.not_policy) {
    if (typeof entry.why !== 'string' || entry.why.trim() === '')
      problems.push(`${entry.key}: say why it is not policy`);
    if (seen.has(entry.key)) problems.push(`${entry.key} is listed twice`);
    seen.add(entry.key);
    const path = entry.key.split('.');
    if (path.length > 2) problems.push(`${entry.key}: a section or one key of a section, no deeper`);
    if (!configKeyExists(schema, path)) problems.push(`${entry.key} is not a key of spec/config.schema.json`);
  }
  const files = spec.policy_files ?? [];
  for (const file of files) {
    if (typeof file.why !== 'string' || file.why.trim() === '') problems.push(`${file.path}: say why it is policy`);
    if (!/^[a-z0-9_./-]+$/.test(file.path) || file.path.startsWith('/') || file.path.includes('..'))
      problems.push(`${file.path}: a plain repository-relative path`);
  }
  if (!files.some((f) => f.path === signing.allowed_signers))
    problems.push(`${signing.allowed_signers} (${SIGNING} allowed_signers) must be listed under policy_files`);
  for (const [purpose, namespace] of Object.entries(signing.namespaces ?? {}))
    if (!/^[a-z0-9.-]+@[a-z0-9.-]+$/.test(namespace)) problems.push(`${SIGNING}: namespace ${purpose} "${namespace}"`);
  if (signing.namespaces?.proof === signing.namespaces?.exception)
    problems.push(`${SIGNING}: the proof and exception namespaces must differ`);
  if (signing.hash !== 'sha512' && signing.hash !== 'sha256') problems.push(`${SIGNING}: hash is sha512 or sha256`);
  if (problems.length > 0) throw new Error(`${SOURCE}, ${SIGNING}: ${problems.join('; ')}`);
  const keys = spec.not_policy.map((e) => e.key.split('.'));
  const body = `/** discern.toml keys that are not policy (a section, or one key of a section); everything else is. */
export const NOT_POLICY: readonly (readonly string[])[] = ${JSON.stringify(keys)};

/** Repository files that are policy beside discern.toml: a change that edits one needs the owner's approval. */
export const POLICY_FILES: readonly string[] = ${JSON.stringify(files.map((f) => f.path))};
`;
  const signingBody = `/** The SSHSIG namespace of each kind of note's signature. */
export const SIGNING_NAMESPACES = ${JSON.stringify(signing.namespaces)} as const;

/** The trusted keys' file in the trunk's tree, in git's allowedSignersFile format. */
export const ALLOWED_SIGNERS_PATH = ${JSON.stringify(signing.allowed_signers)};

/** The hash SSHSIG signs over when discern signs. */
export const SIGNING_HASH = ${JSON.stringify(signing.hash)};
`;
  return new Map([
    ['generated/policy-sections.ts', withCodeHeader([SOURCE], body)],
    ['generated/signing.ts', withCodeHeader([SIGNING], signingBody)],
  ]);
}
