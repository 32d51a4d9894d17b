// An incremental parser of `git log --no-merges --name-only -z --format=%x00%H %cI %s`: bytes go in chunk by
// chunk as git writes them, commits come out as soon as they are complete, and nothing holds more than the
// commit being read plus one partial token.
//
// The format starts every commit with a NUL, so the token stream (split on NUL) is: an empty token, the header
// (sha, committer date, subject), then the commit's paths — the first one prefixed by the newline git writes
// after a header — then the next empty token. git never writes an empty path, so an empty token can only mean
// "a header follows", whatever the paths look like.

export interface LogCommit {
  sha: string;
  /** Committer date, ISO 8601 with its offset (%cI). */
  date: string;
  subject: string;
  files: string[];
}

export class LogParser {
  private pending: Buffer | undefined;
  private current: LogCommit | undefined;
  private expectHeader = false;
  private firstFile = false;

  constructor(private readonly onCommit: (commit: LogCommit) => void) {}

  push(chunk: Buffer): void {
    const data = this.pending === undefined ? chunk : Buffer.concat([this.pending, chunk]);
    // Decoded once per chunk, up to its last NUL: a NUL is never inside a multi-byte character, so no character
    // is cut, and splitting the text is far cheaper than decoding each token on its own.
    const last = data.lastIndexOf(0);
    if (last < 0) {
      this.pending = data;
      return;
    }
    this.pending = last + 1 < data.length ? data.subarray(last + 1) : undefined;
    for (const token of data.toString('utf8', 0, last).split('\0')) this.token(token);
  }

  /** The stream ended: the last commit is complete (without -z's final NUL the rest is still one token). */
  end(): void {
    if (this.pending !== undefined && this.pending.length > 0) this.token(this.pending.toString('utf8'));
    this.pending = undefined;
    this.flush();
  }

  private token(text: string): void {
    if (text === '') {
      this.flush();
      this.expectHeader = true;
      return;
    }
    if (this.expectHeader) {
      this.expectHeader = false;
      this.current = parseHeader(text);
      this.firstFile = true;
      return;
    }
    if (this.current === undefined) return; // text before the first header: not ours to interpret
    let path = text;
    if (this.firstFile) {
      this.firstFile = false;
      if (path.charCodeAt(0) === 0x0a) path = path.slice(1);
      if (path === '') return;
    }
    this.current.files.push(path);
  }

  private flush(): void {
    if (this.current !== undefined) this.onCommit(this.current);
    this.current = undefined;
  }
}

function parseHeader(text: string): LogCommit {
  const firstSpace = text.indexOf(' ');
  const secondSpace = firstSpace < 0 ? -1 : text.indexOf(' ', firstSpace + 1);
  if (firstSpace < 0) return { sha: text, date: '', subject: '', files: [] };
  if (secondSpace < 0)
    return { sha: text.slice(0, firstSpace), date: text.slice(firstSpace + 1), subject: '', files: [] };
  return {
    sha: text.slice(0, firstSpace),
    date: text.slice(firstSpace + 1, secondSpace),
    subject: text.slice(secondSpace + 1),
    files: [],
  };
}
