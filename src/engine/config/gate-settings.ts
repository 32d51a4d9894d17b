// [gate] as the gate applies it: every key with its default filled in. The concurrency default is the number
// of cores this machine offers, so a parallel stage neither idles cores nor oversubscribes them.
import { availableParallelism } from 'node:os';
import type { DiscernConfig } from '../../../generated/types.js';

export const DEFAULT_GATE_TIMEOUT_S = 600;

export interface GateSettings {
  timeoutS: number;
  failFast: boolean;
  concurrency: number;
  concurrentTestRuns: number;
  /** [gate] stream: a caller that can show the jobs' lines live (the CLI) asks the executor for them. */
  stream: boolean;
}

export function gateSettings(config: DiscernConfig): GateSettings {
  const gate = config.gate ?? {};
  return {
    timeoutS: gate.timeout ?? DEFAULT_GATE_TIMEOUT_S,
    failFast: gate.fail_fast ?? true,
    concurrency: gate.concurrency ?? Math.max(1, availableParallelism()),
    concurrentTestRuns: gate.concurrent_test_runs ?? 0,
    stream: gate.stream ?? false,
  };
}
