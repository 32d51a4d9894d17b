// The executing process's side of the journal: it creates the record under a fresh R1 handle and keeps it
// current. Every write replaces the whole file atomically, so a reader in another worktree sees the previous
// state or the next, never half of one; if discern is killed, the last written state stays readable and its
// missing finished_at plus a dead pid tell the reader what happened.
//
// Writes are throttled to one per THROTTLE_MS (≤ 4/s): a test run can report thousands of units a second, and
// each write is a fsync. Three kinds of change are written at once because a reader must not miss them: a new
// phase, a new process group (a killed discern's jobs can only be reaped if their pgid reached the disk), and
// the final state. Writing is best effort after the record exists: a failed write (disk full, store removed)
// never fails the operation; it is kept in lastWriteError and the next change tries again.
import { dirname, join, resolve } from 'node:path';
import { writeFileAtomic, createFileExclusive } from '../state/atomic-write.js';
import { newHandle } from '../state/handles.js';
import { localIdentity } from '../state/process-alive.js';
import {
  JOURNAL_FORMAT,
  LIMITS,
  operationsDir,
  recordFileName,
  resultFileName,
  type DroppedCounts,
  type FailureEntry,
  type OperationOutcome,
  type OperationRecord,
  type ProducerEntry,
  type ProgressFact,
  type StepEvent,
  type WaitEntry,
  type WatchEntry,
} from './record.js';
import { measureResult, reduceResult, RESULT_INLINE_LIMIT } from './result.js';
import { evictOperations, type RetentionOptions } from './retention.js';

const THROTTLE_MS = 250;

export interface OpenOperationOptions {
  verb: string;
  /** The checkout root the operation runs in (stored as an absolute path). */
  checkout: string;
  /** The checkout that survives `checkout` when the operation may remove it (a landing): read back from there. */
  root?: string;
  branch: string | null;
  /** The executing process (default: this one). */
  pid?: number;
  /** The first fact (default: phase "starting"). */
  progress?: ProgressFact;
  /** Eviction bounds for the pass that precedes creation. */
  retention?: RetentionOptions;
}

/** A producer's news: fields given replace the stored ones, except as noted. */
export interface ProducerPatch {
  state?: ProducerEntry['state'];
  /** Replaces the stored units whole. */
  units?: NonNullable<ProducerEntry['units']>;
  /** Merged per key: a key given replaces that key's count, other keys stay. */
  results?: Record<string, number>;
  active?: string[];
  elapsed_ms?: number;
  /** Sticky: once a producer reported partial results it stays partial. */
  partial?: boolean;
  output_path?: string;
}

export interface WaitStart {
  reason: string;
  next: string;
  capacity?: number;
  in_use?: number;
}

export interface FinishOptions {
  outcome: OperationOutcome;
  result?: unknown;
  /** The sentences every surface presents, in order. */
  account?: string[];
}

export async function openOperation(commonDiscernDir: string, options: OpenOperationOptions): Promise<OperationWriter> {
  const dir = operationsDir(commonDiscernDir);
  try {
    await evictOperations(dir, options.retention ?? {});
  } catch {
    // Eviction is housekeeping: a failure here must not stop the operation from being recorded.
  }
  const local = localIdentity();
  const now = new Date().toISOString();
  // 40 random bits make a collision unlikely, not impossible: creation is exclusive, so a clash just retries.
  for (let attempt = 0; attempt < 8; attempt++) {
    const handle = newHandle('R1');
    const record: OperationRecord = {
      format: JOURNAL_FORMAT,
      handle,
      verb: options.verb,
      checkout: resolve(options.checkout),
      ...(options.root !== undefined && resolve(options.root) !== resolve(options.checkout)
        ? { root: resolve(options.root) }
        : {}),
      branch: options.branch,
      pid: options.pid ?? process.pid,
      hostname: local.hostname,
      ...(local.pid_ns !== undefined ? { pid_ns: local.pid_ns } : {}),
      ...(local.pid_start !== undefined && (options.pid === undefined || options.pid === process.pid)
        ? { pid_start: local.pid_start }
        : {}),
      started_at: now,
      last_activity_at: now,
      progress: options.progress ?? {
        phase: 'starting',
        state: 'running',
        reason: `${options.verb} has started`,
        next: 'wait for progress',
        owner_must_act: false,
      },
      producers: {},
      failures: [],
      timings: [],
      waits: [],
      steps: [],
      pgids: [],
      account: [],
    };
    const path = join(dir, recordFileName(handle));
    if (await createFileExclusive(path, serialize(record))) return new OperationWriter(handle, path, record);
  }
  throw new Error(`could not create a unique operation record in ${dir}`);
}

