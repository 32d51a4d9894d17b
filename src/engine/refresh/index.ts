// What other parts of discern use of refresh: the planner (the gate's "refresh plan empty" check, setup and
// upgrade), the executor, and uninstall's plan.
export {
  planRefresh,
  planUninstall,
  probeWiredCommand,
  type RefreshPlan,
  type RefreshTarget,
  type RefreshProblem,
  type RefreshKind,
  type RefreshAction,
  type PlanOptions,
} from './plan.js';
export { applyRefresh, probeTargets, type RefreshApplied, type ApplyOptions } from './apply.js';
