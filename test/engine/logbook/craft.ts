// Crafted logbooks for the detector tests: events as the writer makes them, one minute apart from a fixed start,
// so each detector can be fed exactly the evidence it needs (and one short of it).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { LogbookEvent } from '../../../src/engine/logbook/event.js';

export const START = Date.parse('2025-03-01T09:00:00.000Z');

export class Craft {
  private readonly lines: string[] = [];
  private t = START;

  /** Appends an event one minute after the previous one; returns its time. */
  add(event: Partial<LogbookEvent> & { verb: string }): number {
    this.t += 60_000;
    const full: LogbookEvent = {
      v: 1,
      at: new Date(this.t).toISOString(),
      surface: 'cli',
      actor: 'human',
      outcome: 'ok',
      ms: 100,
      ...event,
    };
    this.lines.push(JSON.stringify(full));
    return this.t;
  }

  /** Moves the clock by this many days (events after it are that much later). */
  skipDays(days: number): void {
    this.t += days * 86_400_000;
  }

  raw(line: string): void {
    this.lines.push(line);
  }

  write(path: string, options: { trailingNewline?: boolean } = {}): void {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, this.lines.join('\n') + (options.trailingNewline === false ? '' : '\n'));
  }
}

/** A gate run of the test verb on a tree: each job as [label, outcome, seconds, first line]. */
export function testRun(
  tree: string | undefined,
  jobs: [string, 'ok' | 'failed', number, string?][],
  extra: Partial<LogbookEvent> = {},
): Partial<LogbookEvent> & { verb: string } {
  return {
    verb: 'test',
    outcome: jobs.some((j) => j[1] === 'failed') ? 'gate_failed' : 'ok',
    ...(tree ? { head: `h${tree}`, tree } : {}),
    jobs: jobs.map(([label, outcome, s, first]) => ({ label, kind: 'job', outcome, s, ...(first ? { first } : {}) })),
    ...extra,
  };
}
