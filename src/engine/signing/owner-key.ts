// The owner's own git SSH signing key (`gpg.format = ssh`, `user.signingkey`): discern signs with it through
// `ssh-keygen -Y sign`, exactly as git signs commits, so a passphrase- or hardware-backed key in the owner's
// ssh-agent proves the owner. Signing never prompts: ssh-keygen runs in its own session (no controlling
// terminal), with no stdin beyond the message and SSH_ASKPASS_REQUIRE=never. An encrypted key that is not in a
// running agent fails, and the caller falls back to the discern key.
import type { spawn as Spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trackChild } from '../process/children.js';
import { parsePublicKeyText, type SshPublicKey } from './ssh-keys.js';
import { parseSshsig, unarmorSshsig } from './sshsig.js';

/** How long ssh-keygen may take (a hardware key waiting for a touch is stopped, not waited on). */
const SIGN_TIMEOUT_MS = 10_000;

export interface OwnerKeyConfig {
  /** user.signingkey as git has it: a path (with ~), a `key::` literal or a bare `ssh-…` literal. */
  signingKey: string;
  /** gpg.ssh.program, ssh-keygen by default. */
  program: string;
}

export type OwnerSignature = { ok: true; blob: Buffer } | { ok: false; reason: string };

let spawner: typeof Spawn | undefined;

function expandHome(path: string, env: Readonly<Record<string, string | undefined>>): string {
  return path.startsWith('~/') && env['HOME'] ? join(env['HOME'], path.slice(2)) : path;
}

/** The literal public key user.signingkey holds, when it holds one rather than a path. */
function literalKey(signingKey: string): string | undefined {
  if (signingKey.startsWith('key::')) return signingKey.slice('key::'.length);
  return signingKey.startsWith('ssh-') || signingKey.startsWith('ecdsa-') ? signingKey : undefined;
}

function run(
  program: string,
  args: string[],
  input: Buffer,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: Buffer; stderr: string; timedOut: boolean }> {
  return (async () => {
    spawner ??= (await import('node:child_process')).spawn;
    const spawn = spawner;
    return new Promise((resolve) => {
      const child = spawn(program, args, { env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
      trackChild(child, true);
      const out: Buffer[] = [];
      let err = '';
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        try {
          process.kill(-(child.pid ?? 0), 'SIGKILL');
        } catch {
          child.kill('SIGKILL');
        }
      }, SIGN_TIMEOUT_MS);
      child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
      child.on('error', (error) => {
        clearTimeout(timer);
        resolve({ code: null, stdout: Buffer.alloc(0), stderr: error.message, timedOut });
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout: Buffer.concat(out), stderr: err, timedOut });
      });
      child.stdin.on('error', () => undefined);
      child.stdin.end(input);
    });
  })();
}

/** Signs `message` in `namespace` with the owner's configured key; never prompts, never throws. */
export async function signWithOwnerKey(
  config: OwnerKeyConfig,
  namespace: string,
  message: Buffer,
  baseEnv: Readonly<Record<string, string | undefined>>,
): Promise<OwnerSignature> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(baseEnv)) if (value !== undefined) env[key] = value;
  env['SSH_ASKPASS_REQUIRE'] = 'never';
  delete env['DISPLAY'];
  delete env['SSH_ASKPASS'];
  let scratch: string | undefined;
  try {
    let keyFile = expandHome(config.signingKey, baseEnv);
    const literal = literalKey(config.signingKey);
    if (literal !== undefined) {
      if (parsePublicKeyText(literal) === undefined)
        return { ok: false, reason: 'user.signingkey is not a public key discern reads' };
      // A literal public key signs through the agent that holds its private half, as git does it.
      scratch = await mkdtemp(join(tmpdir(), 'discern-sign-'));
      keyFile = join(scratch, 'key.pub');
      await writeFile(keyFile, `${literal}\n`, { mode: 0o600 });
    }
    const ran = await run(
      expandHome(config.program, baseEnv),
      ['-Y', 'sign', '-n', namespace, '-f', keyFile],
      message,
      env,
    );
    if (ran.timedOut)
      return { ok: false, reason: `${config.program} did not answer within ${SIGN_TIMEOUT_MS / 1000} s` };
    if (ran.code !== 0) {
      const said = ran.stderr.trim().split('\n').pop() ?? '';
      return { ok: false, reason: `${config.program} -Y sign failed${said ? `: ${said}` : ''}` };
    }
    const blob = unarmorSshsig(ran.stdout.toString('utf8'));
    if (blob === undefined) return { ok: false, reason: `${config.program} printed no SSH signature` };
    try {
      parseSshsig(blob);
    } catch {
      return { ok: false, reason: `${config.program} printed a signature discern cannot read` };
    }
    return { ok: true, blob };
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  } finally {
    if (scratch !== undefined) await rm(scratch, { recursive: true, force: true }).catch(() => undefined);
  }
}

export type OwnerPublicKey = { ok: true; key: SshPublicKey } | { ok: false; reason: string };

/**
 * The public half of the owner's configured key, known before signing (the note names it): a `key::` literal,
 * a public key file, the `.pub` beside a private key file, or what `ssh-keygen -y` reads from an unencrypted one.
 */
export async function ownerPublicKey(
  config: OwnerKeyConfig,
  baseEnv: Readonly<Record<string, string | undefined>>,
): Promise<OwnerPublicKey> {
  const literal = literalKey(config.signingKey);
  if (literal !== undefined) {
    const key = parsePublicKeyText(literal);
    return key ? { ok: true, key } : { ok: false, reason: 'user.signingkey is not a public key discern reads' };
  }
  const path = expandHome(config.signingKey, baseEnv);
  for (const candidate of [path, `${path}.pub`]) {
    const text = await readFile(candidate, 'utf8').catch(() => undefined);
    const key = text === undefined ? undefined : parsePublicKeyText(text);
    if (key) return { ok: true, key };
  }
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(baseEnv)) if (v !== undefined) env[k] = v;
  env['SSH_ASKPASS_REQUIRE'] = 'never';
  delete env['DISPLAY'];
  delete env['SSH_ASKPASS'];
  const ran = await run(expandHome(config.program, baseEnv), ['-y', '-f', path], Buffer.alloc(0), env);
  const key = ran.code === 0 ? parsePublicKeyText(ran.stdout.toString('utf8')) : undefined;
  if (key) return { ok: true, key };
  return {
    ok: false,
    reason: `the public half of user.signingkey (${config.signingKey}) cannot be read: no ${path}.pub, and ${config.program} -y could not derive it (an encrypted key needs its .pub beside it)`,
  };
}
