// The seam where setup accept refreshes the agents' instruction files and MCP wiring once the setup has
// landed (issue 6, point 2: `refresh`, built beside setup, exposes planRefresh/applyRefresh). Until it is wired
// here this returns undefined: setup accept then reports no `data.instruction_refresh` and points at
// `discern refresh`. Wiring it means: apply the refresh plan for `root`, return `complete` with the files
// written, or `partial` with what completed, the failures, `effects_preserved: true` and the safe retry — and
// add `instruction-refresh` to setup accept's required postconditions (spec/verbs/setup-accept/verb.yaml).
import type { DiscernSetupAcceptInstructionRefresh } from '../../../generated/types.js';

export interface RefreshRequest {
  root: string;
  env: Readonly<Record<string, string | undefined>>;
  signal: AbortSignal;
}

export async function refreshAfterSetup(request: RefreshRequest): Promise<DiscernSetupAcceptInstructionRefresh | undefined> {
  void request;
  return undefined;
}
