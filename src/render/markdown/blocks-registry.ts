// The implementations of the shared blocks templates call: the tables and lists several verbs present the same
// way (steps, diagnostics, standards, a plan) and the opening of a failed result.
import type {
  DiscernCheckpointDrop,
  DiscernCheckpointQuestion,
  DiscernCheckpointUnmet,
  DiscernConfigIssue,
  DiscernDiagnostic,
  DiscernGateStandard,
  DiscernPlan,
  DiscernResult,
  DiscernStep,
} from '../../../generated/types.js';
import type { Block } from '../template/evaluate.js';
import type { BlockName } from './block-names.js';
import { configIssueList } from './blocks.js';
import { CONFIG_SETUP_BLOCKS } from './blocks-config-setup.js';
import { DERIVED_BLOCKS } from './blocks-derived.js';
import { declarationsSection, dropsSection, questionsSection } from './checkpoints.js';
import { failureState } from './frame.js';
import { diagnosticsSection, planSection, standardsSection, stepsSection } from './gate.js';
import { COUNT_BLOCKS } from './blocks-counts.js';

export const BLOCKS: Readonly<Record<BlockName, Block>> = {
  /** `{{> failure 'discern done'}}`: "# discern done: failed (`slug`)" and the message. */
  failure: ([title], result) => failureState(result as DiscernResult, String(title)),
  steps: ([steps], _result, options) => stepsSection(steps as DiscernStep[] | undefined, options.compact === true),
  diagnostics: ([diagnostics], _result, options) =>
    diagnosticsSection(diagnostics as DiscernDiagnostic[] | undefined, options.compact === true),
  standards: ([standards]) => standardsSection(standards as DiscernGateStandard[] | undefined),
  plan: ([plan]) => planSection(plan as DiscernPlan | undefined),
  'config-issues': ([issues]) =>
    Array.isArray(issues) && issues.length > 0 ? configIssueList(issues as DiscernConfigIssue[]) : undefined,
  /** `{{> questions 'Title' list}}`: checkpoint questions with their triggers. */
  questions: ([title, questions]) =>
    questionsSection(String(title), questions as DiscernCheckpointQuestion[] | undefined),
  declarations: ([met, unmet]) =>
    declarationsSection(met as string[] | undefined, unmet as DiscernCheckpointUnmet[] | undefined),
  drops: ([drops]) => dropsSection(drops as DiscernCheckpointDrop[] | undefined),
  ...CONFIG_SETUP_BLOCKS,
  ...COUNT_BLOCKS,
  ...DERIVED_BLOCKS,
};
