// The gate's plan, decided without running anything: which producers run in which group, in what order,
// serially or in parallel, and which are left out and why. The executor applies a plan; a dry run shows it.
//
//   done:    fix (serial, config order) → build + generated:<name> (parallel) → check ∥ test ∥ gate standards
//            (one parallel group; split into check, then test + standards holding a test slot when
//            [gate] concurrent_test_runs > 0) → scope gates of the changed scopes (parallel)
//   prepare: fix (serial) → generated:<name> (parallel) → check (parallel)
//   test:    test (parallel, holding a test slot when capped)
import type { DiscernFailedStage, DiscernPlanStep } from '../../../generated/types.js';
import type { GateSettings } from '../config/gate-settings.js';
import type { Producer, ProducerCatalog } from './producers.js';

export type GateMode = 'done' | 'prepare' | 'test';

/** What a group's producers may legitimately write to the working tree. */
export type WritePermission = 'fixes' | 'generated' | 'nothing';

export interface StageGroup {
  /** The failed_stage this group reports when one of its producers fails. */
  stage: Extract<DiscernFailedStage, 'fix' | 'build' | 'check' | 'test' | 'check/test' | 'scope_gates'> | 'generated';
  /** A display name for steps and progress. */
  name: string;
  parallel: boolean;
  producers: Producer[];
  /** Holds one of the repository's test slots while it runs ([gate] concurrent_test_runs). */
  holdsTestSlot: boolean;
  writes: WritePermission;
}

export interface StandardDisposition {
  producer: Producer;
  /** measured: runs in the gate; replayed: its inputs are untouched since a green value; deferred: on-demand. */
  disposition: 'measured' | 'replayed' | 'deferred';
}

export interface GatePlan {
  mode: GateMode;
  groups: StageGroup[];
  standards: StandardDisposition[];
  /** Scopes whose gates the change activates (done only). */
  scopeGates: string[];
}

export interface PlanInput {
  mode: GateMode;
  catalog: ProducerCatalog;
  settings: GateSettings;
  /** Scopes the change activates (done). */
  changedScopes: readonly string[];
  /** Standards whose last green value can be replayed (their inputs are untouched). */
  replayable: ReadonlySet<string>;
}

export function planGate(input: PlanInput): GatePlan {
  const { catalog, settings } = input;
  const of = (stage: string): Producer[] => catalog.jobs.filter((p) => p.stage === stage);
  const groups: StageGroup[] = [];
  const add = (
    group: Omit<StageGroup, 'holdsTestSlot' | 'writes'> & Partial<Pick<StageGroup, 'holdsTestSlot' | 'writes'>>,
  ): void => {
    if (group.producers.length > 0) groups.push({ holdsTestSlot: false, writes: 'nothing', ...group });
  };
  const capped = settings.concurrentTestRuns > 0;

  if (input.mode === 'test') {
    add({ stage: 'test', name: 'test', parallel: true, producers: of('test'), holdsTestSlot: capped });
    return { mode: input.mode, groups, standards: [], scopeGates: [] };
  }

  add({ stage: 'fix', name: 'fix', parallel: false, producers: of('fix'), writes: 'fixes' });
  if (input.mode === 'prepare') {
    add({ stage: 'generated', name: 'generated', parallel: true, producers: catalog.generators, writes: 'generated' });
    add({ stage: 'check', name: 'check', parallel: true, producers: of('check') });
    return { mode: input.mode, groups, standards: [], scopeGates: [] };
  }

  add({
    stage: 'build',
    name: 'build',
    parallel: true,
    producers: [...of('build'), ...catalog.generators],
    writes: catalog.generators.length > 0 ? 'generated' : 'nothing',
  });
  const standards: StandardDisposition[] = catalog.standards.map((producer) => ({
    producer,
    disposition:
      producer.standard?.measure === 'on-demand'
        ? 'deferred'
        : input.replayable.has(producer.standard?.name ?? '')
          ? 'replayed'
          : 'measured',
  }));
  const measured = standards.filter((s) => s.disposition === 'measured').map((s) => s.producer);
  if (capped) {
    add({ stage: 'check', name: 'check', parallel: true, producers: of('check') });
    add({
      stage: 'test',
      name: 'test and standards',
      parallel: true,
      producers: [...of('test'), ...measured],
      holdsTestSlot: true,
    });
  } else {
    add({
      stage: 'check/test',
      name: 'check, test and standards',
      parallel: true,
      producers: [...of('check'), ...of('test'), ...measured],
    });
  }
  const scopeGates = catalog.scopeGates.filter((p) => p.scope !== undefined && input.changedScopes.includes(p.scope));
  add({ stage: 'scope_gates', name: 'scope gates', parallel: true, producers: scopeGates });
  return { mode: input.mode, groups, standards, scopeGates: scopeGates.map((p) => p.scope ?? '') };
}

/** The failed_stage for failures in a group: check/test narrows to the part that actually failed. */
export function failedStageOf(group: StageGroup, failed: readonly Producer[]): DiscernFailedStage {
  if (group.stage === 'generated') return 'build';
  if (group.stage !== 'check/test' && group.stage !== 'test') return group.stage;
  const kinds = new Set(failed.map((p) => (p.kind === 'standard' ? 'standards' : p.stage)));
  if (kinds.size === 1 && kinds.has('standards')) return 'standards';
  if (group.stage === 'test') return 'test';
  const check = kinds.has('check');
  const test = kinds.has('test');
  return check && test ? 'check/test' : check ? 'check' : test ? 'test' : 'standards';
}

/** The plan as plan steps, preconditions first: what a dry run returns. */
export function planSteps(plan: GatePlan, preconditions: readonly DiscernPlanStep[]): DiscernPlanStep[] {
  const steps: DiscernPlanStep[] = [...preconditions];
  for (const group of plan.groups) {
    for (const producer of group.producers) {
      steps.push({
        kind: producer.kind,
        label: producer.label,
        disposition: 'run',
        note: noteOf(producer),
        group: groupNote(group),
      });
    }
  }
  for (const s of plan.standards) {
    if (s.disposition === 'measured') continue;
    steps.push({
      kind: 'standard',
      label: s.producer.label,
      disposition: 'skip',
      note:
        s.disposition === 'replayed'
          ? 'replayed: its inputs are untouched since its last green measurement'
          : 'deferred: measure = "on-demand" (the gate does not measure it)',
    });
  }
  return steps;
}

export function noteOf(producer: Producer): string {
  return producer.commands.join(' && ');
}

function groupNote(group: StageGroup): string {
  return `${group.name}${group.parallel && group.producers.length > 1 ? ' (parallel)' : ''}${group.holdsTestSlot ? ', holding a test slot' : ''}`;
}