export class OperationWriter {
  private dirty = false;
  private urgent = false;
  private inFlight: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private lastWriteAt: number;
  private finished = false;
  private finishing: Promise<void> | undefined;
  private nextTiming = 1;
  private nextWait = 1;
  private writeCount = 1;
  /** The most recent write failure, if the latest write failed; cleared by a successful write. */
  lastWriteError: unknown = undefined;

  constructor(
    readonly handle: string,
    readonly recordPath: string,
    private readonly record: OperationRecord,
  ) {
    this.lastWriteAt = Date.now();
  }

  /** How many times the record has been written (the creation counts), to observe throttling. */
  get writes(): number {
    return this.writeCount;
  }

  /** A deep copy of the record as it stands in memory (written or about to be). */
  snapshot(): OperationRecord {
    return structuredClone(this.record);
  }

  setProgress(fact: ProgressFact): void {
    if (this.finished) return;
    const phaseChanged = fact.phase !== this.record.progress.phase;
    this.record.progress = { ...fact };
    this.touch(phaseChanged);
  }

  producer(name: string, patch: ProducerPatch): void {
    if (this.finished) return;
    const producers = this.record.producers;
    // Own properties only, defined rather than assigned: a producer named like an Object.prototype member
    // ("constructor", "__proto__") must stay an ordinary entry.
    const previous: ProducerEntry = (Object.hasOwn(producers, name) ? producers[name] : undefined) ?? {
      producer: name,
      state: 'pending',
    };
    const next: ProducerEntry = { ...previous };
    if (patch.state !== undefined) next.state = patch.state;
    if (patch.units !== undefined) next.units = { ...patch.units };
    if (patch.results !== undefined) next.results = { ...previous.results, ...patch.results };
    if (patch.active !== undefined) next.active = [...patch.active];
    if (patch.elapsed_ms !== undefined) next.elapsed_ms = patch.elapsed_ms;
    if (patch.output_path !== undefined) next.output_path = patch.output_path;
    // Once some results were lost (a crashed shard, a truncated report) no later news makes them whole.
    if (patch.partial === true || previous.partial === true) next.partial = true;
    else if (patch.partial === false) next.partial = false;
    Object.defineProperty(producers, name, { value: next, enumerable: true, writable: true, configurable: true });
    this.touch(false);
  }

  addFailure(failure: FailureEntry): void {
    if (this.finished) return;
    // The first failures are kept: they are usually the cause, the later ones often its echoes.
    if (this.record.failures.length >= LIMITS.failures) this.countDropped('failures');
    else this.record.failures.push({ ...failure });
    this.touch(false);
  }

  startTiming(category: string): string {
    const id = `t${this.nextTiming++}`;
    if (this.finished) return id;
    if (this.record.timings.length >= LIMITS.timings) this.countDropped('timings');
    else this.record.timings.push({ interval_id: id, category, started_at: new Date().toISOString() });
    this.touch(false);
    return id;
  }

  finishTiming(id: string): void {
    if (this.finished) return;
    const timing = this.record.timings.find((t) => t.interval_id === id);
    if (timing === undefined || timing.finished_at !== undefined) return;
    timing.finished_at = new Date().toISOString();
    this.touch(false);
  }

  startWait(wait: WaitStart): string {
    const id = `w${this.nextWait++}`;
    if (this.finished) return id;
    const entry: WaitEntry = {
      id,
      state: 'waiting',
      reason: wait.reason,
      started_at: new Date().toISOString(),
      next: wait.next,
    };
    if (wait.capacity !== undefined) entry.capacity = wait.capacity;
    if (wait.in_use !== undefined) entry.in_use = wait.in_use;
    if (this.record.waits.length >= LIMITS.waits) this.countDropped('waits');
    else this.record.waits.push(entry);
    this.touch(false);
    return id;
  }

  updateWait(id: string, patch: Partial<WaitStart>): void {
    if (this.finished) return;
    const wait = this.record.waits.find((w) => w.id === id);
    if (wait === undefined) return;
    if (patch.reason !== undefined) wait.reason = patch.reason;
    if (patch.next !== undefined) wait.next = patch.next;
    if (patch.capacity !== undefined) wait.capacity = patch.capacity;
    if (patch.in_use !== undefined) wait.in_use = patch.in_use;
    this.touch(false);
  }

  finishWait(id: string): void {
    if (this.finished) return;
    const wait = this.record.waits.find((w) => w.id === id);
    if (wait === undefined || wait.state === 'done') return;
    wait.state = 'done';
    wait.finished_at = new Date().toISOString();
    this.touch(false);
  }

  /** An await's watch as it stands: written at once, so a reader always has the latest continuation. */
  setWatch(watch: WatchEntry): void {
    if (this.finished) return;
    this.record.watch = structuredClone(watch);
    this.touch(true);
  }

