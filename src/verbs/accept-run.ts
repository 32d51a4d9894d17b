// An accept call's run: its R1 progress handle, its journal record and the caller's live channel. The record is
// opened when the call first does work — its effort's gate, or the landing — so a dry run, a refusal before any
// gate, a queue-only call and an emergency announce none (the reference's list). Everything the landing does
// after that reports here: the integration worktree's copies, ensure and setup commands, the composed gate
// (done runs inside this record rather than opening its own), the trunk's move and the ensure after it.
//
// The record names the main checkout as its surviving root: a landing removes the worktree the call may have
// come from, and the run is then read back from the checkout that is left (progress.ts, readableFrom).
import type { AcceptOutcome } from '../../generated/handlers.js';
import { VERBS } from '../../generated/registry.js';
import { buildEnvelope } from '../core/envelope.js';
import { fanOut, type GateEvent, type GateListener } from '../engine/gate/events.js';
import { journalListener } from '../engine/gate/journal-listener.js';
import { liveSummary } from '../engine/gate/live-summary.js';
import { makeSparesInBackground, type SpareOrder } from '../engine/efforts/warm/spare-background.js';
import type { ProjectVerbContext, SharedOperation } from './context.js';
import { openJournal, statePathsOf, type Journal } from './gate-session.js';

export class AcceptRun {
  private journal: Journal | undefined;
  private opening: Promise<void> | undefined;
  private readonly live: GateListener | undefined;
  /** The live view, and the journal too once it is open. */
  private events: GateListener;
  private readonly spares: SpareOrder[] = [];

  constructor(
    private readonly ctx: ProjectVerbContext,
    /** The checkout that survives the landing: the main checkout. */
    private readonly root: string,
    /** The selected effort's branch (a walk may land others ahead of it in the same run). */
    private readonly branch: string,
  ) {
    this.live = ctx.progress ? liveSummary([], ctx.progress) : undefined;
    this.events = fanOut(this.live);
  }

  /** Opens the record and announces its handle, once; a journal that cannot be written leaves the run unrecorded. */
  open(): Promise<void> {
    this.opening ??= (async () => {
      try {
        const { ctx } = this;
        const journal = await openJournal(statePathsOf(ctx.project), 'accept', ctx.project, this.branch, ctx.surface, {
          root: this.root,
        });
        this.journal = journal;
        this.events = fanOut(journalListener(journal.writer, journal.readBack), this.live);
        this.tell({
          type: 'phase',
          phase: 'announce',
          message: `${journal.handle} — read it back with ${journal.readBack}`,
        });
      } catch {
        // The journal is advisory: the landing still happens, it just cannot be read back.
      }
    })();
    return this.opening;
  }

  get handle(): string | undefined {
    return this.journal?.handle;
  }

  /** The record lent to a verb that runs inside this one (the gate), once it is open. */
  get shared(): SharedOperation | undefined {
    const j = this.journal;
    return j ? { writer: j.writer, handle: j.handle, readBack: j.readBack } : undefined;
  }

  /** Where events go: the journal once it is open, and the caller's live view. */
  readonly listener: GateListener = (event) => this.tell(event);

  phase(phase: string, message: string): void {
    this.tell({ type: 'phase', phase, message });
  }

  /** Spares to make once the call has its answer: made during the landing they would slow its gate. */
  afterward(order: SpareOrder): void {
    this.spares.push(order);
  }

  /** A kept output directory moved: the record's output paths follow it. */
  relocate(from: string, to: string): void {
    this.journal?.writer.relocateOutputs(from, to);
  }

  /** Records the end with the call's result, and puts the handle in it; never throws. */
  async finish(outcome: AcceptOutcome | undefined): Promise<AcceptOutcome | undefined> {
    if (!this.ctx.signal.aborted)
      for (const order of this.spares.splice(0)) makeSparesInBackground(order, this.ctx.env);
    await this.opening;
    const journal = this.journal;
    if (journal === undefined) return outcome;
    const state =
      outcome === undefined || this.ctx.signal.aborted
        ? 'cancelled'
        : outcome.refusal === undefined
          ? 'completed'
          : 'failed';
    const account = accountOf(outcome);
    this.tell({ type: 'phase', phase: 'finished', state, message: account[0] ?? state });
    const withHandle = outcome === undefined ? undefined : handled(outcome, journal.handle);
    await journal.finish({
      outcome: state,
      ...(withHandle ? { result: buildEnvelope({ verb: 'accept', policy: VERBS.accept.policy }, withHandle) } : {}),
      account,
    });
    return withHandle;
  }

  private tell(event: GateEvent): void {
    this.events(event);
  }
}

function handled(outcome: AcceptOutcome, handle: string): AcceptOutcome {
  const data = outcome.data;
  if (data !== undefined && 'issues' in data) return outcome;
  return { ...outcome, data: { handle, ...data } } as AcceptOutcome;
}

function accountOf(outcome: AcceptOutcome | undefined): string[] {
  if (outcome === undefined) return ['The acceptance stopped before it finished.'];
  if (outcome.refusal) return [outcome.refusal.message];
  const data = outcome.data;
  const line = data !== undefined && !('issues' in data) ? data.proof_line : undefined;
  return [line ?? 'The acceptance finished.'];
}
