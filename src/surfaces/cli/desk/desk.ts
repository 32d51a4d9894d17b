// The desk's executor: reads the first snapshot (a repository status cannot read gets status's own result back,
// not a desk), takes the repository's desk lock, opens the terminal, and then turns events — keys, file
// changes, the poll, a resize — into the pure model's steps, carrying out the effects they ask for. Every way
// out gives the terminal back and frees the lock: q or Ctrl-C (exit 0), a signal (129, 130, 143), a crash.
import { nextAction } from '../../../core/next-action.js';
import { faultRequested } from '../../../engine/faults.js';
import { findCheckout } from '../../../engine/project/resolve.js';
import type { DiscernResult } from '../../../../generated/types.js';
import { invoke, type InvokeOptions } from '../../../verbs/invoke.js';
import { EXIT } from '../exit-codes.js';
import { releaseSignals } from '../signals.js';
import { decodeKeys } from './keys.js';
import { layout } from './layout.js';
import { takeDeskLock } from './lock.js';
import { initialState, onKey, onOperation, onProblem, onSnapshot, type DeskState, type Effect } from './model.js';
import { deskSources } from './sources.js';
import { DEFAULT_PRESENTATION, type Presentation } from '../../../render/terminal/options.js';
import { deskColor, openTerminal } from './terminal.js';
import { glyphsFor } from './text.js';
import { watchRepository } from './watch.js';

/** Waits this long after the last file event, so one git command's burst of writes is one refresh. */
const DEBOUNCE_MS = 150;
/** The fallback for events fs.watch misses, and what keeps elapsed times moving. */
const POLL_MS = 2000;
/** The least time between two refreshes, whatever asks for them. */
const MIN_GAP_MS = 250;

export type DeskOutcome = { kind: 'exit'; code: number } | { kind: 'result'; result: DiscernResult };

const SIGNALS = ['SIGINT', 'SIGHUP', 'SIGTERM'] as const;

/** `presentation`: --no-color and --plain turn the tones off, --plain draws ASCII glyphs whatever the locale. */
export async function openDesk(
  common: InvokeOptions,
  presentation: Presentation = DEFAULT_PRESENTATION,
): Promise<DeskOutcome> {
  const found = await findCheckout(common.defaultTarget, common.env, common.signal);
  const commonDir = found.ok ? found.checkout.commonDir : undefined;
  // The status read that refuses (no repository, no project, a broken discern.toml) answers as status would.
  if (commonDir === undefined) return { kind: 'result', result: await invoke('status', {}, common) };
  const sources = deskSources(common, commonDir);
  const first = await sources.snapshot();
  if (!first.ok) return { kind: 'result', result: first.result };

  const lock = takeDeskLock(commonDir, first.snapshot.root);
  if (!lock.ok) {
    const who = lock.pid === undefined ? 'another process' : `pid ${lock.pid}`;
    process.stderr.write(
      `discern: desk_already_active: a desk is already open for this repository (${who}${lock.since ? `, since ${lock.since}` : ''}).\n` +
        `discern: ${nextAction('desk_already_active', { pid: lock.pid === undefined ? 'unknown' : String(lock.pid) })}\n`,
    );
    return { kind: 'exit', code: EXIT.failure };
  }
  // A crash ends the process without reaching finish(): the lock goes with it (the 'exit' event still runs).
  process.once('exit', lock.release);

  const stdin = process.stdin;
  const stdout = process.stdout;
  const terminal = openTerminal(stdin, stdout, deskColor(presentation, common.env));
  const glyphs = glyphsFor(common.env, presentation.plain);
  let state: DeskState = initialState(first.snapshot);
  const draw = (): void => terminal.draw(layout(state, { ...terminal.size(), glyphs, now: Date.now() }));

  return new Promise<DeskOutcome>((resolve) => {
    let finished = false;
    const finish = (code: number, after?: string): void => {
      if (finished) return;
      finished = true;
      watcher.close();
      stdin.removeListener('data', onData);
      stdin.removeListener('end', onEnd);
      stdout.removeListener('resize', draw);
      for (const [signal, handler] of handlers) process.removeListener(signal, handler);
      terminal.restore();
      lock.release();
      process.removeListener('exit', lock.release);
      if (after !== undefined) process.stderr.write(after);
      resolve({ kind: 'exit', code });
    };

    // Refreshes never overlap: one asked for while another runs happens once it ends, and not sooner than
    // MIN_GAP_MS after it, so no burst of events (or a watcher set off by the read itself) becomes a loop.
    let running = false;
    let again = false;
    let lastDone = 0;
    const refresh = (): void => {
      if (finished) return;
      if (running) {
        again = true;
        return;
      }
      const wait = lastDone + MIN_GAP_MS - Date.now();
      if (wait > 0) {
        running = true;
        setTimeout(() => {
          // The delayed read answers every request made while it waited.
          running = false;
          again = false;
          refresh();
        }, wait);
        return;
      }
      running = true;
      sources
        .snapshot()
        .then(
          (read) => {
            if (read.ok) apply(onSnapshot(state, read.snapshot));
            else state = onProblem(state, read.result.message ?? 'discern status did not answer.');
          },
          (error: unknown) => {
            state = onProblem(state, error instanceof Error ? error.message : String(error));
          },
        )
        .finally(() => {
          running = false;
          lastDone = Date.now();
          if (finished) return;
          watcher.reconcile();
          draw();
          if (again) {
            again = false;
            refresh();
          }
        });
    };

    const apply = (step: { state: DeskState; effects: Effect[] }): void => {
      state = step.state;
      for (const effect of step.effects) {
        if (effect.kind === 'quit') finish(EXIT.ok);
        else if (effect.kind === 'refresh') refresh();
        else {
          void sources.operation(effect.handle, effect.checkout).then(
            (details) => {
              state = onOperation(state, effect.handle, details);
              draw();
            },
            (error: unknown) => {
              state = onOperation(state, effect.handle, {
                kind: 'failed',
                message: error instanceof Error ? error.message : String(error),
              });
              draw();
            },
          );
        }
      }
    };

    const onData = (chunk: string | Buffer): void => {
      if (faultRequested(common.env, 'desk:key')) throw new Error('fault injected at desk:key (DISCERN_FAULT)');
      for (const key of decodeKeys(typeof chunk === 'string' ? chunk : chunk.toString('utf8'))) {
        apply(onKey(state, key));
        if (finished) return;
      }
      draw();
    };
    // The terminal closed its input: there is nobody left to read the desk.
    const onEnd = (): void => finish(EXIT.ok);

    const watcher = watchRepository(commonDir, refresh, { debounceMs: DEBOUNCE_MS, pollMs: POLL_MS });
    // The desk handles its own signals: it must give the terminal back before saying anything on stderr.
    releaseSignals();
    const handlers = SIGNALS.map((signal) => {
      const handler = (): void => finish(EXIT[signal], `discern: desk interrupted by ${signal}\n`);
      process.on(signal, handler);
      return [signal, handler] as const;
    });
    stdin.setEncoding('utf8');
    stdin.on('data', onData);
    stdin.on('end', onEnd);
    stdin.resume();
    stdout.on('resize', draw);
    draw();
  });
}
