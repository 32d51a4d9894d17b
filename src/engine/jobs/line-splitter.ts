// Cuts one byte stream (a child's stdout or stderr) into lines for counting and protocol parsing, whatever the
// chunk boundaries. Memory is bounded by the line limit, not by the line: a 50 MB line without a newline is
// counted as one line but never held, so a job cannot make discern's memory grow by printing a huge line.
// It works on bytes and decodes a line only once it is complete, so a multi-byte character split across two
// chunks decodes correctly.

/** `line` is the text without its terminator (LF or CRLF), or undefined when it exceeded the limit. */
export type LineHandler = (line: string | undefined) => void;

const LF = 0x0a;
const CR = 0x0d;

export class LineSplitter {
  // Bytes of the current, unterminated line. Copies, never views into a chunk: a view would keep the whole
  // 64 KiB chunk alive.
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private overlong = false;
  private started = false;

  /** `maxLineBytes` bounds a line's content, its terminator excluded. */
  constructor(
    private readonly maxLineBytes: number,
    private readonly onLine: LineHandler,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(LF, start);
      if (newline === -1) {
        this.keep(chunk, start, chunk.length);
        return;
      }
      this.complete(chunk, start, newline);
      start = newline + 1;
    }
  }

  /** Emits a final line that had no newline; call once, at end of stream. */
  flush(): void {
    if (!this.started) return;
    this.complete(Buffer.alloc(0), 0, 0);
  }

  private keep(chunk: Buffer, start: number, end: number): void {
    if (end <= start) return;
    this.started = true;
    if (this.overlong) return;
    // One spare byte: a line of exactly the limit may still be followed by the CR of its CRLF.
    if (this.pendingBytes + (end - start) > this.maxLineBytes + 1) {
      this.overlong = true;
      this.pending = [];
      this.pendingBytes = 0;
      return;
    }
    this.pending.push(Buffer.from(chunk.subarray(start, end)));
    this.pendingBytes += end - start;
  }

  private complete(chunk: Buffer, start: number, end: number): void {
    let line: string | undefined;
    if (!this.overlong) {
      let bytes: Buffer;
      let from = start;
      let to = end;
      if (this.pendingBytes === 0) {
        bytes = chunk; // the common case: the whole line sits in this chunk, decode it in place
      } else {
        bytes = Buffer.concat([...this.pending, chunk.subarray(start, end)]);
        from = 0;
        to = bytes.length;
      }
      if (to > from && bytes[to - 1] === CR) to--;
      line = to - from > this.maxLineBytes ? undefined : bytes.toString('utf8', from, to);
    }
    this.pending = [];
    this.pendingBytes = 0;
    this.overlong = false;
    this.started = false;
    this.onLine(line);
  }
}
