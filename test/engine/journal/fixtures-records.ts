// Records as other processes would have left them, for reader and eviction tests.
import { spawnSync } from 'node:child_process';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { OperationRecord } from '../../../src/engine/journal/index.js';
import { newHandle } from '../../../src/engine/state/handles.js';

export function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid;
}

export function fakeRecord(overrides: Partial<OperationRecord> = {}): OperationRecord {
  const at = overrides.started_at ?? new Date().toISOString();
  return {
    format: 1,
    handle: newHandle('R1'),
    verb: 'test',
    checkout: '/repo',
    branch: null,
    pid: process.pid,
    hostname: hostname(),
    started_at: at,
    last_activity_at: at,
    progress: { phase: 'testing', state: 'running', reason: 'r', next: 'n', owner_must_act: false },
    producers: {},
    failures: [],
    timings: [],
    waits: [],
    steps: [],
    pgids: [],
    account: [],
    ...overrides,
  };
}

/** Writes the record into the store and backdates its file by `ageMs`. */
export function placeRecord(commonDir: string, record: OperationRecord | string, ageMs = 0, handle?: string): string {
  const dir = join(commonDir, 'operations');
  mkdirSync(dir, { recursive: true });
  const name = typeof record === 'string' ? (handle ?? newHandle('R1')) : record.handle;
  const path = join(dir, `${name}.json`);
  writeFileSync(path, typeof record === 'string' ? record : JSON.stringify(record));
  backdate(path, ageMs);
  return name;
}

export function backdate(path: string, ageMs: number): void {
  const when = new Date(Date.now() - ageMs);
  utimesSync(path, when, when);
}
