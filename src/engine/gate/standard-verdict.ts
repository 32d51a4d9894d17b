// A standard's value from its command's DISCERN_METRIC lines, and its verdict against the limit. Pure.
//   value = metric (÷ per) × scale
//   up (a floor):     regressed below the limit; improved when value − margin still clears it (pin target)
//   down (a ceiling): regressed above the limit; improved when value + margin still clears it
import type { StandardDefinition } from '../config/standards.js';

export type StandardJudgement =
  | { ok: true; value: number; verdict: 'improved' | 'held' | 'regressed'; pin_eligible: boolean; pin_target?: number }
  | { ok: false; problem: string };

export function judgeStandard(
  def: StandardDefinition,
  metrics: Readonly<Record<string, number>>,
  extent?: number,
): StandardJudgement {
  const raw = metrics[def.metric];
  if (raw === undefined)
    return {
      ok: false,
      problem: `its command printed no \`DISCERN_METRIC ${def.metric} <number>\` line with a finite number`,
    };
  let divisor = 1;
  if (def.per?.kind === 'metric') {
    const per = metrics[def.per.metric];
    if (per === undefined)
      return {
        ok: false,
        problem: `per = "${def.per.metric}", but its command printed no \`DISCERN_METRIC ${def.per.metric} <number>\` line`,
      };
    divisor = per;
  } else if (def.per?.kind === 'extent') {
    if (extent === undefined)
      return { ok: false, problem: `the ${def.per.extent} of its per pathspecs could not be counted` };
    divisor = extent;
  }
  if (divisor <= 0)
    return {
      ok: false,
      problem: `its per divisor is ${divisor}, so the value means nothing (a divisor must be positive)`,
    };
  const value = tidy((raw / divisor) * def.scale);
  return { ok: true, value, ...verdictOf(def, value) };
}

export function verdictOf(
  def: Pick<StandardDefinition, 'direction' | 'limit' | 'margin'>,
  value: number,
): { verdict: 'improved' | 'held' | 'regressed'; pin_eligible: boolean; pin_target?: number } {
  const up = def.direction === 'up';
  if (up ? value < def.limit : value > def.limit) return { verdict: 'regressed', pin_eligible: false };
  const target = tidy(up ? value - def.margin : value + def.margin);
  const eligible = up ? target > def.limit : target < def.limit;
  return eligible
    ? { verdict: 'improved', pin_eligible: true, pin_target: target }
    : { verdict: 'held', pin_eligible: false };
}

/** Rounds away binary floating-point noise (0.1 + 0.2) without hiding real precision. */
function tidy(n: number): number {
  return Number.parseFloat(n.toPrecision(12));
}
