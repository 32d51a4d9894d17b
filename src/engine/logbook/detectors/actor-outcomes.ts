// Agent versus human outcome rates, per verb where the outcome says something about the work (the gate verbs
// and accept). Two rates are reported as different only when both sides have enough calls and a two-proportion
// z-test puts the gap at least two standard errors wide; anything less is noise at these sample sizes.
import type { ReadEvent } from '../read.js';
import { number, percent, Span, type Detector, type RankedFinding } from './common.js';

export const MIN_CALLS_EACH = 10;
export const MIN_Z = 2;
const VERBS = new Set(['done', 'test', 'prepare', 'accept', 'standards']);

interface Side {
  calls: number;
  ok: number;
}

export class ActorOutcomes implements Detector {
  readonly name = 'actor-outcomes' as const;
  readonly requirement = `at least ${MIN_CALLS_EACH} calls of a verb by agents and ${MIN_CALLS_EACH} by people, with success rates at least ${MIN_Z} standard errors apart`;
  considered = 0;
  private readonly verbs = new Map<string, { agent: Side; human: Side; span: Span }>();

  consider({ event, t }: ReadEvent): void {
    if (!VERBS.has(event.verb) || (event.actor !== 'agent' && event.actor !== 'human')) return;
    this.considered++;
    let record = this.verbs.get(event.verb);
    if (!record) {
      record = { agent: { calls: 0, ok: 0 }, human: { calls: 0, ok: 0 }, span: new Span() };
      this.verbs.set(event.verb, record);
    }
    const side = record[event.actor];
    side.calls++;
    if (event.outcome === 'ok') side.ok++;
    record.span.see(t);
  }

  findings(): RankedFinding[] {
    const out: RankedFinding[] = [];
    for (const [verb, { agent, human, span }] of this.verbs) {
      if (agent.calls < MIN_CALLS_EACH || human.calls < MIN_CALLS_EACH) continue;
      const z = zScore(agent, human);
      if (Math.abs(z) < MIN_Z) continue;
      const a = percent(agent.ok, agent.calls);
      const h = percent(human.ok, human.calls);
      const gap = Math.round((a - h) * 10) / 10;
      out.push({
        magnitude: Math.abs(gap),
        finding: {
          id: `actor-outcomes:${verb}`,
          detector: this.name,
          subject: verb,
          title: `\`${verb}\` succeeds ${gap > 0 ? 'more' : 'less'} often for agents than for people`,
          observation: `\`${verb}\` succeeded in ${agent.ok} of ${agent.calls} agent calls (${a} %) and ${human.ok} of ${human.calls} human calls (${h} %), a gap of ${Math.abs(gap)} points (z = ${Math.round(z * 10) / 10}).`,
          numbers: [
            number('agent_ok', agent.ok, 'calls', 'successful agent calls, of agent calls', agent.calls),
            number('human_ok', human.ok, 'calls', 'successful human calls, of human calls', human.calls),
            number('gap_points', gap, 'percent', 'agent success rate minus human success rate, in percentage points'),
          ],
          ...span.fields(),
        },
      });
    }
    return out;
  }
}

/** Two-proportion z statistic with the pooled rate; 0 when the pooled rate leaves no variance. */
function zScore(a: Side, b: Side): number {
  const pooled = (a.ok + b.ok) / (a.calls + b.calls);
  const variance = pooled * (1 - pooled) * (1 / a.calls + 1 / b.calls);
  if (variance <= 0) return 0;
  return (a.ok / a.calls - b.ok / b.calls) / Math.sqrt(variance);
}
