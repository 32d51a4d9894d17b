// What `discern standards --pin` would change, decided from the measured standards alone: each limit the value
// beats by more than the margin moves to the value minus the margin (a floor) or plus it (a ceiling) — the gate's
// own pin_target — and every other standard is left as it is, with the reason. The edit is one setValue per limit
// through the comment-preserving editor, so every byte outside the edited numbers stays. Pure.
import type { DiscernGateStandard, DiscernStandardsData } from '../../../generated/types.js';
import { setValue } from '../toml-edit/set.js';

export type PinChange = NonNullable<DiscernStandardsData['pinned']>[number];
export type PinSkip = NonNullable<DiscernStandardsData['pin_skipped']>[number];

export interface PinPlan {
  pins: PinChange[];
  skipped: PinSkip[];
}

export function planPins(standards: readonly DiscernGateStandard[]): PinPlan {
  const pins: PinChange[] = [];
  const skipped: PinSkip[] = [];
  for (const s of standards) {
    const margin = s.margin ?? 0;
    if (s.value === undefined) {
      skipped.push({ name: s.name, limit: s.limit, reason: s.reason ?? `it has no value (${s.measurement})` });
    } else if (s.pin_eligible === true && s.pin_target !== undefined) {
      pins.push({ name: s.name, from: s.limit, to: s.pin_target, measured: s.value });
    } else {
      skipped.push({
        name: s.name,
        limit: s.limit,
        measured: s.value,
        ...(margin > 0 ? { margin } : {}),
        reason: skipReason(s, s.value, margin),
      });
    }
  }
  return { pins, skipped };
}

function skipReason(s: DiscernGateStandard, value: number, margin: number): string {
  const up = s.direction === 'up';
  if (up ? value < s.limit : value > s.limit)
    return `measured ${value}, ${up ? 'below its floor' : 'above its ceiling'} ${s.limit}: it regressed`;
  const gain = tidy(Math.abs(value - s.limit));
  if (gain === 0) return `measured ${value}, exactly its limit: there is nothing to tighten`;
  return `measured ${value}, ${gain} ${up ? 'above its floor' : 'below its ceiling'} ${s.limit} — not more than its margin ${margin}, the headroom a pinned limit keeps`;
}

/** discern.toml's text with each pinned limit set, and nothing else changed. */
export function pinnedText(text: string, pins: readonly PinChange[]): string {
  let out = text;
  for (const pin of pins) out = setValue(out, ['standards', pin.name, 'limit'], pin.to);
  return out;
}

/** The pin commit's message: the subject names each change, the body how it was measured. */
export function pinMessage(
  pins: readonly PinChange[],
  standards: readonly DiscernGateStandard[],
): { subject: string; body: string } {
  const subject = `Pin standards: ${pins.map((p) => `${p.name} ${p.from} → ${p.to}`).join(', ')}`;
  const lines = pins.map((p) => {
    const s = standards.find((x) => x.name === p.name);
    const margin = s?.margin ?? 0;
    return `- ${p.name}: measured ${p.measured}${margin > 0 ? `, margin ${margin}` : ''} (${s?.direction === 'down' ? 'ceiling' : 'floor'})`;
  });
  return {
    subject,
    body: ['Tightened by `discern standards --pin` to the measured value less the margin:', '', ...lines].join('\n'),
  };
}

function tidy(n: number): number {
  return Number.parseFloat(n.toPrecision(12));
}
