// Reads a job's combined output without loading all of it: a failing test suite can write hundreds of MB.
// Up to 8 MiB is read whole; beyond that the first 4 MiB and the last 4 MiB. The head is where structured
// reports start and where compilers print the first (usually causal) errors; the tail is where summaries,
// final exceptions and the test runner's verdict land. The middle of a huge log is repetition.
import { open, type FileHandle } from 'node:fs/promises';

export const HEAD_BYTES = 4 * 1024 * 1024;
export const TAIL_BYTES = 4 * 1024 * 1024;

export interface BoundedText {
  text: string;
  /** Size of the file when it was opened. */
  bytes: number;
  /** Bytes left out between head and tail; 0 when the whole file was read. */
  skipped: number;
}

export async function readBounded(path: string, headBytes = HEAD_BYTES, tailBytes = TAIL_BYTES): Promise<BoundedText> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    if (size <= headBytes + tailBytes) {
      // Bytes appended after the stat are ignored: the buffer is sized once, from the stat.
      const whole = await readAt(handle, 0, size);
      return { text: whole.toString('utf8'), bytes: size, skipped: 0 };
    }
    const head = await readAt(handle, 0, headBytes);
    const tail = await readAt(handle, size - tailBytes, tailBytes);
    const skipped = size - head.length - tail.length;
    // Cut both halves at line boundaries so no parser sees half a line (or half a UTF-8 sequence).
    const headText = head.subarray(0, lastNewline(head) + 1).toString('utf8');
    const tailText = tail.subarray(tail.indexOf(0x0a) + 1).toString('utf8');
    const marker = `[discern: ${skipped} bytes of output omitted here]\n`;
    return { text: headText + marker + tailText, bytes: size, skipped };
  } finally {
    await handle.close();
  }
}

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(buffer, filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

function lastNewline(buffer: Buffer): number {
  const at = buffer.lastIndexOf(0x0a);
  // No newline in 4 MiB: one giant line, which the line parsers skip anyway; keep it for the raw tail.
  return at === -1 ? buffer.length - 1 : at;
}
