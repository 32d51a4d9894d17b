// setup accept's instruction refresh, once the setup has landed and the trunk is checked out: the project is
// resolved afresh from the landed discern.toml, then refreshed. setup done already committed what refresh
// writes, so on a normal landing this compiles nothing and reports `complete`.
import type { DiscernInstructionRefresh } from '../../../generated/types.js';
import { instructionRefresh } from '../refresh/instruction-refresh.js';
import { resolveProject } from '../project/resolve.js';

export interface RefreshRequest {
  root: string;
  env: Readonly<Record<string, string | undefined>>;
  signal: AbortSignal;
}

export async function refreshAfterSetup(request: RefreshRequest): Promise<DiscernInstructionRefresh> {
  const resolution = await resolveProject({
    path: request.root,
    pathFrom: 'argument',
    env: request.env,
    signal: request.signal,
  });
  if (!resolution.ok)
    return {
      status: 'partial',
      compiled: [],
      failures: [`discern.toml: ${resolution.refusal.message}`],
      effects_preserved: true,
      recovery: { command: 'discern refresh', safe_to_retry: true },
    };
  return instructionRefresh(resolution.project, request.env);
}
