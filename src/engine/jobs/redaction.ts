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

/** The values a dotenv-style text assigns, those long enough to mask. */
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
    for (const value of [bare, written]) if (value.length >= MIN_SECRET_LENGTH) values.push(value);
  }
  return values;
}

/** Masks one stream's bytes; `push` returns what may be written now, `flush` the rest at end of stream. */
export class StreamRedactor {
  private readonly secrets: Buffer[];
  private readonly mask = Buffer.from(REDACTED, 'utf8');
  private held: Buffer = Buffer.alloc(0);

  constructor(secrets: readonly string[]) {
    // Longest first, so a value that contains a shorter one is masked whole.
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
    const masked = this.replace(this.held.length === 0 ? chunk : Buffer.concat([this.held, chunk]));
    const keep = this.pendingPrefix(masked);
    this.held = Buffer.from(masked.subarray(masked.length - keep));
    return masked.subarray(0, masked.length - keep);
  }

  flush(): Buffer {
    const rest = this.held;
    this.held = Buffer.alloc(0);
    return rest;
  }

  private replace(bytes: Buffer): Buffer {
    let out = bytes;
    for (const secret of this.secrets) {
      let at = out.indexOf(secret);
      if (at === -1) continue;
      const parts: Buffer[] = [];
      let from = 0;
      while (at !== -1) {
        parts.push(out.subarray(from, at), this.mask);
        from = at + secret.length;
        at = out.indexOf(secret, from);
      }
      parts.push(out.subarray(from));
      out = Buffer.concat(parts);
    }
    return out;
  }

  /** How many trailing bytes could begin a secret the next chunk completes. */
  private pendingPrefix(bytes: Buffer): number {
    let longest = 0;
    for (const secret of this.secrets) {
      const max = Math.min(secret.length - 1, bytes.length);
      for (let k = max; k > longest; k--) {
        if (bytes.compare(secret, 0, k, bytes.length - k, bytes.length) === 0) {
          longest = k;
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
