// Makes a recorded result the same from one run to the next, so a re-recorded fixture differs from the
// committed one only where the verb's answer changed. What varies between two runs of the same test is
// replaced by a stand-in of the same shape, numbered in order of first appearance, so that two different
// values stay different and one value stays the same everywhere it appears: the scratch checkout's path, this
// checkout's path, other temporary paths, clock times, process ids, progress and continuation handles, object ids
// and other hex digests (a commit's full id and its abbreviations map to one stand-in), and durations.
import { handleFromPayload, type HandleKind } from '../../src/engine/state/handles.js';

const HEX = /(?<![0-9A-Za-z])[0-9a-f]{7,64}(?![0-9A-Za-z])/g;
/** discern's own ids (`S-…` submissions, `E-…` landings, `A-…` attempts, `P-…` Proofs): hex even when all digits. */
const OWN_ID = /(?<![0-9A-Za-z])([A-Z])-([0-9a-f]{12,16})(?![0-9A-Za-z])/g;
/** Sizes of state files, which hold clock times and durations of varying width. */
const BYTES = /("bytes":\s*|\b)\d+( bytes\b)?/g;
const HANDLE = /(?<![0-9A-Za-z])([RC]1)-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{2}(?![0-9A-Za-z])/g;
const CLOCK = /\d{4}-\d\d-\d\dT\d\d([:-])\d\d[:-]\d\d(?:([.-])\d+)?(Z|[+-]\d\d:\d\d)/g;
const DURATION = /"(duration_s|duration_ms|elapsed_ms|waited_ms)":\s*\d+(?:\.\d+)?/g;
const PID = /(\bpid\b"?:?\s*)\d+/g;
/** A file named for its clock time and process (crash records, output folders): the process is a pid. */
const CLOCK_PID = /(2026-01-01T00-00-00-000Z(?:-[a-z]+)?)-\d+/g;
/** Compact clock times (logbook archives) and base-36 ones (approval tokens). */
const COMPACT_CLOCK = /(?<![0-9A-Za-z])\d{8}T\d{6,9}Z(?![0-9A-Za-z])/g;
/** Milliseconds since the epoch, as a folder's name takes them (2001 to 2033). */
const EPOCH_MS = /(?<![0-9])1[0-9]{12}(?![0-9])/g;
const TOKEN_CLOCK = /\b(EA1)\.[0-9a-z]{6,10}\./g;
/** Unpadded base64url SHA-256 digests, 43 symbols with digits and both cases (receipts and tokens end in one). */
const BASE64_DIGEST = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g;

/** SSH key fingerprints (`SHA256:` and 43 symbols of standard base64) and public keys: each key is the run's own. */
const FINGERPRINT = /SHA256:[A-Za-z0-9+/]{43}(?![A-Za-z0-9+/])/g;
const SSH_KEY = /\b(ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp(?:256|384|521)) [A-Za-z0-9+/]{20,}={0,2}/g;

export interface NeutralOptions {
  /** The checkout the result is about, shown as /repo (its real path too, where it still exists). */
  roots: readonly string[];
  /** discern's own checkout (licenses, the manual), shown as /discern. */
  repo: string;
}

export function neutralText(text: string, options: NeutralOptions): string {
  let out = text;
  for (const root of [...options.roots].sort((a, b) => b.length - a.length)) out = out.split(root).join('/repo');
  out = out.split(options.repo).join('/discern');
  out = out.replace(/\/tmp\/[A-Za-z0-9._-]+/g, '/scratch');
  out = out.replace(CLOCK, (_m, sep: string, frac: string | undefined, zone: string) => {
    const time = sep === ':' ? '00:00:00' : '00-00-00';
    return `2026-01-01T${time}${frac ? `${frac}000` : ''}${zone === 'Z' ? 'Z' : '+00:00'}`;
  });
  out = out.replace(DURATION, (_m, key: string) => `"${key}": 0`);
  out = out.replace(BYTES, (whole, lead: string, unit: string | undefined) =>
    lead.startsWith('"') || unit !== undefined ? `${lead}0${unit ?? ''}` : whole,
  );
  out = out.replace(PID, (_m, lead: string) => `${lead}4242`);
  out = out.replace(CLOCK_PID, (_m, stamp: string) => `${stamp}-4242`);
  out = out.replace(COMPACT_CLOCK, (stamp) => `20260101T${'0'.repeat(stamp.length - 10)}Z`);
  out = out.replace(EPOCH_MS, '1767225600000');
  out = out.replace(TOKEN_CLOCK, (_m, kind: string) => `${kind}.00000000.`);
  out = numbered(out, FINGERPRINT, (n) => `SHA256:${`KEY${String(n).padStart(4, '0')}`.padEnd(43, 'x')}`);
  out = numbered(out, SSH_KEY, (n, m) => `${m.split(' ')[0] ?? 'ssh-ed25519'} AAAAKEY${String(n).padStart(4, '0')}`);
  out = neutralBase64(out);
  out = neutralHandles(out);
  return neutralOwnIds(neutralHex(out));
}

/** Each distinct match becomes the stand-in of its order of first appearance. */
function numbered(text: string, pattern: RegExp, standIn: (n: number, match: string) => string): string {
  const seen = new Map<string, string>();
  return text.replace(pattern, (match) => {
    let replaced = seen.get(match);
    if (replaced === undefined) {
      replaced = standIn(seen.size + 1, match);
      seen.set(match, replaced);
    }
    return replaced;
  });
}

function neutralOwnIds(text: string): string {
  const seen = new Map<string, string>();
  return text.replace(OWN_ID, (whole, kind: string, id: string) => {
    let standIn = seen.get(whole);
    if (standIn === undefined) {
      standIn = `${kind}-${standInHex(0xf00000 + seen.size + 1, id.length)}`;
      seen.set(whole, standIn);
    }
    return standIn;
  });
}

function neutralBase64(text: string): string {
  const seen = new Map<string, string>();
  return text.replace(BASE64_DIGEST, (token) => {
    if (!/[0-9]/.test(token) || !/[a-z]/.test(token) || !/[A-Z]/.test(token)) return token;
    let standIn = seen.get(token);
    if (standIn === undefined) {
      standIn = `B64${String(seen.size + 1).padStart(4, '0')}`.padEnd(43, 'x');
      seen.set(token, standIn);
    }
    return standIn;
  });
}

function neutralHandles(text: string): string {
  const seen = new Map<string, string>();
  return text.replace(HANDLE, (handle, kind: HandleKind) => {
    let standIn = seen.get(handle);
    if (standIn === undefined) {
      standIn = handleFromPayload(kind, String(seen.size + 1).padStart(8, '0'));
      seen.set(handle, standIn);
    }
    return standIn;
  });
}

/**
 * Full ids (40 or 64 hex digits) first, in order of appearance; then every token that abbreviates one takes the
 * same prefix of its stand-in, even one of digits alone; any other token with a digit and a letter (so neither a
 * word nor a number) gets a stand-in of its own.
 */
function neutralHex(text: string): string {
  const isDigest = (token: string): boolean => /[0-9]/.test(token) && /[a-f]/.test(token);
  const full = new Map<string, string>();
  for (const [token] of text.matchAll(HEX)) {
    if ((token.length === 40 || token.length === 64) && isDigest(token) && !full.has(token)) {
      full.set(token, standInHex(full.size + 1, token.length));
    }
  }
  const short = new Map<string, string>();
  return text.replace(HEX, (token) => {
    const whole = full.get(token);
    if (whole !== undefined) return whole;
    for (const [id, standIn] of full) if (id.startsWith(token)) return standIn.slice(0, token.length);
    if (!isDigest(token)) return token;
    let standIn = short.get(token);
    if (standIn === undefined) {
      standIn = standInHex(full.size + short.size + 1, token.length);
      short.set(token, standIn);
    }
    return standIn;
  });
}

/** `n` in hex at the front (where abbreviations keep it), then `a`s: a digest-shaped token, never a real one. */
function standInHex(n: number, length: number): string {
  return n.toString(16).padStart(6, '0').padEnd(length, 'a').slice(0, length);
}
