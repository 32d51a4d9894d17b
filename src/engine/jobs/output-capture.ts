// One job's combined output: every chunk of the children's stdout and stderr goes to the output file in arrival
// order, and through a per-stream line splitter that counts lines, error-like lines and reads the protocol lines.
// Nothing accumulates: when the file cannot keep up, the children's pipes are paused, the kernel pipe fills and
// the job blocks on write until the disk catches up, so a job printing gigabytes costs discern a few buffers.
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Readable } from 'node:stream';
import type { DiscernProgressLine } from '../../../generated/types.js';
import { isErrorLikeLine } from '../diagnostics/error-like.js';
import { LineSplitter } from './line-splitter.js';
import { emptyMergedProgress, mergeProgress, type MergedProgress } from './progress-merge.js';
import { MAX_PROTOCOL_LINE_BYTES, parseMetricLine, parseProgressLine } from './protocol-lines.js';
import { StreamRedactor } from './redaction.js';

export interface OutputCounts {
  lines: number;
  bytes: number;
  errorLikeLines: number;
}

export interface OutputCaptureHooks {
  onProgress?: ((fact: DiscernProgressLine) => void) | undefined;
  onOutput?: ((counts: OutputCounts) => void) | undefined;
  /**
   * Each whole line as the file gets it (redacted, either channel, discern's own notes too), for a caller that
   * streams the output ([gate] stream). Absent, the capture does no per-line work beyond counting.
   */
  onLine?: ((text: string) => void) | undefined;
  /** Values masked as `***` before anything reads or stores the output (redaction.ts). */
  secrets?: readonly string[] | undefined;
}

export type Channel = 'stdout' | 'stderr';

/** What a streamed line says in place of one the splitter did not hold (the file has it whole). */
export const OVERLONG_LINE = `[a line longer than ${MAX_PROTOCOL_LINE_BYTES} bytes; it is in the output file]`;

/** Live counts go out at most this often: callers journal or render them, and 4/s is plenty for either. */
export const OUTPUT_NOTIFY_INTERVAL_MS = 250;

export class OutputCapture {
  private readonly counts: OutputCounts = { lines: 0, bytes: 0, errorLikeLines: 0 };
  private readonly metricValues = new Map<string, number>();
  private merged: MergedProgress = emptyMergedProgress();
  // One splitter per channel, kept across the job's commands: stdout and stderr lines must not be glued
  // together mid-line, while one command's unterminated line followed by the next command's text is, in the
  // file, one line too.
  private readonly splitters: Record<Channel, LineSplitter>;
  // One per channel for the same reason: a secret split across chunks is caught within its own stream.
  private readonly redactors: Record<Channel, StreamRedactor>;
  private readonly sources = new Map<Readable, (chunk: Buffer) => void>();
  private saturated = false;
  private writeFailed = false;
  private lastByte: number | undefined;
  private lastNotify = 0;
  private notifyTimer: NodeJS.Timeout | undefined;
  private finished = false;

  private constructor(
    private readonly file: WriteStream,
    private readonly hooks: OutputCaptureHooks,
  ) {
    const onLine = (line: string | undefined): void => this.line(line);
    this.splitters = {
      stdout: new LineSplitter(MAX_PROTOCOL_LINE_BYTES, onLine),
      stderr: new LineSplitter(MAX_PROTOCOL_LINE_BYTES, onLine),
    };
    const secrets = hooks.secrets ?? [];
    this.redactors = { stdout: new StreamRedactor(secrets), stderr: new StreamRedactor(secrets) };
    // The output file is best-effort evidence: if the disk fills up, the job still runs to its verdict, its
    // lines are still counted, and the pipes must not stay paused waiting for a 'drain' that never comes.
    file.on('error', () => {
      this.writeFailed = true;
      this.setSaturated(false);
    });
    file.on('drain', () => this.setSaturated(false));
  }

  /** Creates (truncates) the file, parent directories included; rejects when it cannot be opened. */
  static async open(path: string, hooks: OutputCaptureHooks): Promise<OutputCapture> {
    await mkdir(dirname(path), { recursive: true });
    const file = createWriteStream(path, { flags: 'w' });
    await new Promise<void>((resolve, reject) => {
      file.once('open', () => resolve());
      file.once('error', reject);
    });
    file.removeAllListeners('error');
    return new OutputCapture(file, hooks);
  }

  /** True while the file is behind and the sources are paused. */
  get isSaturated(): boolean {
    return this.saturated;
  }

