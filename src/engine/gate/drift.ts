// Judges what a stage wrote. A path that was clean before a stage and dirty after it was written by that
// stage. Whether that is allowed depends on the run and the stage:
//   - done proves the commit as it is, so any write fails it: tree_drift (the fix or regeneration is left in
//     the working tree to review and commit);
//   - prepare lets fixers write anything and generators write their own [generated] paths;
//   - a generator writing outside every [generated] path is generated_drift, in either run, when the stage
//     ran only generators (with build jobs beside it the writer cannot be told apart: tree_drift).
import type { GateMode, StageGroup } from './plan.js';

export interface GeneratedPaths {
  /** Whether a path belongs to some [generated] table's paths. */
  owns(path: string): boolean;
}

export interface DriftVerdict {
  failedStage: 'tree_drift' | 'generated_drift';
  group: string;
  /** Every offending path, sorted. */
  paths: string[];
}

export function judgeDrift(
  mode: GateMode,
  group: StageGroup,
  written: readonly string[],
  generated: GeneratedPaths,
): DriftVerdict | undefined {
  if (written.length === 0) return undefined;
  const onlyGenerators = group.producers.length > 0 && group.producers.every((p) => p.generator !== undefined);
  const outside = written.filter((p) => !generated.owns(p));
  if (onlyGenerators && outside.length > 0)
    return { failedStage: 'generated_drift', group: group.name, paths: outside };
  if (mode === 'done') return { failedStage: 'tree_drift', group: group.name, paths: [...written] };
  if (group.writes === 'fixes') return undefined;
  if (group.writes === 'generated') {
    return outside.length > 0 ? { failedStage: 'tree_drift', group: group.name, paths: outside } : undefined;
  }
  return { failedStage: 'tree_drift', group: group.name, paths: [...written] };
}