  /**
   * Output files moved (an integration worktree's, kept in the common dir before the worktree goes): producers'
   * output paths under `from` now name the same file under `to`.
   */
  relocateOutputs(from: string, to: string): void {
    if (this.finished) return;
    for (const entry of Object.values(this.record.producers)) {
      const path = entry.output_path;
      if (path !== undefined && (path === from || path.startsWith(`${from}/`)))
        entry.output_path = `${to}${path.slice(from.length)}`;
    }
    this.touch(true);
  }

  step(event: StepEvent): void {
    if (this.finished) return;
    if (this.record.steps.length >= LIMITS.steps) this.countDropped('steps');
    else this.record.steps.push({ ...event });
    this.touch(false);
  }

  /** Recorded at once: if discern is killed right after starting the job, a later run can still reap it. */
  addPgid(pgid: number): void {
    if (this.finished || this.record.pgids.includes(pgid)) return;
    this.record.pgids.push(pgid);
    this.touch(true);
  }

  removePgid(pgid: number): void {
    if (this.finished) return;
    const index = this.record.pgids.indexOf(pgid);
    if (index < 0) return;
    this.record.pgids.splice(index, 1);
    this.touch(false);
  }

  /**
   * Records the end and writes it at once. A result whose JSON exceeds 256 KiB is written whole to
   * `<handle>.result.json` first (so the record never names a file that is not there yet) and the record
   * keeps a reduced envelope. Later calls to any mutator are ignored.
   */
  finish(options: FinishOptions): Promise<void> {
    // A second call (a cancel racing the normal end) waits for the first instead of recording twice.
    this.finishing ??= this.finishOnce(options);
    return this.finishing;
  }

  private async finishOnce(options: FinishOptions): Promise<void> {
    const now = new Date().toISOString();
    if (options.result !== undefined) await this.storeResult(options.result);
    this.record.account = [...(options.account ?? [])];
    this.record.outcome = options.outcome;
    this.record.finished_at = now;
    this.record.last_activity_at = now;
    this.finished = true;
    this.dirty = true;
    this.kick();
    await this.flush();
  }

  /** Resolves once everything changed so far is on disk (or its write failed: see lastWriteError). */
  async flush(): Promise<void> {
    while (this.dirty || this.inFlight !== undefined) {
      if (this.inFlight === undefined) this.kick();
      await this.inFlight;
    }
  }

  private async storeResult(result: unknown): Promise<void> {
    const measured = measureResult(result);
    if (!measured.ok) {
      this.record.result = {
        omitted: [{ path: '', kind: 'object', size: 0 }],
        original_bytes: 0,
        unserializable: measured.message,
      };
      this.record.result_truncated = true;
      return;
    }
    if (measured.bytes <= RESULT_INLINE_LIMIT) {
      // Stored as parsed from its own JSON: the record holds exactly what a reader would have received.
      this.record.result = JSON.parse(measured.json) as unknown;
      return;
    }
    const path = join(dirname(this.recordPath), resultFileName(this.handle));
    this.record.result = reduceResult(result, measured.bytes);
    this.record.result_truncated = true;
    try {
      await writeFileAtomic(path, measured.json);
      this.record.result_path = path;
    } catch (error) {
      this.lastWriteError = error;
    }
  }

  private countDropped(list: keyof DroppedCounts): void {
    const dropped = (this.record.dropped ??= {});
    dropped[list] = (dropped[list] ?? 0) + 1;
  }

  private touch(immediate: boolean): void {
    this.record.last_activity_at = new Date().toISOString();
    this.dirty = true;
    if (immediate) this.kick();
    else this.schedule();
  }

  /** A throttled write: now if the last one is old enough, else when it will be. */
  private schedule(): void {
    if (this.timer !== undefined || this.inFlight !== undefined) return;
    const wait = this.lastWriteAt + THROTTLE_MS - Date.now();
    if (wait <= 0) {
      this.kick();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.kick();
    }, wait);
  }

  /** Writes now, or right after the write in flight. */
  private kick(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.inFlight !== undefined) {
      this.urgent = true;
      return;
    }
    this.inFlight = this.writeOnce().finally(() => {
      this.inFlight = undefined;
      const urgent = this.urgent;
      this.urgent = false;
      if (!this.dirty) return;
      if (urgent) this.kick();
      else this.schedule();
    });
  }

  private async writeOnce(): Promise<void> {
    this.dirty = false;
    this.writeCount += 1;
    this.lastWriteAt = Date.now();
    const text = serialize(this.record);
    try {
      await writeFileAtomic(this.recordPath, text);
      this.lastWriteError = undefined;
    } catch (error) {
      this.lastWriteError = error;
    }
  }
}

function serialize(record: OperationRecord): string {
  return `${JSON.stringify(record)}\n`;
}
