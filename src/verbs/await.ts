// await: block until one condition holds — a sibling is green, an effort has landed, the trunk moved — within
// the call budget the client allows. Truth comes from git and the sibling's Proof; file-system events on the
// refs and Proof files only wake the waiter (with a slow poll as fallback), so a long wait costs almost no
// CPU. A budget that runs out is a normal result with a C1 continuation; a cancel ends it with no effect.
import { join } from 'node:path';
import type { AwaitOutcome } from '../../generated/handlers.js';
import { CLIENT_PROFILES } from '../../generated/mcp-table.js';
import { VERBS } from '../../generated/registry.js';
import { VERSION } from '../../generated/version.js';
import type { DiscernAwaitData, DiscernAwaitInput } from '../../generated/types.js';
import { listEfforts, selectEffort, type Effort } from '../engine/acceptance/efforts.js';
import { acceptancePaths, submissions } from '../engine/acceptance/records.js';
import { branchTip } from '../engine/await/branch-tip.js';
import {
  readContinuation,
  removeContinuation,
  saveContinuation,
  type Continuation,
} from '../engine/await/continuations.js';
import { ChangeWaker } from '../engine/await/wake.js';
import { configIdentity } from '../engine/gate/canonical-json.js';
import { markerIsCurrent, readProofMarker } from '../engine/gate/proof-records.js';
import { declarationsCurrent } from '../engine/checkpoints/store.js';
import { git } from '../engine/git/git.js';
import { readWorkingState } from '../engine/git/porcelain-status.js';
import { readExceptionNote } from '../engine/notes/exception-note.js';
import { parseHandle } from '../engine/state/handles.js';
import type { LiveEvent } from '../engine/live/live-events.js';
import type { ProjectVerbContext } from './context.js';
import { buildEnvelope } from '../core/envelope.js';
import { openJournal, statePathsOf, type Journal } from './gate-session.js';

/** Without change events (some network file systems) a wait still re-checks this often. */
const POLL_MS = 2000;
const HEARTBEAT_MS = 15_000;

type Condition = DiscernAwaitData['condition'];

interface Watch {
  condition: Condition;
  target?: string;
  effort?: Effort;
  branch?: string;
  trunk: string;
  trunkStart: string;
  lastTip?: string;
  handle?: string;
}

