// Blocks for what the template language deliberately cannot do (ADR 0031): count the items of a list that match,
// subtract, round to tenths, and read a vocabulary member as words. Each returns plain text; the prose around it
// stays in the template.
import type { DiscernCheckpointsCheckpointReport } from '../../../generated/types.js';
import type { Block } from '../template/evaluate.js';

function at(item: unknown, path: string): unknown {
  let v = item;
  for (const key of path.split('.'))
    v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
  return v;
}

function counted(n: number, one: unknown, many: unknown): string {
  if (one === undefined) return String(n);
  return `${n} ${n === 1 ? String(one) : many !== undefined ? String(many) : `${String(one)}s`}`;
}

export const COUNT_BLOCKS = {
  /** `{{> count-where steps 'disposition' 'run' 'job'}}`: "2 jobs" — the items whose dotted path equals the value; without a noun, the bare number. */
  'count-where': ([list, path, value, one, many]) =>
    counted(Array.isArray(list) ? list.filter((x) => at(x, String(path)) === value).length : 0, one, many),
  /** `{{> remainder data.commits_total data.commits}}`: the total less the items shown (a list or a number). */
  remainder: ([total, shown]) =>
    String(
      (typeof total === 'number' ? total : 0) -
        (Array.isArray(shown) ? shown.length : typeof shown === 'number' ? shown : 0),
    ),
  /** `{{> tenths waited_ms}}`: milliseconds as seconds to one decimal, "1.2 s". */
  tenths: ([ms]) => (typeof ms === 'number' ? `${Math.round(ms / 100) / 10} s` : undefined),
  /** `{{> words state}}`: a vocabulary member read as words ("awaiting_declaration" → "awaiting declaration"). */
  words: ([member]) => (typeof member === 'string' ? member.replace(/_/g, ' ') : undefined),
  /** `{{> stop-questions-waiting data.checkpoints}}`: "1 stop question awaits" — firing stop checkpoints with no current declaration. */
  'stop-questions-waiting': ([list]) => {
    const reports = (Array.isArray(list) ? list : []) as DiscernCheckpointsCheckpointReport[];
    const n = reports.filter(
      (c) =>
        c.preview.holds &&
        c.mode === 'stop' &&
        (c.open_question?.state === 'awaiting_declaration' || c.open_question?.state === 'reopened'),
    ).length;
    return `${n} stop question${n === 1 ? '' : 's'} await${n === 1 ? 's' : ''}`;
  },
} satisfies Record<string, Block>;
