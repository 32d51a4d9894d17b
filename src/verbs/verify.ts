// verify: whether a landed commit's Proof note holds — signed by a key the trunk's discern/allowed_signers trusts
// for Proof notes at its signing time, for this exact commit and its real tree, under the trunk's policy just
// before the landing (docs/decisions/0051). With signer_line (CLI only): the allowed-signers line for the key this
// machine signs with, which the owner commits to the trunk; nothing adds a key by itself.
import type { VerifyOutcome } from '../../generated/handlers.js';
import type { DiscernVerifyData } from '../../generated/types.js';
import { VERBS } from '../../generated/registry.js';
import { verifyCommit } from '../engine/verification/verify-commit.js';
import { policyFacts } from './policy-facts.js';
import { argumentsHelp, type ProjectVerbContext } from './context.js';

export async function verify(
  input: { rev?: string; signer_line?: boolean },
  ctx: ProjectVerbContext,
): Promise<VerifyOutcome> {
  // The signing machinery (keys, ssh-keygen) loads only for the signer line.
  if (input.signer_line === true) return (await import('./verify-signer-line.js')).signerLine(ctx);
  const { project } = ctx;
  const rev = input.rev ?? 'HEAD';
  const outcome = await verifyCommit(policyFacts(ctx), rev);
  if (outcome.kind === 'no_commit')
    return {
      refusal: {
        error: 'invalid_value',
        message: `rev "${rev}" names no commit here (${outcome.reason}): give a branch, a tag or a commit id this repository has.`,
        next: { help: argumentsHelp(ctx, 'verify') },
      },
    };
  if (outcome.kind === 'read_failed')
    return {
      refusal: {
        error: 'read_failed',
        message: `git could not be read to verify ${rev}: ${outcome.reason}.`,
        next: { target: project.commonDir, access: 'readable' },
      },
    };
  const { verdict } = outcome;
  const data: DiscernVerifyData = {
    commit: outcome.commit,
    tree: outcome.tree,
    ...verdict.data,
    ...(outcome.signers
      ? {
          allowed_signers: {
            ref: outcome.signers.ref,
            signers: outcome.signers.count,
            ...(outcome.signers.problems.length > 0 ? { problems: outcome.signers.problems } : {}),
          },
        }
      : {}),
    trust_notes: outcome.trustNotes,
  };
  if (verdict.failure !== undefined) {
    const { error, message } = verdict.failure;
    return {
      data,
      refusal:
        error === 'no_trusted_signers' || error === 'untrusted_signer'
          ? { error, message, next: { trunk: project.trunk.name } }
          : { error, message, next: {} },
    };
  }
  const signature = verdict.data.signature;
  return {
    data,
    hints: [
      VERBS.verify.hints.verified
        .replace('{commit}', outcome.commit.slice(0, 12))
        .replace('{keyid}', signature?.keyid ?? '')
        .replace('{principals}', (signature?.principals ?? []).join(', '))
        .replace('{trunk}', project.trunk.name),
    ],
  };
}
