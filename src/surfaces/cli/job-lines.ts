// [gate] stream on the CLI: each job's output line on stderr as `<label> │ <text>`, the labels padded to the
// run's widest so the text lines up. One write per line, so lines of parallel jobs never mix mid-line. stdout is
// never touched: under --json and --markdown it stays one document. A job's text is shown, never obeyed: its
// control characters print in caret notation, as everywhere discern shows job output (decision 0032).
import type { LineSink } from '../../engine/gate/stream-listener.js';
import { visibleControls } from '../../render/terminal/text.js';

export interface JobLinesOptions {
  /** --plain, or a locale that is not UTF-8: `|` instead of `│`. */
  ascii: boolean;
  /** One whole line, without its newline: the live view's line() on a human run, else stderr. */
  write: (line: string) => void;
}

export function jobLines(options: JobLinesOptions): LineSink {
  const bar = options.ascii ? '|' : '│';
  return ({ label, text, labelWidth }) =>
    options.write(`${visibleControls(label.padEnd(labelWidth))} ${bar} ${visibleControls(text)}`);
}