export async function awaitCondition(input: DiscernAwaitInput, ctx: ProjectVerbContext): Promise<AwaitOutcome> {
  const { project } = ctx;
  const mcp = ctx.surface === 'mcp';
  const help = mcp ? 'the inputSchema of discern_await in tools/list' : '`discern help await`';
  const chosen = [
    input.green !== undefined,
    input.landed !== undefined,
    input.trunk_moved === true,
    input.resume !== undefined,
  ].filter(Boolean).length;
  if (chosen !== 1)
    return {
      refusal: {
        error: 'invalid_value',
        message: `await watches exactly one condition: give one of green, landed, trunk_moved or resume (${chosen === 0 ? 'none was given' : `${chosen} were given`}).`,
        next: { help },
      },
    };

  const budget = callBudget(ctx, input.timeout);
  const run = { cwd: project.root, env: ctx.env };
  const commonDir = project.commonDir;
  const trunk = project.trunk.name;
  const { efforts } = await listEfforts(project.root, ctx.env);

  let watch: Watch;
  if (input.resume !== undefined) {
    const parsed = parseHandle(input.resume, 'C1');
    if (!parsed.ok) return { refusal: { error: 'invalid_value', message: parsed.message, next: { help } } };
    const saved = await readContinuation(commonDir, parsed.handle);
    if (saved === undefined)
      return {
        refusal: {
          error: 'unknown_target',
          message: `${parsed.handle} is not a continuation here (they are kept 7 days, in the repository that issued them).`,
          next: { list: mcp ? 'discern_await with the condition itself' : 'discern await --help' },
        },
      };
    watch = fromContinuation(saved, efforts);
  } else if (input.trunk_moved === true) {
    const start = await branchTip(commonDir, trunk, run);
    if (start === undefined)
      return {
        refusal: {
          error: 'unknown_target',
          message: `The trunk ${trunk} has no commit to watch.`,
          next: { list: mcp ? 'discern_status' : 'discern status' },
        },
      };
    watch = { condition: 'trunk-moved', trunk, trunkStart: start };
  } else {
    const target = (input.green ?? input.landed) as string;
    const condition: Condition = input.green !== undefined ? 'green' : 'landed';
    const match = selectEffort(efforts, target);
    const effort = 'effort' in match ? match.effort : undefined;
    if ('ambiguous' in match)
      return {
        refusal: {
          error: 'invalid_value',
          message: `"${target}" matches ${match.ambiguous.length} efforts (${match.ambiguous.map((e) => e.id).join(', ')}): name one by id.`,
          next: { help },
        },
      };
    // A landed effort's worktree and branch may be gone already: a branch name still answers through its tip.
    const branch = effort?.branch ?? target.replace(/^refs\/heads\//, '');
    const tip = await branchTip(commonDir, branch, run);
    if (effort === undefined && (condition === 'green' || tip === undefined)) {
      return {
        refusal: {
          error: 'unknown_target',
          message: `"${target}" names no effort${condition === 'landed' ? ' or branch' : ' with a checkout'} here.${efforts.length > 0 ? ` Efforts: ${efforts.map((e) => e.id).join(', ')}.` : ''}`,
          next: { list: mcp ? 'discern_status' : 'discern status' },
        },
      };
    }
    watch = {
      condition,
      target,
      ...(effort ? { effort } : {}),
      branch,
      trunk,
      trunkStart: (await branchTip(commonDir, trunk, run)) ?? '',
      ...(tip ? { lastTip: tip } : {}),
    };
  }

  // The call's progress record: its watch and the continuation that keeps the same watch are written before
  // the first check, so a call that is cut off can be continued rather than rebuilt from observed state. A call
  // with no budget (a poll) saves one only if it ends unmet, as before; one this call made and no one will be
  // handed (the watch was met) is removed again, so the 512 kept are those handed out or cut off.
  const premade = watch.handle === undefined && budget.seconds > 0;
  if (premade) {
    const saved = await saveContinuation(commonDir, continuationOf(watch)).catch(() => undefined);
    if (saved) watch.handle = saved.handle;
  }
  const journal = await openAwaitJournal(watch, ctx);
  const record = (observed: DiscernAwaitData['observed'], met?: boolean): void =>
    journal?.writer.setWatch({
      condition: watch.condition,
      ...(watch.target ? { target: watch.target } : {}),
      ...(watch.branch ? { branch: watch.branch } : {}),
      trunk: watch.trunk,
      observed,
      ...(met !== undefined ? { met } : {}),
      ...(watch.handle ? { continuation: watch.handle } : {}),
    });
  record({ trunk_start: watch.trunkStart });
  let outcome: AwaitOutcome | undefined;
  try {
    outcome = await watchUntil(watch, input, ctx, budget, record);
    return journal ? withHandle(outcome, journal.handle) : outcome;
  } finally {
    const ended = outcome?.data as DiscernAwaitData | undefined;
    if (premade && watch.handle !== undefined && ended !== undefined && ended.resume === undefined) {
      await removeContinuation(commonDir, watch.handle);
      delete watch.handle;
    }
    if (journal) {
      const state =
        outcome === undefined || ctx.signal.aborted ? 'cancelled' : outcome.refusal ? 'failed' : 'completed';
      const data = outcome?.data as DiscernAwaitData | undefined;
      if (data) record(data.observed, data.met);
      const account = [
        data === undefined
          ? 'The watch stopped before it finished.'
          : data.met
            ? `${describe(watch)}: met after ${Math.round(data.elapsed_ms / 1000)} s.`
            : `${describe(watch)}: not met within ${data.timeout_s} s${data.resume ? `; continue with ${data.resume}` : ''}.`,
      ];
      journal.writer.setProgress({
        phase: 'finished',
        state,
        reason: account[0] ?? state,
        next: data?.resume ? `continue the same watch with ${data.resume}` : 'nothing: the call has ended',
        owner_must_act: false,
      });
      await journal.finish({
        outcome: state,
        ...(outcome
          ? {
              result: buildEnvelope({ verb: 'await', policy: VERBS.await.policy }, withHandle(outcome, journal.handle)),
            }
          : {}),
        account,
      });
    }
  }
}

/** Opens the call's record and announces its handle; a store that cannot be written leaves the wait unrecorded. */
async function openAwaitJournal(watch: Watch, ctx: ProjectVerbContext): Promise<Journal | undefined> {
  const { project } = ctx;
  const head = await git(['symbolic-ref', '--short', '-q', 'HEAD'], { cwd: project.root, env: ctx.env });
  const branch = head.code === 0 ? head.stdout.trim() : null;
  const journal = await openJournal(statePathsOf(project), 'await', project, branch, ctx.surface).catch(
    () => undefined,
  );
  if (journal) {
    const message = `${journal.handle} — read it back with ${journal.readBack}`;
    journal.writer.setProgress({
      phase: 'watching',
      state: 'waiting',
      reason: `waiting for ${describe(watch)}`,
      next: `read it back with ${journal.readBack}`,
      owner_must_act: false,
    });
    ctx.progress?.({ message, completed: 0, durable: true, events: [{ kind: 'phase', phase: 'announce', message }] });
  }
  return journal;
}

function withHandle(outcome: AwaitOutcome, handle: string): AwaitOutcome {
  return outcome.data ? { ...outcome, data: { handle, ...outcome.data } } : outcome;
}

async function watchUntil(
  watch: Watch,
  input: DiscernAwaitInput,
  ctx: ProjectVerbContext,
  budget: { seconds: number; basis: string },
  record: (observed: DiscernAwaitData['observed']) => void,
): Promise<AwaitOutcome> {
  const { project } = ctx;
  const mcp = ctx.surface === 'mcp';
  const commonDir = project.commonDir;
  const started = Date.now();
  const deadline = started + budget.seconds * 1000;
  const stop = new AbortController();
  const onAbort = (): void => stop.abort();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => stop.abort(), Math.max(0, deadline - Date.now()));
  let beats = 0;
  const what = describe(watch);
  const watchEvent = (): LiveEvent => ({ kind: 'watch', what, elapsedMs: Date.now() - started });
  // A terminal view shows the watch at once (quiet: an MCP client hears only the heartbeats, as before).
  ctx.progress?.({ message: `waiting for ${what}`, completed: 0, events: [watchEvent()], quiet: true });
  const heartbeat = setInterval(
    () =>
      ctx.progress?.({
        message: `waiting for ${what} (${Math.round((Date.now() - started) / 1000)} s)`,
        completed: ++beats,
        events: [watchEvent()],
      }),
    HEARTBEAT_MS,
  );
  // Watching starts before the first check, so a change during a check is not missed.
  const waker = new ChangeWaker(wakeDirs(watch, commonDir));
  try {
    for (;;) {
      waker.arm();
      const observed = await check(watch, project, ctx);
      record(observed.facts);
      if (observed.met) {
        const commit = observed.commit;
        const hint = commit
          ? (mcp ? VERBS.await.hints.met_commit_mcp : VERBS.await.hints.met_commit).replaceAll(
              '{commit}',
              commit.slice(0, 12),
            )
          : undefined;
        return {
          data: result(watch, true, started, budget, input.timeout, observed.facts),
          ...(hint ? { hints: [hint] } : {}),
        };
      }
      if (observed.final === true) {
        return {
          data: result(watch, false, started, budget, input.timeout, observed.facts),
          hints: [VERBS.await.hints.never_green.replace('{landing_id}', observed.facts.exception?.landing_id ?? '')],
        };
      }
      if (stop.signal.aborted || budget.seconds === 0) {
        const saved = await saveContinuation(commonDir, continuationOf(watch), ...(watch.handle ? [watch.handle] : []));
        const cancelled = ctx.signal.aborted;
        const data = {
          ...result(watch, false, started, budget, input.timeout, observed.facts),
          resume: saved.handle,
          ...(cancelled ? { cancelled: true } : {}),
        };
        return {
          data,
          hints: [
            VERBS.await.hints.expired
              .replace('{seconds}', String(Math.round((Date.now() - started) / 1000)))
              .replace('{handle}', saved.handle),
          ],
        };
      }
      await waker.wait(POLL_MS, stop.signal);
    }
  } finally {
    waker.close();
    clearTimeout(timer);
    clearInterval(heartbeat);
    ctx.signal.removeEventListener('abort', onAbort);
  }
}

