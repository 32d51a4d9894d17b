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
    let start = 0;
    for (;;) {
      const end = data.indexOf(0, start);
      if (end < 0) break;
      this.token(data, start, end);
      start = end + 1;
    }
    this.pending = start < data.length ? data.subarray(start) : undefined;
  }

  /** The stream ended: the last commit is complete (a trailing partial token would mean a cut-off stream). */
  end(): void {
    if (this.pending !== undefined && this.pending.length > 0) {
      // Without -z's final NUL the last token is still a whole path (or header).
      const rest = this.pending;
      this.pending = undefined;
      this.token(rest, 0, rest.length);
    }
    this.flush();
  }

  private token(data: Buffer, start: number, end: number): void {
    if (start === end) {
      this.flush();
      this.expectHeader = true;
      return;
    }
    if (this.expectHeader) {
      this.expectHeader = false;
      this.current = parseHeader(data.toString('utf8', start, end));
      this.firstFile = true;
      return;
    }
    if (this.current === undefined) return; // bytes before the first header: not ours to interpret
    let from = start;
    if (this.firstFile) {
      this.firstFile = false;
      if (data[from] === 0x0a) from++;
      if (from === end) return;
    }
    this.current.files.push(data.toString('utf8', from, end));
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
  if (secondSpace < 0) return { sha: text.slice(0, firstSpace), date: text.slice(firstSpace + 1), subject: '', files: [] };
  return { sha: text.slice(0, firstSpace), date: text.slice(firstSpace + 1, secondSpace), subject: text.slice(secondSpace + 1), files: [] };
}
