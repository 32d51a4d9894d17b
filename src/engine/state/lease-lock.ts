// An exclusive lock file with a lease, shared by discern processes that meet in git's admin directories.
//
// The file is one JSON document: {token, pid, hostname, acquired_at, renewed_at, expires_at, ...holder}. A
// fresh claim is created only-if-absent (the complete temp file is hard-linked to the lock path, so it appears
// whole; see atomic-write.ts). A claim is stale when its holder is provably gone (same machine and pid
// namespace, pid no longer running) or when its lease has expired; a stale claim may be taken over.
//
// Why takeover is race-free. Every claim has an identity: its random token (or, for an unparseable file,
// its inode number). The invariant is:
//
//   While the lock path holds the claim with identity X, only the process that holds the guard file
//   `<path>.takeover-<X>` may change or remove it.
//
// Creation cannot change a claim (it only succeeds on an empty path). A takeover of X, a renewal of X and a
// release of X all first create the guard for X only-if-absent, then re-read the lock path under the guard and
// act only if it still holds X (and, for a takeover, X is still stale); a takeover replaces the file with
// rename(), so the path is never empty in between and no creator can slip in. Of N processes racing to take
// over the same stale claim exactly one creates the guard; the others wait for it to go, then see a new
// identity at the path and report it as held. A latecomer that creates the guard after the winner removed it
// re-reads, finds another identity and backs off, so a guard named by a dead identity never decides anything.
// Guard names never repeat (tokens are 16 random bytes from a per-process generator seeded by the OS), so there is no ABA.
//
// A guard is itself a claim with a short lease, held for a few system calls. If its creator died holding it,
// the guard is stale and is taken over by the same procedure one level down (`…takeover-<X>.takeover-<G>`),
// up to a small depth. The residual risk is the one every lease carries: a process frozen for longer than a
// lease (stopped, swapped out) acts on stale knowledge when it resumes. Keep leases generous and renew them.
import { randomHex } from './random.js';
import { fstatSync, openSync, closeSync, readFileSync, unlinkSync } from 'node:fs';
import { threadId } from 'node:worker_threads';
import { createFileExclusiveSync, errorCode, writeFileAtomicSync } from './atomic-write.js';
import { holderState, localIdentity } from './process-alive.js';

/** The lock file's content, as written by its holder. */
export interface HolderInfo {
  token: string;
  pid: number;
  hostname: string;
  acquired_at: string;
  renewed_at: string;
  expires_at: string;
  [key: string]: unknown;
}

export interface LeaseOptions {
  /** How long the claim stays valid without renewal. */
  leaseMs: number;
  /** Extra facts for whoever finds the lock held (verb, checkout, …); cannot override the fields above. */
  holder?: Record<string, unknown>;
}

/** `held` is null when the lock file exists but cannot be read as a claim (being written, or damaged). */
export type AcquireResult = { acquired: Lease } | { held: HolderInfo | null };

/** A held guard lives for a few system calls; this long means its creator is stuck or gone. */
const GUARD_LEASE_MS = 30_000;
/** A lock file that does not parse is young only while an O_EXCL fallback writer is still filling it. */
const MALFORMED_GRACE_MS = 5_000;
/** How deep guards of guards go before we report the lock as busy rather than recurse further. */
const MAX_GUARD_DEPTH = 3;
/** How long to wait for someone else's guard (it is released within microseconds normally). */
const GUARD_WAIT_MS = 250;
const MAX_ATTEMPTS = 8;
/** Lock files skip fsync: a lock means nothing after a reboot, when every holder is gone anyway. */
const NO_FSYNC = { fsync: false } as const;
const RESERVED = new Set([
  'token',
  'pid',
  'hostname',
  'pid_ns',
  'pid_start',
  'thread',
  'acquired_at',
  'renewed_at',
  'expires_at',
]);

/**
 * Tokens this thread currently holds (leases and guards). A claim naming our own pid and thread with a token
 * not in here was left by an earlier process that had the same pid (pids are reused, notably in containers).
 * The set lives on globalThis (one per thread) so that two bundled copies of this module in one process still
 * agree on what the process holds; otherwise each copy would judge the other's claims stale.
 */
const ownTokens: Set<string> = ((globalThis as Record<symbol, unknown>)[Symbol.for('discern.lease-lock.own-tokens')] ??=
  new Set<string>()) as Set<string>;

export class Lease {
  private current: HolderInfo;
  private state: 'held' | 'lost' | 'released' = 'held';

  constructor(
    readonly path: string,
    info: HolderInfo,
    readonly leaseMs: number,
  ) {
    this.current = info;
  }

  get token(): string {
    return this.current.token;
  }

  /** The claim as last written by us. */
  get info(): HolderInfo {
    return this.current;
  }

