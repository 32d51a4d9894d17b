// Assembles the handlers: one lazy loader per verb, typed by the generated Handlers interface, so a missing or
// mistyped verb is a compile error while a call loads only its own verb's code.
import type { Handlers } from '../../generated/handlers.js';
import type { InspectVerbContext, ProjectVerbContext, VerbContext } from './context.js';

/** The context each project mode hands its handler (verb.yaml `project`). */
export interface VerbContexts {
  none: VerbContext;
  required: ProjectVerbContext;
  inspect: InspectVerbContext;
}

export type VerbHandlers = Handlers<VerbContexts>;
export type HandlerLoaders = { [K in keyof VerbHandlers]: () => Promise<VerbHandlers[K]> };

export const HANDLERS: HandlerLoaders = {
  accept: async () => (await import('./accept.js')).accept,
  await: async () => (await import('./await.js')).awaitCondition,
  checkpoints: async () => (await import('./checkpoints.js')).checkpoints,
  configArray: async () => (await import('./config-read.js')).configArray,
  configExplain: async () => (await import('./config-read.js')).configExplain,
  configGet: async () => (await import('./config-read.js')).configGet,
  configHas: async () => (await import('./config-read.js')).configHas,
  configKeys: async () => (await import('./config-read.js')).configKeys,
  configSet: async () => (await import('./config-write.js')).configSet,
  configSetJob: async () => (await import('./config-write.js')).configSetJob,
  configSetScope: async () => (await import('./config-write.js')).configSetScope,
  configSetStandard: async () => (await import('./config-write.js')).configSetStandard,
  configSubsections: async () => (await import('./config-read.js')).configSubsections,
  coupling: async () => (await import('./coupling.js')).coupling,
  docs: async () => (await import('./docs.js')).docs,
  doctor: async () => (await import('./doctor.js')).doctor,
  done: async () => (await import('./done.js')).done,
  enter: async () => (await import('./worktree.js')).enter,
  help: async () => (await import('./help.js')).help,
  identity: async () => (await import('./identity.js')).identity,
  impact: async () => (await import('./impact.js')).impact,
  improvement: async () => (await import('./improvement.js')).improvement,
  licenses: async () => (await import('./licenses.js')).licenses,
  map: async () => (await import('./map.js')).map,
  patterns: async () => (await import('./patterns.js')).patterns,
  patternsArchives: async () => (await import('./patterns.js')).patternsArchives,
  patternsReset: async () => (await import('./patterns.js')).patternsReset,
  patternsSeal: async () => (await import('./patterns.js')).patternsSeal,
  prepare: async () => (await import('./prepare.js')).prepare,
  progress: async () => (await import('./progress.js')).progress,
  refresh: async () => (await import('./refresh.js')).refresh,
  releases: async () => (await import('./releases.js')).releases,
  scripts: async () => (await import('./scripts.js')).scripts,
  skillsEject: async () => (await import('./skills.js')).skillsEject,
  skillsList: async () => (await import('./skills.js')).skillsList,
  setupAccept: async () => (await import('./setup-accept.js')).setupAccept,
  setupBegin: async () => (await import('./setup-begin.js')).setupBegin,
  setupDone: async () => (await import('./setup-done.js')).setupDone,
  setupStep: async () => (await import('./setup-step.js')).setupStep,
  setupVerify: async () => (await import('./setup-verify.js')).setupVerify,
  standards: async () => (await import('./standards.js')).standards,
  standardsPropose: async () => (await import('./standards-propose.js')).standardsPropose,
  start: async () => (await import('./start.js')).start,
  status: async () => (await import('./status.js')).status,
  test: async () => (await import('./test.js')).test,
  tidy: async () => (await import('./tidy.js')).tidy,
  uninstall: async () => (await import('./uninstall.js')).uninstall,
  update: async () => (await import('./update.js')).update,
  upgrade: async () => (await import('./upgrade.js')).upgrade,
  validateConfig: async () => (await import('./validate-config.js')).validateConfig,
  verify: async () => (await import('./verify.js')).verify,
  worktreeDrop: async () => (await import('./worktree.js')).worktreeDrop,
  worktreeEnsure: async () => (await import('./worktree.js')).worktreeEnsure,
  worktreePark: async () => (await import('./worktree.js')).worktreePark,
  worktreePrune: async () => (await import('./worktree.js')).worktreePrune,
  worktreeRename: async () => (await import('./worktree.js')).worktreeRename,
  worktreeSetup: async () => (await import('./worktree.js')).worktreeSetup,
  worktreeTeardown: async () => (await import('./worktree.js')).worktreeTeardown,
};
