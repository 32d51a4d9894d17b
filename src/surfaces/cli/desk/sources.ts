// Where the desk's rows come from: the status verb (the fleet and the landing queue, through the same invoke()
// every surface uses, so the desk's rows are status's rows), the progress journal (operations running now, and
// each checkout's last `done`), and the progress verb for an operation's details. The desk's reads are not
// written to the logbook: it refreshes every few seconds, and the logbook records calls, not glances.
import { join } from 'node:path';
import type { DiscernResult, DiscernStatusData } from '../../../../generated/types.js';
import { executorState, listOperations } from '../../../engine/journal/index.js';
import { invoke, type InvokeOptions } from '../../../verbs/invoke.js';
import type { DeskSnapshot, OperationDetails } from './model.js';
import { buildSnapshot } from './snapshot.js';

export type SnapshotRead = { ok: true; snapshot: DeskSnapshot } | { ok: false; result: DiscernResult };

export interface DeskSources {
  snapshot(): Promise<SnapshotRead>;
  operation(handle: string, checkout: string): Promise<OperationDetails>;
}

export function deskSources(common: InvokeOptions, commonDir: string): DeskSources {
  const quiet: InvokeOptions = { ...common, logbook: false };
  return {
    snapshot: async () => {
      const result = await invoke('status', {}, quiet);
      const data =
        result.ok && result.verb === 'status' && result.data && 'git' in result.data
          ? (result.data as DiscernStatusData)
          : undefined;
      if (data === undefined) return { ok: false, result };
      const listing = await listOperations(join(commonDir, 'discern'));
      const journal = listing.records.map(({ record }) => ({ record, executor: executorState(record) }));
      return { ok: true, snapshot: buildSnapshot(data, journal, Date.now()) };
    },
    operation: async (handle, checkout) => {
      const result = await invoke('progress', { handle, path: checkout }, quiet);
      if (result.ok && result.verb === 'progress' && result.data && 'operation' in result.data)
        return { kind: 'loaded', record: result.data };
      return { kind: 'failed', message: result.message ?? 'discern progress did not read it back.' };
    },
  };
}
