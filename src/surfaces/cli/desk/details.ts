// What Enter shows for the selected row, as labelled fields: a worktree's branch, head, state, trunk distance,
// Proof and last gate; a queued submission's place and authority; an operation's progress as
// `discern progress <handle>` reads it. Pure: the layout decides how the fields fit the screen.
import type { DiscernProgressRecord, DiscernQueueRow, DiscernStatusFleetRow } from '../../../../generated/types.js';
import type { DeskSnapshot, LastGate, OpenOperation } from './model.js';

export interface Details {
  title: string;
  fields: Array<[label: string, value: string]>;
}

export function detailsFor(
  snapshot: DeskSnapshot,
  key: string,
  operation: OpenOperation | undefined,
  now: number,
): Details {
  if (operation !== undefined) return operationDetails(operation, now);
  if (key.startsWith('fleet:')) {
    const row = snapshot.fleet.find((r) => `fleet:${r.path}` === key);
    if (row) return fleetDetails(row, snapshot.trunk, snapshot.lastGates[row.path], now);
  }
  if (key.startsWith('queue:')) {
    const row = snapshot.queue.find((r) => `queue:${r.effort}:${r.submitted_at}` === key);
    if (row) return queueDetails(row);
  }
  return { title: 'Gone', fields: [['', 'This row is no longer there: press Esc to go back to the list.']] };
}

export function fleetName(row: DiscernStatusFleetRow): string {
  if (row.id !== undefined) return row.id;
  const parts = row.path.split(/[\\/]/).filter(Boolean);
  return parts[parts.length - 1] ?? row.path;
}

function fleetDetails(row: DiscernStatusFleetRow, trunk: string, gate: LastGate | undefined, now: number): Details {
  const fields: Details['fields'] = [
    ['Path', row.path],
    ['Checkout', `${row.is_main ? 'main checkout' : 'linked worktree'}${row.is_current ? ' (here)' : ''}`],
  ];
  if (row.id !== undefined) fields.push(['Effort', row.id]);
  fields.push(['Branch', row.branch ?? 'detached HEAD']);
  fields.push(['Head', row.head ?? 'no commit yet']);
  if (row.broken) fields.push(['State', `broken${row.reason ? `: ${row.reason}` : ''}`]);
  else if (row.clean !== undefined)
    fields.push([
      'State',
      row.clean ? 'clean' : `${row.changed_files ?? 0} changed file${row.changed_files === 1 ? '' : 's'}`,
    ]);
  if (row.locked) fields.push(['Locked', row.reason ?? 'yes']);
  if (row.ahead !== undefined)
    fields.push([
      'Trunk',
      row.ahead === null || row.behind === null || row.behind === undefined
        ? `distance from ${trunk} unknown`
        : `${row.ahead} ahead of and ${row.behind} behind ${trunk}`,
    ]);
  const proof = row.gate_proof;
  if (proof !== undefined) {
    const facts = [
      proof.status,
      proof.head ? `for ${proof.head}` : '',
      proof.recorded ? `recorded ${proof.recorded}` : '',
      proof.reason ?? '',
    ].filter(Boolean);
    fields.push(['Proof', facts.join(', ')]);
    if (proof.proof?.line) fields.push(['', proof.proof.line]);
  }
  if (row.landing_authority !== undefined) {
    const a = row.landing_authority;
    fields.push([
      'Landing',
      [
        a.kind,
        a.source ? `from ${a.source}` : '',
        a.scopes && a.scopes.length > 0 ? `scopes ${a.scopes.join(', ')}` : '',
      ]
        .filter(Boolean)
        .join(', '),
    ]);
  }
  if (gate === undefined) fields.push(['Last gate', 'no `discern done` recorded for this checkout in the last 7 days']);
  else {
    const when =
      gate.finished_at !== undefined
        ? `${gate.outcome ?? 'finished'} ${gate.finished_at}`
        : `running for ${elapsed(gate.started_at, now)}`;
    fields.push(['Last gate', `done ${gate.handle}: ${when}`]);
    if (gate.reason) fields.push(['', gate.reason]);
    fields.push(['Read back', `discern progress ${gate.handle} (from ${row.path})`]);
  }
  return { title: `Worktree ${fleetName(row)}`, fields };
}

function queueDetails(row: DiscernQueueRow): Details {
  const fields: Details['fields'] = [
    ['Position', String(row.position)],
    ['Effort', row.effort],
    ['Branch', row.branch],
    ['Path', row.path],
    ['Head', row.head],
    ['Submitted', row.submitted_at],
    [
      'Authority',
      [
        row.authority,
        row.authority_source ? `from ${row.authority_source}` : '',
        row.granted_at ? `granted ${row.granted_at}` : '',
      ]
        .filter(Boolean)
        .join(', '),
    ],
    ['Readiness', row.readiness === 'ready' ? 'ready' : `waiting${row.reason ? `: ${row.reason}` : ''}`],
    ...(row.unhonoured ?? []).map((u): [string, string] => [
      'Not honoured',
      `its ${u.kind}: ${u.message}; ${u.command}`,
    ]),
  ];
  return { title: `Queued ${row.effort}`, fields };
}

function operationDetails(open: OpenOperation, now: number): Details {
  const title = `Operation ${open.handle}`;
  if (open.details.kind === 'loading') return { title, fields: [['', `reading discern progress ${open.handle}`]] };
  if (open.details.kind === 'failed') return { title, fields: [['Progress', open.details.message]] };
  return { title, fields: progressFields(open.details.record, now) };
}

function progressFields(record: DiscernProgressRecord, now: number): Details['fields'] {
  const op = record.operation;
  const fields: Details['fields'] = [
    ['Verb', op.verb],
    ['Checkout', `${op.path}${op.branch ? ` (branch ${op.branch})` : ''}`],
    ['Started', `${op.started_at}${op.finished_at === undefined ? `, ${elapsed(op.started_at, now)} ago` : ''}`],
  ];
  if (op.finished_at !== undefined)
    fields.push(['Finished', `${op.finished_at}${record.outcome ? `, ${record.outcome}` : ''}`]);
  fields.push(['Executor', `${record.executor}${record.executor_reason ? `: ${record.executor_reason}` : ''}`]);
  const p = record.progress;
  fields.push(['Progress', `${p.phase}: ${p.state}${p.reason ? `, ${p.reason}` : ''}`]);
  if (p.next) fields.push(['Next', `${p.next}${p.owner_must_act ? ' (the owner must act)' : ''}`]);
  for (const producer of record.producers) {
    const units = producer.units
      ? ` ${producer.units.completed}/${producer.units.total ?? '?'} ${producer.units.kind}`
      : '';
    const active = producer.active && producer.active.length > 0 ? ` (${producer.active.join(', ')})` : '';
    fields.push(['Producer', `${producer.producer}: ${producer.state}${units}${active}`]);
  }
  for (const failure of record.failures.slice(0, 5))
    fields.push(['Failure', `${failure.producer} ${failure.name}: ${failure.message}`]);
  if (record.failures.length > 5) fields.push(['', `and ${record.failures.length - 5} more failures`]);
  for (const sentence of record.account) fields.push(['Says', sentence]);
  fields.push(['Read back', `discern progress ${record.handle}`]);
  return fields;
}

/** A compact duration: 12s, 3m05s, 1h02m. */
export function elapsed(startedAt: string, now: number): string {
  const start = Date.parse(startedAt);
  const seconds = Number.isFinite(start) ? Math.max(0, Math.floor((now - start) / 1000)) : 0;
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}
