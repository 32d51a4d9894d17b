// What a running gate reports as it goes. The executor emits these; the verb fans them out to the progress
// journal and to the caller's live channel (MCP progress notifications, the CLI's live view). They are
// observations only: nothing here decides a verdict.
import type { DiscernProgressLine } from '../../../generated/types.js';

export type GateEvent =
  | { type: 'phase'; phase: string; message: string; /** For the final phase: how the run ended. */ state?: string }
  | { type: 'group-start'; group: string; producers: string[] }
  | { type: 'producer-start'; label: string; group: string }
  | { type: 'producer-progress'; label: string; fact: DiscernProgressLine }
  | { type: 'producer-output'; label: string; lines: number; errorLikeLines: number }
  /** One whole, redacted line of a producer's output; emitted only when the run streams ([gate] stream). */
  | { type: 'producer-line'; label: string; text: string }
  | { type: 'producer-pgid'; label: string; event: 'start' | 'end'; pgid: number }
  | {
      type: 'producer-end';
      label: string;
      outcome: 'ok' | 'failed' | 'cancelled' | 'skipped';
      durationMs: number;
      outputPath?: string;
      detail?: string;
    }
  | { type: 'wait-start'; id: string; reason: string; capacity: number; inUse: number }
  | { type: 'wait-end'; id: string; waitedMs: number };

export type GateListener = (event: GateEvent) => void;

export function fanOut(...listeners: (GateListener | undefined)[]): GateListener {
  const live = listeners.filter((l): l is GateListener => l !== undefined);
  return (event) => {
    for (const listener of live) {
      try {
        listener(event);
      } catch {
        // A listener is an observer; its failure (a closed pipe, a full disk) must not stop the gate.
      }
    }
  };
}
