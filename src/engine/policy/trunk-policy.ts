// The governing policy: the discern.toml committed at the trunk's tip, read from the ref (never from a checkout,
// never from the change). It is validated as the loader validates a working file, through the same known-valid
// cache, so the trunk's text usually costs no validator load (it equals the checkout's in most calls).
import { withVariables } from '../config/substitutions.js';
import type { DiscernConfig } from '../../../generated/types.js';
import { decodeToml } from '../config/toml.js';
import type { KnownValid } from '../config/known-valid.js';
import { gitComplaint, type GitResult } from '../git/git.js';
import { NO_POLICY_DIGEST, policyDigest } from './view.js';

export type TrunkPolicy =
  /** The trunk's discern.toml, valid for this discern. */
  | { state: 'present'; config: DiscernConfig; digest: string }
  /** The trunk has no discern.toml (a first setup): only `setup accept` lands one. */
  | { state: 'absent'; digest: typeof NO_POLICY_DIGEST }
  /** It cannot be read or is not valid here: nothing can be judged against it. */
  | { state: 'unreadable'; reason: string };

/** `shown`: the answer of `git show <trunk ref>:discern.toml` (trunkConfigCommand). */
export async function trunkPolicyFrom(shown: GitResult, trunk: string, knownValid?: KnownValid): Promise<TrunkPolicy> {
  const name = `${trunk}:discern.toml`;
  if (shown.code !== 0) {
    if (/does not exist|exists on disk, but not in/.test(shown.stderr))
      return { state: 'absent', digest: NO_POLICY_DIGEST };
    return { state: 'unreadable', reason: `${name} cannot be read (${gitComplaint(shown)})` };
  }
  return committedPolicy(shown.stdout, name, knownValid);
}

/** The policy a committed discern.toml sets (`text`; undefined when the commit has none). */
export async function committedPolicy(
  text: string | undefined,
  name: string,
  knownValid?: KnownValid,
): Promise<TrunkPolicy> {
  if (text === undefined) return { state: 'absent', digest: NO_POLICY_DIGEST };
  const decoded = decodeToml(Buffer.from(text, 'utf8'), name);
  if (!decoded.ok) return { state: 'unreadable', reason: decoded.problem.message.replace(/\.$/, '') };
  // The policy as discern applies it: its variables put in, as for the checkout's own file (substitutions.ts).
  const config = withVariables(decoded.value as DiscernConfig).config;
  if (!(knownValid && (await knownValid.has(decoded.text)))) {
    const { validateDecoded } = await import('../config/validate.js');
    const { schemaVersionProblem } = await import('../config/schema-version.js');
    const problem =
      schemaVersionProblem(decoded.value, decoded.text, name) ?? validateDecoded(decoded.value, decoded.text, name);
    if (!problem.ok) return { state: 'unreadable', reason: problem.message.replace(/\.$/, '') };
    await knownValid?.add(decoded.text);
  }
  return { state: 'present', config, digest: policyDigest(config) };
}
