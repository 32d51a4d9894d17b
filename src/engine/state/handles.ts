// Handles that agents copy from one call into another: `R1-XXXX-XXXX-XX` names a long run's progress record,
// `C1-XXXX-XXXX-XX` an await that ran out of budget. The first letter is the kind, the digit the format
// version; then 8 random Crockford Base32 symbols (40 bits) and 2 check symbols. Agents retype, truncate and
// transpose such strings, so the check must turn every likely slip into "checksum" rather than into another
// run's handle.
//
// The check (in the spirit of ISO 7064 MOD 97-10, the IBAN check, with base 32 and modulus 1021):
// read the 12 symbols of the handle without dashes — kind letter, version digit, payload, check — as one
// base-32 number N (symbol values are Crockford's: 0-9, A=10 … Z=31). A handle is valid iff
//
//     N ≡ 1 (mod 1021)   and   the check value 32·c0 + c1 < 1021.
//
// 1021 is the largest prime below 32² = 1024, so the check fits in two symbols (the check value is
// (1 − 1024·P) mod 1021, where P is the number formed by the first ten symbols). Proofs, with all symbol
// values in 0..31 and d = b − a ≠ 0, so 0 < |d| ≤ 31 and 1021 ∤ d:
//   - one symbol replaced at any position j (payload and check symbols alike) changes N by d·32^k;
//     1021 is prime and divides neither d nor 32, so the residue changes;
//   - two different adjacent symbols swapped (including the last payload symbol with the first check symbol,
//     and the two check symbols) change N by d·(32^(k+1) − 32^k) = d·31·32^k, again not a multiple of 1021;
//   - the kind is the leading symbol, so R1 and C1 versions of one body differ by a single substitution
//     (R=24, C=12): an R1 body never validates as C1, by the first rule, not by luck.
// Also caught, by the same argument: swaps across one symbol (factor 32² − 1 = 3·11·31) and doubled-symbol
// slips aa → bb (factor 33). Any other corruption passes with probability about 1/1021.
//
// Parsing is forgiving where retyping is error-prone and strict where a mistake could mean another handle:
// surrounding whitespace is ignored; letters are case-insensitive; Crockford's aliases I and L read as 1 and O
// as 0; dashes (ASCII hyphen-minus, Unicode hyphens and dashes, as rendered Markdown produces) are ignored
// wherever they are, so `r17kq2m9xd4f` works. Anything else (spaces inside, U, punctuation, a wrong length) is
// malformed. Handles are always printed in the canonical form `R1-XXXX-XXXX-XX`.
import { randomBytesLazy } from './random.js';

export type HandleKind = 'R1' | 'C1';

export type HandleParse =
  { ok: true; handle: string } | { ok: false; reason: 'malformed' | 'checksum' | 'kind'; message: string };

export const CROCKFORD_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

const MODULUS = 1021;
const TARGET = 1;
const PAYLOAD_SYMBOLS = 8;
const KIND_NAMES: Record<HandleKind, string> = { R1: 'progress handle', C1: 'continuation handle' };
const DASHES = /[-\u2010-\u2015\u2212]/g;
const ALIASES: Record<string, string> = { I: '1', L: '1', O: '0' };

/** A fresh handle of `kind` with 40 random bits, in canonical form. */
export function newHandle(kind: HandleKind): string {
  const bytes = randomBytesLazy(5);
  let bits = 0n;
  for (const byte of bytes) bits = (bits << 8n) | BigInt(byte);
  let payload = '';
  for (let i = PAYLOAD_SYMBOLS - 1; i >= 0; i--) payload += CROCKFORD_ALPHABET[Number((bits >> BigInt(5 * i)) & 31n)];
  return handleFromPayload(kind, payload);
}

/** The handle for a given 8-symbol payload (canonical symbols only); used by newHandle and to build examples. */
export function handleFromPayload(kind: HandleKind, payload: string): string {
  if (payload.length !== PAYLOAD_SYMBOLS || [...payload].some((c) => !CROCKFORD_ALPHABET.includes(c))) {
    throw new RangeError(
      `a handle payload is ${PAYLOAD_SYMBOLS} Crockford Base32 symbols, got ${JSON.stringify(payload)}`,
    );
  }
  const check = checkValue(kind + payload);
  const body = payload + symbol(Math.floor(check / 32)) + symbol(check % 32);
  return canonical(kind, body);
}

export function parseHandle(text: string, kind: HandleKind): HandleParse {
  const compact = normalize(text);
  if (compact === undefined || compact.length !== 2 + PAYLOAD_SYMBOLS + 2) {
    return malformed(text, kind);
  }
  const prefix = compact.slice(0, 2);
  if (prefix !== 'R1' && prefix !== 'C1') return malformed(text, kind);
  if (prefix !== kind) {
    return {
      ok: false,
      reason: 'kind',
      message: `${canonical(prefix, compact.slice(2))} is a ${KIND_NAMES[prefix]}; this needs a ${KIND_NAMES[kind]} (${kind}-…).`,
    };
  }
  const checkSymbols = compact.slice(2 + PAYLOAD_SYMBOLS);
  const check = value(checkSymbols[0] ?? '') * 32 + value(checkSymbols[1] ?? '');
  if (check >= MODULUS || residue(compact) !== TARGET) {
    return {
      ok: false,
      reason: 'checksum',
      message: `${quote(text)} is not a valid ${KIND_NAMES[kind]}: its check symbols do not match (a character is mistyped, missing or swapped). Copy the handle again from the result that issued it.`,
    };
  }
  return { ok: true, handle: canonical(kind, compact.slice(2)) };
}

/** The check value that makes the 12-symbol number ≡ TARGET (mod 1021), for the first ten symbols. */
function checkValue(firstTen: string): number {
  // N = P·1024 + C, so C ≡ TARGET − P·1024 (mod 1021).
  const p = residue(firstTen);
  return (((TARGET - ((p * 1024) % MODULUS)) % MODULUS) + MODULUS) % MODULUS;
}

/** The symbols read as one base-32 number, modulo 1021 (Horner's rule keeps it small). */
function residue(symbols: string): number {
  let r = 0;
  for (const c of symbols) r = (r * 32 + value(c)) % MODULUS;
  return r;
}

function value(c: string): number {
  return CROCKFORD_ALPHABET.indexOf(c);
}

function symbol(v: number): string {
  return CROCKFORD_ALPHABET[v] ?? '?';
}

/** Uppercase, aliases resolved, dashes dropped; undefined when a character is outside the alphabet. */
function normalize(text: string): string | undefined {
  let out = '';
  for (const raw of text.trim().replace(DASHES, '')) {
    // ASCII case folding only: toUpperCase on the whole string would turn ß into SS, a valid pair.
    const upper = raw >= 'a' && raw <= 'z' ? raw.toUpperCase() : raw;
    const c = ALIASES[upper] ?? upper;
    if (!CROCKFORD_ALPHABET.includes(c)) return undefined;
    out += c;
  }
  return out;
}

function canonical(kind: string, body: string): string {
  return `${kind}-${body.slice(0, 4)}-${body.slice(4, 8)}-${body.slice(8)}`;
}

function malformed(text: string, kind: HandleKind): HandleParse {
  return {
    ok: false,
    reason: 'malformed',
    message: `${quote(text)} is not a ${KIND_NAMES[kind]}: expected ${kind}-XXXX-XXXX-XX with Crockford Base32 symbols (0-9 and A-Z without I, L, O, U).`,
  };
}

function quote(text: string): string {
  const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  return JSON.stringify(shown);
}
