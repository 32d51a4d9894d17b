// Judges a standard's finished command: its DISCERN_METRIC values, divided by a built-in extent when per names
// one, against its limit.
import type { JobRunResult } from '../jobs/run-job.js';
import { measureExtent } from './extent.js';
import type { Producer } from './producers.js';
import { judgeStandard, type StandardJudgement } from './standard-verdict.js';

export async function judgeStandardRun(
  producer: Producer,
  result: JobRunResult,
  root: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<StandardJudgement> {
  const def = producer.standard;
  if (!def) return { ok: false, problem: 'it is not a standard' };
  if (def.per?.kind === 'extent') {
    try {
      return judgeStandard(def, result.metrics, await measureExtent(def.per, root, env));
    } catch (error) {
      return {
        ok: false,
        problem: `the ${def.per.extent} of its per pathspecs could not be counted (${error instanceof Error ? error.message : String(error)})`,
      };
    }
  }
  return judgeStandard(def, result.metrics);
}
