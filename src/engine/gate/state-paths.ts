// Where the gate keeps its state: per checkout under <git-dir>/discern/, per repository under
// <git-common-dir>/discern/. Never in the working tree, so a run leaves the tree as it found it.
import { join } from 'node:path';

export interface GateStatePaths {
  /** The git common dir: the sealed records (proof marker, last run, evidence) seal under its repository key. */
  commonDir: string;
  /** <git-dir>/discern: this checkout's state. */
  checkoutDir: string;
  /** <git-common-dir>/discern: state every worktree shares. */
  repositoryDir: string;
  proofMarker: string;
  lastRun: string;
  /** One empty file per journaled operation running in this checkout, named by its handle: status and reaping
   *  find them without reading the whole journal. */
  runningOperations: string;
  standardMeasurements: string;
  /** Held while done or prepare runs in this checkout. */
  operationLock: string;
  outputs: string;
  evidence: string;
  operations: string;
  testSlots: string;
}

export function gateStatePaths(gitDir: string, commonDir: string): GateStatePaths {
  const checkoutDir = join(gitDir, 'discern');
  const repositoryDir = join(commonDir, 'discern');
  return {
    commonDir,
    checkoutDir,
    repositoryDir,
    proofMarker: join(checkoutDir, 'gate-proof'),
    lastRun: join(checkoutDir, 'last-gate-run'),
    runningOperations: join(checkoutDir, 'running'),
    standardMeasurements: join(checkoutDir, 'standard-measurements.json'),
    operationLock: join(checkoutDir, 'operation.lock'),
    outputs: join(checkoutDir, 'output'),
    evidence: join(repositoryDir, 'evidence'),
    operations: join(repositoryDir, 'operations'),
    testSlots: join(repositoryDir, 'test-slots'),
  };
}
