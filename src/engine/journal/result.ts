// A finished operation's result is kept in its record so `progress` can hand it back after a lost call. Most
// results are small; a gate over a huge repository can produce megabytes of diagnostics, and a record that
// large would make every reader (and every eviction pass) slow. Above RESULT_INLINE_LIMIT the whole result
// goes to its own file and the record keeps a reduced envelope: enough to branch on (ok, verb, error,
// message, hints, the scalar facts of data) plus, for everything left out, its path and size, so a reader
// knows what to fetch from result_path.

/** 256 KiB of JSON text, measured in UTF-8 bytes. */
export const RESULT_INLINE_LIMIT = 256 * 1024;
/** The reduced envelope is rebuilt more tersely when it would still exceed this. */
const REDUCED_LIMIT = 32 * 1024;
const MAX_STRING = 2048;
const MAX_HINTS = 20;
const MAX_HINT = 1024;
const MAX_KEYS = 64;
const MAX_OMITTED = 64;

export interface OmittedPart {
  /** Dotted path inside the result ('' for the result itself). */
  path: string;
  kind: 'array' | 'object' | 'string' | 'more';
  /** Items of an array, keys of an object, characters of a string, or parts not listed for 'more'. */
  size: number;
}

export interface ReducedResult {
  [key: string]: unknown;
  /** What was left out; the complete result is at the record's result_path. */
  omitted: OmittedPart[];
  /** Size of the complete result's JSON text in bytes. */
  original_bytes: number;
}

/** The result's JSON text and byte size, or why it cannot be serialised (a cycle, a BigInt). */
export function measureResult(
  result: unknown,
): { ok: true; json: string; bytes: number } | { ok: false; message: string } {
  try {
    const json = JSON.stringify(result) ?? 'null';
    return { ok: true, json, bytes: Buffer.byteLength(json, 'utf8') };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

export function reduceResult(result: unknown, originalBytes: number): ReducedResult {
  const omitted: OmittedPart[] = [];
  const reduced: Record<string, unknown> = {};
  if (isPlainObject(result)) {
    let kept = 0;
    for (const [key, value] of Object.entries(result)) {
      if (key === 'hints' && Array.isArray(value)) {
        reduced['hints'] = value
          .slice(0, MAX_HINTS)
          .map((h) => (typeof h === 'string' ? clip(h, MAX_HINT) : String(h)));
        if (value.length > MAX_HINTS) omitted.push({ path: 'hints', kind: 'array', size: value.length - MAX_HINTS });
      } else if (key === 'data' && isPlainObject(value)) {
        // One level into data: its scalar facts (status, counts, verdicts) are what a caller branches on.
        reduced['data'] = keepScalars(value, 'data', omitted);
      } else if (isScalar(value) && kept < MAX_KEYS) {
        reduced[key] = typeof value === 'string' ? clipNoted(value, key, omitted) : value;
        kept += 1;
      } else {
        omitted.push(describe(key, value));
      }
    }
  } else {
    omitted.push(describe('', result));
  }
  const bounded = boundOmitted(omitted);
  const candidate: ReducedResult = { ...reduced, omitted: bounded, original_bytes: originalBytes };
  if (Buffer.byteLength(JSON.stringify(candidate), 'utf8') <= REDUCED_LIMIT) return candidate;
  // Still too large (very many or very long fields): keep only the envelope's verdict.
  const terse: ReducedResult = {
    omitted: [{ path: '', kind: 'object', size: isPlainObject(result) ? Object.keys(result).length : 0 }],
    original_bytes: originalBytes,
  };
  for (const key of ['ok', 'verb', 'error', 'message']) {
    const value = isPlainObject(result) ? result[key] : undefined;
    if (isScalar(value)) terse[key] = typeof value === 'string' ? clip(value, MAX_STRING) : value;
  }
  return terse;
}

function keepScalars(value: Record<string, unknown>, prefix: string, omitted: OmittedPart[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let kept = 0;
  for (const [key, inner] of Object.entries(value)) {
    const path = `${prefix}.${key}`;
    if (isScalar(inner) && kept < MAX_KEYS) {
      out[key] = typeof inner === 'string' ? clipNoted(inner, path, omitted) : inner;
      kept += 1;
    } else {
      omitted.push(describe(path, inner));
    }
  }
  return out;
}

function describe(path: string, value: unknown): OmittedPart {
  if (Array.isArray(value)) return { path, kind: 'array', size: value.length };
  if (typeof value === 'string') return { path, kind: 'string', size: value.length };
  if (isPlainObject(value)) return { path, kind: 'object', size: Object.keys(value).length };
  return { path, kind: 'object', size: 0 };
}

function boundOmitted(omitted: OmittedPart[]): OmittedPart[] {
  if (omitted.length <= MAX_OMITTED) return omitted;
  return [...omitted.slice(0, MAX_OMITTED - 1), { path: '…', kind: 'more', size: omitted.length - (MAX_OMITTED - 1) }];
}

function clipNoted(text: string, path: string, omitted: OmittedPart[]): string {
  if (text.length <= MAX_STRING) return text;
  omitted.push({ path, kind: 'string', size: text.length });
  return clip(text, MAX_STRING);
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function isScalar(value: unknown): value is string | number | boolean | null {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