function describe(w: Watch): string {
  if (w.condition === 'trunk-moved') return `${w.trunk} to move`;
  return `${w.effort?.id ?? w.branch ?? w.target} to ${w.condition === 'green' ? 'be green' : 'land'}`;
}

function callBudget(ctx: ProjectVerbContext, requested: number | undefined): { seconds: number; basis: string } {
  const client = ctx.surface === 'cli' ? undefined : (ctx.client ?? '').toLowerCase();
  const profileName =
    client === undefined ? CLIENT_PROFILES.cli : (CLIENT_PROFILES.clients[client] ?? CLIENT_PROFILES.unknown);
  const profile = CLIENT_PROFILES.profiles[profileName];
  const allowed = profile?.call_budget_s ?? 45;
  const who = client === undefined ? 'the CLI' : client === '' ? 'an unnamed client' : `client "${client}"`;
  const basis = `${who}: ${profileName} profile (${allowed} s)`;
  if (requested !== undefined && requested < allowed)
    return { seconds: requested, basis: `timeout ${requested} s (within ${basis})` };
  return { seconds: allowed, basis };
}

interface Observed {
  met: boolean;
  /** The condition can no longer hold (a sibling landed by exception will never be green): answer now. */
  final?: boolean;
  commit?: string;
  facts: DiscernAwaitData['observed'];
}

