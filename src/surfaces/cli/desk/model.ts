// The desk's state and what each event does to it, with no terminal and no I/O: a key, a fresh snapshot of the
// repository or a loaded operation gives a new state and the effects the executor must carry out (refresh,
// load an operation's progress, quit). The rows of every section come from the snapshot in the order its
// sources gave them: the fleet and the landing queue exactly as `discern status` lists them.
import type {
  DiscernProgressRecord,
  DiscernQueueRow,
  DiscernStatusFleetRow,
  DiscernUnhonouredRecord,
} from '../../../../generated/types.js';
import type { DeskKey } from './keys.js';

export type SectionId = 'fleet' | 'queue' | 'operations';

/** A journal record of an operation running now (not finished, its process not known to be gone). */
export interface OperationRow {
  handle: string;
  verb: string;
  checkout: string;
  branch: string | null;
  started_at: string;
  phase: string;
  state: string;
  reason: string;
  executor: 'running' | 'gone' | 'unknown';
}

/** The most recent `done` a checkout ran, for a fleet row's details. */
export interface LastGate {
  handle: string;
  started_at: string;
  finished_at?: string;
  outcome?: string;
  reason: string;
}

export interface DeskSnapshot {
  project: string;
  root: string;
  trunk: string;
  fleet: DiscernStatusFleetRow[];
  /** How many worktrees status counts; more than `fleet` holds when its projection left some out. */
  fleetTotal: number;
  queue: DiscernQueueRow[];
  /** Grant and submission files not honoured (no MAC, or one that does not hold), as status lists them. */
  unhonoured?: DiscernUnhonouredRecord[];
  operations: OperationRow[];
  /** By checkout path. */
  lastGates: Readonly<Record<string, LastGate>>;
  /** When it was read (ms since the epoch). */
  readAt: number;
}

export interface Item {
  key: string;
  section: SectionId;
  index: number;
}

/** What an operation's details show: `discern progress <handle>`'s data, or why it could not be read. */
export type OperationDetails =
  { kind: 'loading' } | { kind: 'loaded'; record: DiscernProgressRecord } | { kind: 'failed'; message: string };

/** The open operation: which one, where it runs (progress is read from its checkout), and what was read. */
export interface OpenOperation {
  handle: string;
  checkout: string;
  details: OperationDetails;
}

export type View = { kind: 'list' } | { kind: 'details'; key: string; operation?: OpenOperation };

export interface DeskState {
  snapshot: DeskSnapshot | undefined;
  /** The selected item's key; `cursor` is its index, kept for when that item disappears. */
  selected: string | undefined;
  cursor: number;
  view: View;
  /** Why the last refresh could not read the repository (the screen keeps the previous snapshot). */
  problem: string | undefined;
  quit: boolean;
}

export type Effect =
  { kind: 'refresh' } | { kind: 'quit' } | { kind: 'load-operation'; handle: string; checkout: string };

export interface Step {
  state: DeskState;
  effects: Effect[];
}

export function initialState(snapshot?: DeskSnapshot): DeskState {
  const state: DeskState = {
    snapshot: undefined,
    selected: undefined,
    cursor: 0,
    view: { kind: 'list' },
    problem: undefined,
    quit: false,
  };
  return snapshot === undefined ? state : onSnapshot(state, snapshot).state;
}

/** Every selectable row, section by section, in the order the screen shows them. */
export function items(snapshot: DeskSnapshot | undefined): Item[] {
  if (snapshot === undefined) return [];
  return [
    ...snapshot.fleet.map((row, index) => ({ key: `fleet:${row.path}`, section: 'fleet' as const, index })),
    ...snapshot.queue.map((row, index) => ({
      key: `queue:${row.effort}:${row.submitted_at}`,
      section: 'queue' as const,
      index,
    })),
    ...snapshot.operations.map((row, index) => ({
      key: `operation:${row.handle}`,
      section: 'operations' as const,
      index,
    })),
  ];
}

export function onKey(state: DeskState, key: DeskKey): Step {
  if (key === 'quit') return { state: { ...state, quit: true }, effects: [{ kind: 'quit' }] };
  if (key === 'refresh') return { state, effects: [{ kind: 'refresh' }] };
  if (state.view.kind === 'details') {
    return key === 'back' ? { state: { ...state, view: { kind: 'list' } }, effects: [] } : { state, effects: [] };
  }
  const list = items(state.snapshot);
  if (list.length === 0) return { state, effects: [] };
  if (key === 'enter') return openDetails(state, list);
  const last = list.length - 1;
  const moves: Partial<Record<DeskKey, number>> = {
    up: state.cursor - 1,
    down: state.cursor + 1,
    home: 0,
    end: last,
    'page-up': state.cursor - 10,
    'page-down': state.cursor + 10,
  };
  const target = moves[key];
  if (target === undefined) return { state, effects: [] };
  const cursor = Math.max(0, Math.min(last, target));
  return { state: { ...state, cursor, selected: list[cursor]?.key }, effects: [] };
}

function openDetails(state: DeskState, list: Item[]): Step {
  const item = list[state.cursor];
  if (item === undefined || state.snapshot === undefined) return { state, effects: [] };
  if (item.section !== 'operations')
    return { state: { ...state, view: { kind: 'details', key: item.key } }, effects: [] };
  const operation = state.snapshot.operations[item.index];
  if (operation === undefined) return { state, effects: [] };
  return {
    state: {
      ...state,
      view: {
        kind: 'details',
        key: item.key,
        operation: { handle: operation.handle, checkout: operation.checkout, details: { kind: 'loading' } },
      },
    },
    effects: [{ kind: 'load-operation', handle: operation.handle, checkout: operation.checkout }],
  };
}

/**
 * A fresh snapshot: the selection follows its row (by key) when the row is still there, and otherwise stays at
 * the same position. Open details stay open; an operation's progress is read again.
 */
export function onSnapshot(state: DeskState, snapshot: DeskSnapshot): Step {
  const list = items(snapshot);
  const found = state.selected === undefined ? -1 : list.findIndex((i) => i.key === state.selected);
  const cursor = found >= 0 ? found : Math.max(0, Math.min(list.length - 1, state.cursor));
  const next: DeskState = { ...state, snapshot, problem: undefined, cursor, selected: list[cursor]?.key };
  if (state.view.kind !== 'details' || state.view.operation === undefined) return { state: next, effects: [] };
  const { handle, checkout } = state.view.operation;
  return { state: next, effects: [{ kind: 'load-operation', handle, checkout }] };
}

/** A refresh that could not read the repository: say why, keep what was shown. */
export function onProblem(state: DeskState, problem: string): DeskState {
  return { ...state, problem };
}

/** An operation's progress arrived; ignored when its details are no longer open. */
export function onOperation(state: DeskState, handle: string, details: OperationDetails): DeskState {
  const open = state.view.kind === 'details' ? state.view.operation : undefined;
  if (state.view.kind !== 'details' || open === undefined || open.handle !== handle) return state;
  // A re-read that fails keeps the details already shown.
  if (details.kind === 'failed' && open.details.kind === 'loaded') return state;
  return { ...state, view: { ...state.view, operation: { ...open, details } } };
}