  get outputCounts(): OutputCounts {
    return { ...this.counts };
  }

  get metrics(): Record<string, number> {
    return Object.fromEntries(this.metricValues);
  }

  get progress(): MergedProgress {
    return this.merged;
  }

  /** Streams `source` into the file until it ends or is detached. */
  attach(source: Readable, channel: Channel): void {
    const onData = (chunk: Buffer): void => this.chunk(chunk, channel);
    this.sources.set(source, onData);
    source.on('data', onData);
    if (this.saturated) source.pause();
  }

  detach(source: Readable): void {
    const onData = this.sources.get(source);
    if (onData !== undefined) source.off('data', onData);
    this.sources.delete(source);
  }

  /** One line of discern's own (a timeout, a cancellation), on a line of its own. Not parsed as protocol. */
  note(text: string): void {
    this.release();
    const line = `${this.lastByte === undefined || this.lastByte === 0x0a ? '' : '\n'}${text}\n`;
    const bytes = Buffer.from(line, 'utf8');
    this.write(bytes);
    this.counts.bytes += bytes.length;
    this.counts.lines++;
    callSafely(this.hooks.onLine, text);
  }

  /** Counts the unterminated last lines, then closes the file. Never rejects. */
  async finish(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    this.release();
    this.splitters.stdout.flush();
    this.splitters.stderr.flush();
    if (this.notifyTimer !== undefined) clearTimeout(this.notifyTimer);
    for (const source of [...this.sources.keys()]) this.detach(source);
    if (this.file.destroyed) return;
    await new Promise<void>((resolve) => {
      this.file.once('close', resolve);
      this.file.once('error', () => resolve());
      this.file.end();
    });
  }

  private chunk(raw: Buffer, channel: Channel): void {
    this.take(this.redactors[channel].push(raw), channel);
    this.scheduleNotify();
  }

  private take(chunk: Buffer, channel: Channel): void {
    if (chunk.length === 0) return;
    this.write(chunk);
    this.counts.bytes += chunk.length;
    this.splitters[channel].push(chunk);
  }

  /** Writes what the redactors held back as a possible start of a secret: the stream has ended or paused. */
  private release(): void {
    for (const channel of ['stdout', 'stderr'] as const) this.take(this.redactors[channel].flush(), channel);
  }

  private write(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.lastByte = bytes[bytes.length - 1];
    if (this.writeFailed || this.file.destroyed) return;
    if (!this.file.write(bytes)) this.setSaturated(true);
  }

  private setSaturated(saturated: boolean): void {
    if (this.saturated === saturated) return;
    this.saturated = saturated;
    for (const source of this.sources.keys()) {
      if (saturated) source.pause();
      else source.resume();
    }
  }

  private line(line: string | undefined): void {
    this.counts.lines++;
    if (this.hooks.onLine !== undefined) callSafely(this.hooks.onLine, line ?? OVERLONG_LINE);
    // undefined: longer than the protocol limit. Counted, but neither a diagnostic nor a protocol line.
    if (line === undefined) return;
    if (isErrorLikeLine(line)) this.counts.errorLikeLines++;
    if (!line.startsWith('DISCERN_')) return;
    const fact = parseProgressLine(line);
    if (fact !== undefined) {
      this.merged = mergeProgress(this.merged, fact);
      callSafely(this.hooks.onProgress, fact);
      return;
    }
    const metric = parseMetricLine(line);
    if (metric !== undefined) {
      // The last line per metric wins: a coverage tool may print a provisional figure before the final one.
      this.metricValues.set(metric.metric, metric.value);
    }
  }

  private scheduleNotify(): void {
    const onOutput = this.hooks.onOutput;
    if (onOutput === undefined || this.notifyTimer !== undefined || this.finished) return;
    const wait = this.lastNotify + OUTPUT_NOTIFY_INTERVAL_MS - Date.now();
    const notify = (): void => {
      this.notifyTimer = undefined;
      this.lastNotify = Date.now();
      callSafely(onOutput, { ...this.counts });
    };
    if (wait <= 0) notify();
    else {
      this.notifyTimer = setTimeout(notify, wait);
      this.notifyTimer.unref();
    }
  }
}

// A caller's observer must not break the capture of the job it observes (a throw inside a stream 'data'
// handler or a timer would otherwise surface as an uncaught exception).
function callSafely<T>(callback: ((value: T) => void) | undefined, value: T): void {
  if (callback === undefined) return;
  try {
    callback(value);
  } catch {
    // The observer's problem; the job's record is unaffected.
  }
}
