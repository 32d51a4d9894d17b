// Values from the project's env files ([worktree] env_files: secrets, local settings) never leave a job's
// captured output as they were printed: every occurrence becomes `***` before the bytes reach the output file or
// the line parser, so the diagnostics, excerpts, progress facts, journal records and results built from them
// only ever see the masked text (docs/decisions/0039-confinement-and-redaction.md).
//
// It works on bytes and streams: a secret split across two chunks is still caught, because the end of a chunk
// that could be the start of a secret is held back until the next chunk (or the end of the stream) decides it.
import { readFileSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';

export const REDACTED = '***';
/**
 * Shorter values are left alone: masking `1`, `on` or `dev` would blot out ordinary output (every line number,
 * every "on") and hide nothing worth hiding.
 */
export const MIN_SECRET_LENGTH = 4;
const MAX_ENV_FILE_BYTES = 1024 * 1024;
/**
 * Settings, not secrets: a mode, a level, a switch, a loopback host, a port or a count. Masking `NODE_ENV=test`
 * would mask both `test`s of every `test/a.test.ts:3` the output names, and so every diagnostic's file;
 * masking `PORT=3000` would blank line 3000 of any file.
 */
const NOT_SECRET =
  /^(?:true|false|yes|no|on|off|null|none|nil|undefined|enabled?|disabled?|tests?|testing|dev|development|prod|production|staging|local|localhost|debug|info|warn|warning|error|trace|verbose|silent|127\.0\.0\.1|0\.0\.0\.0|\d{1,5})$/i;

/**
 * The values assigned in the env files under each root, for masking. Lines are `KEY=value` or `export KEY=value`;
 * a value in matching single or double quotes is taken without them (and, quoted or not, also as written).
 * Unreadable or missing files contribute nothing; a file path that leaves its root is not read.
 */
export function readSecrets(roots: readonly string[], files: readonly string[]): string[] {
  const found = new Set<string>();
  for (const root of new Set(roots)) {
    for (const file of files) {
      const path = join(root, file);
      const rel = relative(root, path);
      if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) continue;
      let text: string;
      try {
        const bytes = readFileSync(path);
        if (bytes.length > MAX_ENV_FILE_BYTES) continue;
        text = bytes.toString('utf8');
      } catch {
        continue;
      }
      for (const value of envValues(text)) found.add(value);
    }
  }
  return [...found].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
}

/** The values a dotenv-style text assigns, those long enough to mask and not plainly a setting. */
export function envValues(text: string): string[] {
  const values: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const match = /^(?:export\s+)?[A-Za-z_][A-Za-z0-9_.-]*\s*[=:]\s*(.*)$/.exec(line);
    if (match === null) continue;
    const written = (match[1] ?? '').trim();
    const unquoted = /^(['"`])(.*)\1$/.exec(written)?.[2];
    // An unquoted value ends at an inline comment, as dotenv readers treat ` #`.
    const bare = unquoted ?? written.replace(/\s+#.*$/, '');
    for (const value of [bare, written])
      if (value.length >= MIN_SECRET_LENGTH && !NOT_SECRET.test(value)) values.push(value);
  }
  return values;
}

/**
 * Masks one stream's bytes; `push` returns what may be written now, `flush` the rest at end of stream.
 *
 * The bytes held back are kept as they arrived, not masked: a value that contains another (a database URL and
 * its password) must be masked whole even when a chunk ends inside it, after the shorter value. Matching is
 * leftmost-longest, so the output is the same wherever the stream is cut.
 */
export class StreamRedactor {
  private readonly secrets: Buffer[];
  private readonly mask = Buffer.from(REDACTED, 'utf8');
  private held: Buffer = Buffer.alloc(0);

  constructor(secrets: readonly string[]) {
    // Longest first: of two values found at the same place, the longer is masked.
    this.secrets = [...new Set(secrets)]
      .filter((s) => s.length >= MIN_SECRET_LENGTH)
      .map((s) => Buffer.from(s, 'utf8'))
      .sort((a, b) => b.length - a.length);
  }

  get active(): boolean {
    return this.secrets.length > 0;
  }

  push(chunk: Buffer): Buffer {
    if (this.secrets.length === 0) return chunk;
    const bytes = this.held.length === 0 ? chunk : Buffer.concat([this.held, chunk]);
    return this.mask_(bytes, bytes.length - this.pendingPrefix(bytes));
  }

  flush(): Buffer {
    const rest = this.held;
    this.held = Buffer.alloc(0);
    return rest.length === 0 ? rest : this.mask_(rest, rest.length);
  }

  /**
   * Masks the values that start before `decided` (no value can start there and end in a later chunk) and
   * returns that part; the rest is held back, as it arrived, for the next chunk.
   */
  private mask_(bytes: Buffer, decided: number): Buffer {
    const next = this.secrets.map((s) => bytes.indexOf(s));
    const parts: Buffer[] = [];
    let from = 0;
    for (;;) {
      let pick = -1;
      for (let i = 0; i < next.length; i++) {
        const at = next[i] as number;
        if (at !== -1 && (pick === -1 || at < (next[pick] as number))) pick = i;
      }
      const at = pick === -1 ? -1 : (next[pick] as number);
      if (at === -1 || at >= decided) break;
      parts.push(bytes.subarray(from, at), this.mask);
      from = at + (this.secrets[pick] as Buffer).length;
      for (let i = 0; i < next.length; i++)
        if ((next[i] as number) !== -1 && (next[i] as number) < from)
          next[i] = bytes.indexOf(this.secrets[i] as Buffer, from);
    }
    const cut = Math.max(from, decided);
    parts.push(bytes.subarray(from, cut));
    this.held = Buffer.from(bytes.subarray(cut));
    return Buffer.concat(parts);
  }

  /** How many trailing bytes could begin a value the next chunk completes. */
  private pendingPrefix(bytes: Buffer): number {
    let longest = 0;
    for (const secret of this.secrets) {
      // Only where the value's first byte is can it begin; the first such place that fits is the longest.
      const first = secret[0] as number;
      for (
        let p = bytes.indexOf(first, Math.max(0, bytes.length - secret.length + 1));
        p !== -1 && bytes.length - p > longest;
        p = bytes.indexOf(first, p + 1)
      ) {
        if (bytes.compare(secret, 0, bytes.length - p, p, bytes.length) === 0) {
          longest = bytes.length - p;
          break;
        }
      }
    }
    return longest;
  }
}

/** Masks a whole text at once (discern's own lines that quote job output). */
export function redactText(text: string, secrets: readonly string[]): string {
  if (secrets.length === 0) return text;
  const redactor = new StreamRedactor(secrets);
  const bytes = Buffer.concat([redactor.push(Buffer.from(text, 'utf8')), redactor.flush()]);
  return bytes.toString('utf8');
}
