// [gate] stream: the producers' output lines, handed to the caller's sink as they arrive. The capture gives each
// line whole (engine/jobs/output-capture.ts), so a sink that writes one line per call never splits a line of one
// job with a line of another. The run's widest label comes along so a sink can line the prefixes up.
import type { GateListener } from './events.js';

export interface StreamedLine {
  label: string;
  /** Redacted as the output file is; no line terminator. */
  text: string;
  /** The longest producer label of the run. */
  labelWidth: number;
}

export type LineSink = (line: StreamedLine) => void;

export function streamListener(sink: LineSink, producers: readonly string[]): GateListener {
  let labelWidth = producers.reduce((widest, label) => Math.max(widest, label.length), 0);
  return (event) => {
    if (event.type !== 'producer-line') return;
    labelWidth = Math.max(labelWidth, event.label.length);
    sink({ label: event.label, text: event.text, labelWidth });
  };
}
