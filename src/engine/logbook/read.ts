// Reading a logbook in one streaming pass: fixed-size chunks split at newlines, each line parsed on its own,
// so memory stays bounded by what the caller keeps, not by the file. A line that is not an event (not JSON,
// missing its time or verb, longer than any line the writer makes) is counted and skipped.
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import type { LogbookEvent } from './event.js';

/** Four times the writer's MAX_LINE_BYTES (event.ts), room for a hand edit; anything longer is malformed. */
const MAX_READ_LINE = 16 * 1024;
const CHUNK = 1 << 20;
const NEWLINE = 0x0a;

/** A parsed event and its time in milliseconds since the epoch. */
export interface ReadEvent {
  event: LogbookEvent;
  t: number;
}

export interface ReadSummary {
  bytes: number;
  /** Non-blank lines. */
  lines: number;
  events: number;
  malformed: number;
  first?: number;
  last?: number;
}

/** Reads the whole file, calling onEvent for every event in file order; a missing file is an empty summary. */
export async function readLogbook(
  path: string,
  onEvent: (read: ReadEvent) => void,
): Promise<ReadSummary & { exists: boolean }> {
  const summary: ReadSummary = { bytes: 0, lines: 0, events: 0, malformed: 0 };
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ...summary, exists: false };
    throw error;
  }
  const take = (line: Buffer | string): void => {
    const text = typeof line === 'string' ? line : line.toString('utf8');
    if (text.trim().length === 0) return;
    summary.lines++;
    const read = parseEvent(text);
    if (read === undefined) {
      summary.malformed++;
      return;
    }
    summary.events++;
    if (summary.first === undefined || read.t < summary.first) summary.first = read.t;
    if (summary.last === undefined || read.t > summary.last) summary.last = read.t;
    onEvent(read);
  };
  let carry: Buffer | undefined;
  let overlong = false;
  // Only the bytes present when the read began: lines appended meanwhile belong to the next read.
  const stream = createReadStream(path, { highWaterMark: CHUNK, start: 0, end: Math.max(0, size - 1) });
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    summary.bytes += chunk.length;
    let start = 0;
    for (let newline = chunk.indexOf(NEWLINE, start); newline !== -1; newline = chunk.indexOf(NEWLINE, start)) {
      if (overlong) {
        summary.lines++;
        summary.malformed++;
        overlong = false;
      } else if (carry) {
        const line = Buffer.concat([carry, chunk.subarray(start, newline)]);
        if (line.length > MAX_READ_LINE) {
          summary.lines++;
          summary.malformed++;
        } else take(line);
      } else if (newline - start > MAX_READ_LINE) {
        summary.lines++;
        summary.malformed++;
      } else take(chunk.toString('utf8', start, newline));
      carry = undefined;
      start = newline + 1;
    }
    if (start < chunk.length && !overlong) {
      const rest = chunk.subarray(start);
      carry = carry ? Buffer.concat([carry, rest]) : Buffer.from(rest);
      if (carry.length > MAX_READ_LINE) {
        carry = undefined;
        overlong = true;
      }
    }
  }
  // A last line without its newline is an append still being written, or a cut-off one: malformed either way
  // unless it parses whole.
  if (overlong) {
    summary.lines++;
    summary.malformed++;
  } else if (carry) take(carry);
  return { ...summary, exists: true };
}

/** The event a line holds, or undefined when it is not one. */
export function parseEvent(text: string): ReadEvent | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const event = value as Partial<LogbookEvent>;
  if (typeof event.at !== 'string' || typeof event.verb !== 'string' || typeof event.outcome !== 'string')
    return undefined;
  const t = Date.parse(event.at);
  if (!Number.isFinite(t)) return undefined;
  if (event.jobs !== undefined && !Array.isArray(event.jobs)) return undefined;
  return { event: event as LogbookEvent, t };
}

/**
 * The time of the latest event, from the file's tail alone: the analysis window ends there, and knowing it
 * before the pass keeps the pass single. Undefined when the tail holds no event.
 */
export async function lastEventTime(path: string): Promise<number | undefined> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const size = (await handle.stat()).size;
    const length = Math.min(size, MAX_READ_LINE * 4);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    const lines = buffer.toString('utf8').split('\n');
    // The first piece may be the end of a longer line: skip it unless the tail is the whole file.
    const from = length < size ? 1 : 0;
    let latest: number | undefined;
    for (let i = lines.length - 1; i >= from; i--) {
      const read = parseEvent(lines[i] ?? '');
      if (read && (latest === undefined || read.t > latest)) latest = read.t;
    }
    return latest;
  } finally {
    await handle.close();
  }
}
