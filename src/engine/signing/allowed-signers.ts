// git's allowedSignersFile format (ssh-keygen(1), ALLOWED SIGNERS): one signer per line,
// `principals [options] keytype base64 [comment]`, with options `namespaces="…"`, `valid-after="…"`,
// `valid-before="…"` and `cert-authority`. discern reads the trunk's `discern/allowed_signers`; a key is retired
// by a valid-before, so what it signed before then still verifies.
import { parsePublicKeyText, type SshPublicKey } from './ssh-keys.js';

export interface AllowedSigner {
  line: number;
  principals: string[];
  key: SshPublicKey;
  namespaces?: string[];
  validAfter?: Date;
  validBefore?: Date;
  certAuthority: boolean;
}

export interface AllowedSignersFile {
  signers: AllowedSigner[];
  /** Lines that are not a signer discern can read, with why: reported, never fatal. */
  problems: { line: number; problem: string }[];
}

/** Splits on whitespace outside double quotes, keeping the quotes (options hold quoted lists). */
function fields(line: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    if (!quoted && /\s/.test(ch)) {
      if (current !== '') out.push(current);
      current = '';
    } else current += ch;
  }
  if (current !== '') out.push(current);
  return out;
}

/** Splits a comma list outside double quotes. */
function commaList(text: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    if (!quoted && ch === ',') {
      out.push(current);
      current = '';
    } else current += ch;
  }
  out.push(current);
  return out;
}

const unquote = (text: string): string => (text.startsWith('"') && text.endsWith('"') ? text.slice(1, -1) : text);

/** ssh-keygen's time form: YYYYMMDD[HHMM[SS]], UTC with a trailing Z, else local time. */
export function parseSignerTime(text: string): Date | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})(\d{2})?)?(Z?)$/.exec(text);
  if (match === null) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', zulu] = match;
  const parts = [Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)] as const;
  const date = zulu === 'Z' ? new Date(Date.UTC(...parts)) : new Date(...parts);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

export function parseAllowedSigners(text: string): AllowedSignersFile {
  const signers: AllowedSigner[] = [];
  const problems: AllowedSignersFile['problems'] = [];
  text.split('\n').forEach((raw, index) => {
    const line = index + 1;
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const parts = fields(trimmed);
    const principals = parts.shift();
    if (principals === undefined || parts.length < 2)
      return problems.push({ line, problem: 'expected principals and a key' });
    // The options field is there when the next field is not a key type.
    let options: string[] = [];
    if (parsePublicKeyText(`${parts[0]} ${parts[1] ?? ''}`) === undefined) options = commaList(parts.shift() ?? '');
    const key = parsePublicKeyText(`${parts[0] ?? ''} ${parts[1] ?? ''}`);
    if (key === undefined)
      return problems.push({ line, problem: 'the key is not an ed25519, ECDSA or RSA public key' });
    const signer: AllowedSigner = {
      line,
      principals: commaList(principals.replace(/"/g, '')).filter((p) => p !== ''),
      key,
      certAuthority: false,
    };
    for (const option of options) {
      const [name = '', ...rest] = option.split('=');
      const value = unquote(rest.join('='));
      const lower = name.toLowerCase();
      if (lower === 'cert-authority') signer.certAuthority = true;
      else if (lower === 'namespaces') signer.namespaces = value.split(',').filter((n) => n !== '');
      else if (lower === 'valid-after' || lower === 'valid-before') {
        const at = parseSignerTime(value);
        if (at === undefined)
          return problems.push({ line, problem: `${lower} "${value}" is not YYYYMMDD[HHMM[SS]][Z]` });
        if (lower === 'valid-after') signer.validAfter = at;
        else signer.validBefore = at;
      } else return problems.push({ line, problem: `option "${name}" is not one git's allowed-signers format has` });
    }
    signers.push(signer);
  });
  return { signers, problems };
}

/** `namespaces="a,b"` patterns use ssh's wildcards: `*` and `?`. */
function matchesPattern(pattern: string, value: string): boolean {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`).test(value);
}

export type SignerMatch =
  | { ok: true; signer: AllowedSigner }
  | { ok: false; reason: 'untrusted_key' | 'namespace_not_allowed' | 'signer_not_valid_then'; detail: string };

/** The line that trusts `key` for `namespace` at `signedAt`, or why none does. */
export function findSigner(
  file: AllowedSignersFile,
  key: Pick<SshPublicKey, 'blob'>,
  namespace: string,
  signedAt: Date,
): SignerMatch {
  const lines = file.signers.filter((s) => !s.certAuthority && s.key.blob.equals(key.blob));
  if (lines.length === 0)
    return { ok: false, reason: 'untrusted_key', detail: 'the key is not in the allowed signers' };
  const forNamespace = lines.filter(
    (s) => s.namespaces === undefined || s.namespaces.some((p) => matchesPattern(p, namespace)),
  );
  if (forNamespace.length === 0)
    return {
      ok: false,
      reason: 'namespace_not_allowed',
      detail: `line ${lines[0]!.line} does not allow namespace ${namespace}`,
    };
  const valid = forNamespace.find(
    (s) =>
      (s.validAfter === undefined || s.validAfter.getTime() <= signedAt.getTime()) &&
      (s.validBefore === undefined || signedAt.getTime() < s.validBefore.getTime()),
  );
  if (valid === undefined)
    return {
      ok: false,
      reason: 'signer_not_valid_then',
      detail: `the key was not valid at ${signedAt.toISOString()} (line ${forNamespace[0]!.line})`,
    };
  return { ok: true, signer: valid };
}
