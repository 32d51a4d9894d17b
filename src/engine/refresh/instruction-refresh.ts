// The instruction refresh an applied setup or upgrade runs: plan, apply, and say how it went in the shape both
// publish (data.instruction_refresh). `complete` holds even when nothing was compiled because every artifact
// was current; `partial` names what was written, what stopped it, and a safe retry, and never undoes the
// setup's or upgrade's own effects.
import type { DiscernInstructionRefresh } from '../../../generated/types.js';
import type { Project } from '../project/resolve.js';
import { applyRefresh, planRefresh } from './index.js';

export async function instructionRefresh(
  project: Project,
  env: Readonly<Record<string, string | undefined>>,
): Promise<DiscernInstructionRefresh> {
  const plan = await planRefresh(project, { env });
  if (plan.errors.length > 0)
    return partial(
      [],
      plan.errors.map((e) => `${e.path}: ${e.message}`),
    );
  if (plan.targets.length === 0) return { status: 'complete', compiled: [] };
  const applied = await applyRefresh(plan, { env, commonDir: project.commonDir });
  if (applied.ok) return { status: 'complete', compiled: applied.written.map((t) => t.path) };
  if (applied.reason === 'write_denied') return partial([], [`${applied.path}: ${applied.message}`]);
  return partial(
    applied.written.map((t) => t.path),
    [`${applied.failed.path}: ${applied.message}`],
  );
}

function partial(compiled: string[], failures: string[]): DiscernInstructionRefresh {
  return {
    status: 'partial',
    compiled,
    failures,
    effects_preserved: true,
    recovery: { command: 'discern refresh', safe_to_retry: true },
  };
}
