// Per-command limits on what the hostile generator may produce, each for a stated reason: a call that would
// legitimately wait for minutes, or run a real program, is not a robustness finding.
import fc from 'fast-check';
import type { CommandTuning } from './cli-argv.js';

/** Commands that serve a protocol (stdio MCP) or hand the terminal to a program (queue). */
export const PROTOCOL_COMMANDS: ReadonlySet<string> = new Set(['mcp', 'queue']);

/** Commands that act on an effort: their project gets one (fz1), so a target can name something real. */
export const NEEDS_EFFORT: readonly string[] = ['worktree', 'enter', 'accept', 'await', 'progress'];

/** Program names queue may be handed: none exists, or it is harmless and ends at once. */
const QUEUE_PROGRAM = fc.oneof(
  fc.constantFrom('true', 'false', '$(touch INJECTED)', ';rm -rf .', '../../..', '/', ''),
  fc.stringMatching(/^[a-z]{1,12}$/).map((s) => `discern-fuzz-missing-${s}`),
);

export function tuningFor(command: string): CommandTuning {
  switch (command) {
    case 'await':
      // await's budget is the call's to shorten: 0 checks once. Every other accepted value (1..86400 s) would
      // wait, so only 0 and refused values are drawn; the budget flag is always given.
      return {
        required: ['--timeout'],
        flagValues: { '--timeout': fc.constantFrom('0', '0', '-1', '86401', '1.5', 'x', '99999999999999999999', '') },
      };
    case 'queue':
      return {
        variadic: fc
          .tuple(QUEUE_PROGRAM, fc.array(fc.constantFrom('-rf', '.', '$(id)', '--json', 'a b'), { maxLength: 2 }))
          .map(([p, a]) => [p, ...a]),
      };
    default:
      return {};
  }
}