async function check(w: Watch, project: ProjectVerbContext['project'], ctx: ProjectVerbContext): Promise<Observed> {
  const run = { cwd: project.root, env: ctx.env };
  const trunkHead = (await branchTip(project.commonDir, w.trunk, run)) ?? '';
  if (w.condition === 'trunk-moved') {
    return {
      met: trunkHead !== '' && trunkHead !== w.trunkStart,
      commit: trunkHead,
      facts: { trunk_start: w.trunkStart, trunk_head: trunkHead },
    };
  }
  const current = w.branch ? await branchTip(project.commonDir, w.branch, run) : undefined;
  const tip = current ?? w.lastTip;
  if (tip !== undefined) w.lastTip = tip;
  // On the trunk now — and either the branch is gone (landings delete it) or its tip got there during the wait.
  // A branch with no commits of its own sits on the trunk from the start: that is not a landing.
  const onTrunk =
    tip !== undefined &&
    trunkHead !== '' &&
    (await git(['merge-base', '--is-ancestor', tip, trunkHead], run)).code === 0;
  const wasOnTrunk =
    onTrunk &&
    current !== undefined &&
    w.trunkStart !== '' &&
    (await git(['merge-base', '--is-ancestor', tip, w.trunkStart], run)).code === 0;
  const landed = onTrunk && !wasOnTrunk;
  // A landing by emergency exception (docs/decisions/0029) is a landing, but never green: it had no Proof.
  const exception = landed && tip !== undefined ? await readExceptionNote(run, tip) : undefined;
  const base = {
    ...(tip ? { tip } : {}),
    landed,
    trunk_start: w.trunkStart,
    trunk_head: trunkHead,
    ...(exception
      ? { exception: { landing_id: exception.payload.landing_id, commit: exception.payload.subject.commit } }
      : {}),
  };
  if (w.condition === 'green' && exception)
    return { met: false, final: true, facts: { ...base, proof_status: 'exception' } };
  if (w.condition === 'landed' || landed) return { met: landed, ...(landed ? { commit: trunkHead } : {}), facts: base };
  // green: the sibling's own checkout holds current Proof for a clean HEAD.
  const effort = w.effort;
  if (effort === undefined) return { met: false, facts: { ...base, proof_status: 'missing' } };
  const state = await readWorkingState(effort.path, ctx.env).catch(() => undefined);
  if (state === undefined || state.head === null)
    return { met: false, facts: { ...base, proof_status: 'unavailable' } };
  if (state.changed > 0) return { met: false, facts: { ...base, proof_status: 'dirty' } };
  const marker = await readProofMarker(join(effort.gitDir, 'discern', 'gate-proof'), ctx.project.commonDir);
  if (marker.state !== 'present') return { met: false, facts: { ...base, proof_status: 'missing' } };
  const honored =
    marker.marker.mode === 'strict' &&
    markerIsCurrent(marker.marker, state.head, configIdentity(project.config, project.trunk.name), VERSION) &&
    (await declarationsCurrent(marker.marker, effort.gitDir));
  // Its own Proof is green, but this head composed with the trunk failed the gate (accept recorded it): not green.
  const red = honored ? await redComposition(project.commonDir, effort.id, state.head) : undefined;
  if (red !== undefined)
    return { met: false, facts: { ...base, tip: state.head, proof_status: 'red-composition', composition: red } };
  return {
    met: honored,
    ...(honored ? { commit: state.head } : {}),
    facts: { ...base, tip: state.head, proof_status: honored ? 'honored' : 'stale' },
  };
}