  get expiresAtMs(): number {
    return Date.parse(this.current.expires_at);
  }

  /** 'lost' once a renewal found the claim taken over; 'released' after release(). */
  get status(): 'held' | 'lost' | 'released' {
    return this.state;
  }

  /** Extends the lease from now; false when the claim is no longer ours (it was taken over or removed). */
  renew(leaseMs: number = this.leaseMs): boolean {
    if (this.state !== 'held') return false;
    const outcome = withGuard(this.path, this.token, 0, () => {
      const found = readClaim(this.path);
      if (found.kind !== 'claim' || found.identity !== this.token) return false;
      const now = Date.now();
      const next: HolderInfo = { ...this.current, renewed_at: iso(now), expires_at: iso(now + leaseMs) };
      writeFileAtomicSync(this.path, serialize(next), NO_FSYNC);
      this.current = next;
      return true;
    });
    if (outcome === 'busy') {
      // Someone holds our guard: a takeover of our expired claim is under way. Saying "renewed" could leave two
      // owners, saying "not renewed" at worst makes us stop early, so the answer is false (state unchanged: a
      // release may still clean up if the taker backs off).
      return false;
    }
    if (!outcome.value) this.markLost();
    return outcome.value;
  }

  /** Removes the lock file if it is still ours; false when it was not (taken over, or already released). */
  release(): boolean {
    if (this.state !== 'held') return false;
    const outcome = withGuard(this.path, this.token, 0, () => {
      const found = readClaim(this.path);
      if (found.kind !== 'claim' || found.identity !== this.token) return false;
      unlinkQuietly(this.path);
      return true;
    });
    this.state = 'released';
    ownTokens.delete(this.token);
    return outcome !== 'busy' && outcome.value;
  }

  private markLost(): void {
    this.state = 'lost';
    ownTokens.delete(this.token);
  }
}

export function acquireLease(path: string, options: LeaseOptions): AcquireResult {
  if (!(options.leaseMs > 0)) throw new RangeError(`leaseMs must be positive, got ${options.leaseMs}`);
  const token = newToken();
  const extra = Object.fromEntries(Object.entries(options.holder ?? {}).filter(([key]) => !RESERVED.has(key)));
  const make = (): HolderInfo => ({ ...claimBase(token, Date.now(), options.leaseMs), ...extra });
  ownTokens.add(token);
  const outcome = claim(path, make, 0);
  if ('acquired' in outcome) return { acquired: new Lease(path, outcome.acquired, options.leaseMs) };
  ownTokens.delete(token);
  return outcome;
}

/**
 * Renews the lease every `everyMs` on an unref'd timer (it never keeps the process alive). `onLost` runs once
 * if a renewal finds the claim gone. Returns the function that stops renewing.
 */
