// verify --signer-line: the allowed-signers line for the key this machine signs discern's notes with (the owner's
// git SSH signing key, else the discern key, made now if there is none), and whether the trunk trusts it already.
// The owner commits it to discern/allowed_signers on the trunk; nothing adds a key by itself.
import { hostname } from 'node:os';
import type { VerifyOutcome } from '../../generated/handlers.js';
import { VERBS } from '../../generated/registry.js';
import { ALLOWED_SIGNERS_PATH, SIGNING_NAMESPACES } from '../../generated/signing.js';
import { readObjects } from '../engine/git/committed-files.js';
import { git } from '../engine/git/git.js';
import { discernKeyPath } from '../engine/signing/discern-key.js';
import { findSigner, parseAllowedSigners } from '../engine/signing/allowed-signers.js';
import { signingKey } from '../engine/signing/signing-key.js';
import type { ProjectVerbContext } from './context.js';

/** The line that trusts this machine's signing key for discern's notes, in git's allowedSignersFile format. */
export async function signerLine(ctx: ProjectVerbContext): Promise<VerifyOutcome> {
  const { project } = ctx;
  const chosen = await signingKey(project.root, ctx.env, { create: true });
  if (!chosen.ok)
    return {
      refusal: {
        error: 'read_failed',
        message: `No key can sign here: ${chosen.reason}.`,
        next: {
          target: discernKeyPath(ctx.env) ?? 'the discern key (set HOME or XDG_CONFIG_HOME)',
          access: 'writable',
        },
      },
    };
  const key = chosen.key;
  const email = (await git(['config', 'user.email'], { cwd: project.root, env: ctx.env })).stdout.trim();
  // A principal is one token of the file's first field: an address without spaces, quotes or commas.
  const principal = /^[^\s",]+$/.test(email) ? email : `discern@${hostname().replace(/[^A-Za-z0-9.-]/g, '-')}`;
  const namespaces = `${SIGNING_NAMESPACES.proof},${SIGNING_NAMESPACES.exception}`;
  const line = `${principal} namespaces="${namespaces}" ${key.line}`;
  const read = await readObjects([`refs/heads/${project.trunk.name}:${ALLOWED_SIGNERS_PATH}`], {
    cwd: project.root,
    env: ctx.env,
  });
  const file = read.ok && read.objects[0]?.type === 'blob' ? read.objects[0].content.toString('utf8') : undefined;
  const trusted =
    file !== undefined && findSigner(parseAllowedSigners(file), key.publicKey, SIGNING_NAMESPACES.proof, new Date()).ok;
  const keyPath = key.source === 'discern' ? discernKeyPath(ctx.env) : undefined;
  return {
    data: {
      signer: {
        line,
        keyid: key.keyid,
        key_source: key.source,
        ...(keyPath !== undefined ? { key_path: keyPath } : {}),
        ...(key.ownerKeyUnused !== undefined ? { owner_key_unused: key.ownerKeyUnused } : {}),
        trusted,
      },
    },
    hints: [VERBS.verify.hints.signer_line],
  };
}