async function redComposition(
  commonDir: string,
  effort: string,
  head: string,
): Promise<NonNullable<DiscernAwaitData['observed']['composition']> | undefined> {
  const submission = await submissions.read(acceptancePaths(commonDir), effort).catch(() => undefined);
  const failure = submission?.last_failure;
  if (failure?.head !== head || failure.composed_with === undefined) return undefined;
  return {
    composed_with: failure.composed_with,
    reason: failure.reason,
    ...(failure.handle !== undefined ? { handle: failure.handle } : {}),
  };
}

/** Where a change that matters would show: the trunk's and branch's ref directories, packed-refs, the sibling's git dir and Proof. */
function wakeDirs(w: Watch, commonDir: string): string[] {
  const refDir = (branch: string): string => join(commonDir, 'refs', 'heads', ...branch.split('/').slice(0, -1));
  const dirs = [commonDir, refDir(w.trunk)];
  if (w.branch) dirs.push(refDir(w.branch));
  if (w.effort) dirs.push(w.effort.gitDir, join(w.effort.gitDir, 'discern'));
  return dirs;
}

function result(
  w: Watch,
  met: boolean,
  started: number,
  budget: { seconds: number; basis: string },
  requested: number | undefined,
  observed: DiscernAwaitData['observed'],
): DiscernAwaitData {
  return {
    condition: w.condition,
    ...(w.effort ? { effort: w.effort.id } : {}),
    ...(w.branch ? { branch: w.branch } : {}),
    trunk: w.trunk,
    met,
    elapsed_ms: Date.now() - started,
    timeout_s: budget.seconds,
    timeout_basis: budget.basis,
    ...(requested !== undefined ? { requested_timeout_s: requested } : {}),
    observed,
  };
}

function continuationOf(w: Watch): Omit<Continuation, 'format' | 'handle' | 'created_at'> {
  return {
    condition: w.condition,
    ...(w.target ? { target: w.target } : {}),
    ...(w.effort ? { effort: w.effort.id } : {}),
    ...(w.branch ? { branch: w.branch } : {}),
    trunk: w.trunk,
    trunk_start: w.trunkStart,
    ...(w.lastTip ? { last_tip: w.lastTip } : {}),
  };
}

function fromContinuation(c: Continuation, efforts: readonly Effort[]): Watch {
  const effort = c.effort !== undefined ? efforts.find((e) => e.id === c.effort) : undefined;
  return {
    condition: c.condition,
    ...(c.target ? { target: c.target } : {}),
    ...(effort ? { effort } : {}),
    ...(c.branch ? { branch: c.branch } : {}),
    trunk: c.trunk,
    trunkStart: c.trunk_start,
    ...(c.last_tip ? { lastTip: c.last_tip } : {}),
    handle: c.handle,
  };
}