export function startRenewal(lease: Lease, everyMs: number, onLost?: () => void): () => void {
  const timer = setInterval(() => {
    let renewed: boolean;
    try {
      renewed = lease.renew();
    } catch {
      // A transient file-system error (EMFILE, a slow NFS): try again next tick; the lease has slack.
      return;
    }
    if (!renewed) {
      clearInterval(timer);
      if (lease.status !== 'released') onLost?.();
    }
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** What is at a lock path, without touching it: for reports ("held by pid 123 since …"). */
export function inspectLease(path: string): { state: 'free' } | { state: 'held' | 'stale'; info: HolderInfo | null } {
  const found = readClaim(path);
  if (found.kind === 'missing') return { state: 'free' };
  return { state: isStale(found, Date.now()) ? 'stale' : 'held', info: found.kind === 'claim' ? found.info : null };
}

// ---------------------------------------------------------------------------------------------------------------

type Found =
  | { kind: 'missing' }
  | { kind: 'claim'; identity: string; info: HolderInfo }
  | { kind: 'malformed'; identity: string; mtimeMs: number };

type ClaimOutcome = { acquired: HolderInfo } | { held: HolderInfo | null };

/** Creates the claim at `path`, taking over a stale one; `make` builds our content at the moment of writing. */
function claim(path: string, make: () => HolderInfo, depth: number): ClaimOutcome {
  let found: Found = { kind: 'missing' };
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const ours = make();
    if (createFileExclusiveSync(path, serialize(ours), NO_FSYNC)) return { acquired: ours };
    found = readClaim(path);
    // Released between our create and our read: the path is free again, try to create once more.
    if (found.kind === 'missing') continue;
    if (!isStale(found, Date.now()) || depth >= MAX_GUARD_DEPTH) return { held: heldBy(found) };
    const stale = found;
    const outcome = withGuard(path, stale.identity, depth, () => {
      // Under the guard nobody else can change the claim with this identity: check it is still there and
      // still stale (it may have been renewed, released or taken over since we looked), then replace it.
      const now = readClaim(path);
      if (now.kind === 'missing' || now.identity !== stale.identity || !isStale(now, Date.now())) return null;
      const replacement = make();
      writeFileAtomicSync(path, serialize(replacement), NO_FSYNC);
      return replacement;
    });
    if (outcome !== 'busy' && outcome.value !== null) return { acquired: outcome.value };
    // Busy (another process is taking it over) or changed under us: look again.
  }
  return { held: found.kind === 'missing' ? null : heldBy(found) };
}

/**
 * Runs `action` while holding the guard of the claim `identity` at `path`; 'busy' when another live process
 * holds that guard for longer than we are willing to wait.
 */
function withGuard<T>(path: string, identity: string, depth: number, action: () => T): { value: T } | 'busy' {
  const guardPath = `${path}.takeover-${identity}`;
  const deadline = Date.now() + GUARD_WAIT_MS;
  for (;;) {
    const token = newToken();
    ownTokens.add(token);
    const got = claim(
      guardPath,
      () => ({ ...claimBase(token, Date.now(), GUARD_LEASE_MS), guards: identity }),
      depth + 1,
    );
    if ('acquired' in got) {
      try {
        return { value: action() };
      } finally {
        releaseGuard(guardPath, token);
        ownTokens.delete(token);
      }
    }
    ownTokens.delete(token);
    if (Date.now() >= deadline) return 'busy';
    sleepSync(1 + Math.random() * 4);
  }
}

/**
 * Removes our guard. Checking the token first matters only if we were frozen for longer than the guard's
 * lease and someone took it over; the check-then-unlink window is two system calls wide.
 */
function releaseGuard(guardPath: string, token: string): void {
  const found = readClaim(guardPath);
  if (found.kind === 'claim' && found.identity === token) unlinkQuietly(guardPath);
}

function claimBase(token: string, now: number, leaseMs: number): HolderInfo {
  const local = localIdentity();
  return {
    token,
    pid: process.pid,
    hostname: local.hostname,
    ...(local.pid_ns !== undefined ? { pid_ns: local.pid_ns } : {}),
    ...(local.pid_start !== undefined ? { pid_start: local.pid_start } : {}),
    ...(threadId !== 0 ? { thread: threadId } : {}),
    acquired_at: iso(now),
    renewed_at: iso(now),
    expires_at: iso(now + leaseMs),
  };
}

function isStale(found: Exclude<Found, { kind: 'missing' }>, now: number): boolean {
  if (found.kind === 'malformed') return now - found.mtimeMs > MALFORMED_GRACE_MS;
  const info = found.info;
  const state = holderState(info);
  if (state === 'gone') return true;
  // Our own pid and thread, but a token we do not hold: an earlier process with a recycled pid left it.
  const thread = typeof info['thread'] === 'number' ? info['thread'] : 0;
  if (state === 'running' && info.pid === process.pid && thread === threadId && !ownTokens.has(info.token)) return true;
  // A holder known to be alive keeps its claim even past expiry (stopped, or too busy to renew): taking over
  // would run two gates in one checkout. Expiry decides only when liveness cannot be known (another machine).
  if (state === 'running') return false;
  const expires = Date.parse(info.expires_at);
  return !Number.isFinite(expires) || expires <= now;
}

/**
 * Reads the claim through one descriptor so that the inode (the identity of an unparseable file) and the
 * content come from the same file even if the path is replaced meanwhile.
 */
function readClaim(path: string): Found {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return { kind: 'missing' };
    throw error;
  }
  try {
    const stat = fstatSync(fd, { bigint: true });
    const text = readFileSync(fd, 'utf8');
    const info = parseClaim(text);
    if (info !== undefined) return { kind: 'claim', identity: info.token, info };
    return { kind: 'malformed', identity: `inode-${stat.ino}`, mtimeMs: Number(stat.mtimeMs) };
  } finally {
    closeSync(fd);
  }
}

function parseClaim(text: string): HolderInfo | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  const token = v['token'];
  // The token names a guard file: only plain hex is acceptable there.
  if (typeof token !== 'string' || !/^[0-9a-f]{8,64}$/.test(token)) return undefined;
  if (typeof v['pid'] !== 'number' || typeof v['hostname'] !== 'string' || typeof v['expires_at'] !== 'string')
    return undefined;
  return v as HolderInfo;
}

function heldBy(found: Exclude<Found, { kind: 'missing' }>): HolderInfo | null {
  return found.kind === 'claim' ? found.info : null;
}

function serialize(info: HolderInfo): string {
  return `${JSON.stringify(info)}\n`;
}

function newToken(): string {
  return randomHex(16);
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** A short synchronous pause while another process finishes a guarded step (microseconds to milliseconds). */
function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}
