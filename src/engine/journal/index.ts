// The progress journal: one record per long operation in `<git-common-dir>/discern/operations/`, shared by
// every worktree. Writers (writer.ts) keep their own record current; readers (read.ts) read any of them back;
// retention.ts keeps the store bounded; result.ts reduces results too large to keep inline.
export {
  JOURNAL_FORMAT,
  LIMITS,
  operationsDir,
  type DroppedCounts,
  type FailureEntry,
  type OperationOutcome,
  type OperationRecord,
  type ProducerEntry,
  type ProducerState,
  type ProducerUnits,
  type ProgressFact,
  type StepEvent,
  type TimingEntry,
  type WaitEntry,
  type WatchEntry,
} from './record.js';
export {
  openOperation,
  OperationWriter,
  type FinishOptions,
  type OpenOperationOptions,
  type ProducerPatch,
  type WaitStart,
} from './writer.js';
export {
  executorState,
  latestOperation,
  listOperations,
  readOperation,
  readableFrom,
  runningOperations,
  type LatestOperationResult,
  type ReadOperationResult,
  type StoreListing,
  type StoredRecord,
} from './read.js';
export {
  DEFAULT_MAX_AGE_MS,
  DEFAULT_MAX_RECORDS,
  evictOperations,
  type EvictionReport,
  type RetentionOptions,
} from './retention.js';
export { RESULT_INLINE_LIMIT, reduceResult, type OmittedPart, type ReducedResult } from './result.js';
