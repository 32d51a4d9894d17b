// standards --pin, after a green measurement on the clean, committed HEAD: the eligible limits are set in
// discern.toml (comments and layout kept), that file alone is committed on the branch, and the previous commit's
// current Proof is carried to the pin commit (docs/decisions/0027-standards-verbs.md). A failure to write or
// commit restores the file and is pin_failed; nothing half-written stays behind.
import type { StandardsAdvisoryKind, StandardsOutcome } from '../../generated/handlers.js';
import { VERBS } from '../../generated/registry.js';
import type { DiscernAdvisory, DiscernStandardsData, DiscernStep } from '../../generated/types.js';
import { readConfigText } from '../engine/config-file/file.js';
import { parseConfig } from '../engine/config/validate.js';
import type { HeadIds } from '../engine/git/head.js';
import { readHeadIds } from '../engine/git/head.js';
import { readWorkingState, type WorkingState } from '../engine/git/porcelain-status.js';
import type { GateConfig } from '../engine/gate/gate-config.js';
import { commitPin } from '../engine/gate/pin-commit.js';
import { pinMessage, pinnedText, planPins } from '../engine/gate/pin-plan.js';
import { carryProof } from '../engine/gate/proof-carry.js';
import { resolveProject } from '../engine/project/resolve.js';
import { TomlEditError } from '../engine/toml-edit/errors.js';
import type { ProjectVerbContext } from './context.js';
import { statePathsOf } from './gate-session.js';

type Advisory = DiscernAdvisory & { kind: StandardsAdvisoryKind };

export interface GreenMeasurement {
  ctx: ProjectVerbContext;
  gate: GateConfig;
  head: HeadIds;
  state: WorkingState;
  steps: DiscernStep[];
  data: DiscernStandardsData;
  advisories: Advisory[];
  handle?: string;
}

export async function pinAfterGreen(m: GreenMeasurement): Promise<StandardsOutcome> {
  const { ctx, head } = m;
  const { project } = ctx;
  const mcp = ctx.surface === 'mcp';
  const retry = mcp ? 'call discern_standards with pin: true again' : 'run `discern standards --pin` again';
  const measured = m.data.standards ?? [];
  const { pins, skipped } = planPins(measured);
  const facts = { ...(m.advisories.length > 0 ? { advisories: m.advisories } : {}) };
  const data: DiscernStandardsData = { ...m.data, pinned: pins, pin_skipped: skipped };
  if (pins.length === 0)
    return { ...facts, steps: m.steps, data, hints: [VERBS.standards.hints['nothing_to_pin'] ?? 'Nothing to pin.'] };

  const failed = (reason: string, extra: DiscernStep[]): StandardsOutcome => ({
    ...facts,
    steps: [...m.steps, ...extra],
    data: { ...data, pinned: [] },
    refusal: {
      error: 'pin_failed',
      message: `Nothing was pinned: ${reason}. discern.toml is as it was.`,
      next: { recovery: retry },
    },
  });
  // The pin commit must sit on the commit that was measured, with nothing else in the tree.
  const now = await readWorkingState(project.root, ctx.env);
  if (now.head !== head.commit || now.changed > 0)
    return failed(
      `the checkout changed while the standards ran (${now.head !== head.commit ? `HEAD is now ${now.head?.slice(0, 12) ?? 'unborn'}` : `${now.changed} uncommitted change${now.changed === 1 ? '' : 's'}`})`,
      [],
    );
  const read = await readConfigText(project.configPath);
  if (!read.ok || !read.exists) return failed(`${project.configPath} cannot be read`, []);
  let text: string;
  try {
    text = pinnedText(read.text, pins);
  } catch (error) {
    if (!(error instanceof TomlEditError)) throw error;
    return failed(`the limits cannot be set in discern.toml (${error.reason})`, [
      {
        kind: 'env',
        label: 'set the pinned limits in discern.toml',
        disposition: 'run',
        outcome: 'failed',
        duration_s: 0,
      },
    ]);
  }
  const checked = parseConfig(new TextEncoder().encode(text), 'discern.toml');
  if (!checked.ok)
    return failed(`the edited discern.toml would not validate (${checked.message})`, [
      {
        kind: 'env',
        label: 'set the pinned limits in discern.toml',
        disposition: 'run',
        outcome: 'failed',
        duration_s: 0,
      },
    ]);

  const message = pinMessage(pins, measured);
  const started = Date.now();
  const committed = await commitPin({
    root: project.root,
    commonDir: project.commonDir,
    env: ctx.env,
    configPath: project.configPath,
    previous: { text: read.text, bom: read.bom, mode: read.mode },
    text,
    subject: message.subject,
    body: message.body,
    head: head.commit,
  });
  const editStep: DiscernStep = {
    kind: 'env',
    label: 'set the pinned limits in discern.toml',
    disposition: 'run',
    note: pins.map((p) => `${p.name} ${p.from} → ${p.to}`).join(', '),
    outcome: committed.ok || committed.stage === 'commit' ? 'ok' : 'failed',
    duration_s: 0,
  };
  if (!committed.ok) {
    const commitStep: DiscernStep = {
      kind: 'git',
      label: 'commit discern.toml',
      disposition: 'run',
      note: message.subject,
      outcome: committed.stage === 'commit' ? 'failed' : 'skipped',
      duration_s: Math.round((Date.now() - started) / 1000),
    };
    const restoreStep: DiscernStep = {
      kind: 'env',
      label: 'restore discern.toml',
      disposition: 'run',
      outcome: committed.restored ? 'ok' : 'failed',
      duration_s: 0,
    };
    const outcome = failed(committed.reason, [editStep, commitStep, restoreStep]);
    if (!committed.restored && outcome.refusal) {
      outcome.refusal = {
        error: 'pin_failed',
        message: `The pin did not complete: ${committed.reason}. discern.toml or its index entry could not be put back as it was: check \`git status\`.`,
        next: {
          recovery: 'restore discern.toml with `git checkout HEAD -- discern.toml` if it differs, then pin again',
        },
      };
    }
    return outcome;
  }
  const commitStep: DiscernStep = {
    kind: 'git',
    label: 'commit discern.toml',
    disposition: 'run',
    note: `${committed.commit.slice(0, 12)} ${message.subject}`,
    outcome: 'ok',
    duration_s: Math.round((Date.now() - started) / 1000),
  };

  // The pin commit's configuration as done will load it: re-resolved from the committed file.
  const [after, resolution] = await Promise.all([
    readHeadIds(project.root, ctx.env),
    resolveProject({ path: project.root, pathFrom: 'argument', env: ctx.env }),
  ]);
  const carry =
    after === undefined || !resolution.ok
      ? {
          status: 'not_carried' as const,
          reason: `the pin commit's configuration could not be read back${resolution.ok ? '' : ` (${resolution.refusal.message})`}`,
        }
      : await carryProof({
          root: project.root,
          env: ctx.env,
          paths: statePathsOf(project),
          trunk: project.trunk.name,
          branch: m.state.branch,
          before: head,
          after,
          beforeConfig: project.config,
          afterConfig: resolution.project.config,
          measured,
          definitions: m.gate.standards,
          pins,
          ...(m.handle ? { handle: m.handle } : {}),
        });
  const carryStep: DiscernStep = {
    kind: 'job',
    label: 'carry the Proof forward to the pin commit',
    disposition: 'run',
    outcome: carry.status === 'carried' ? 'ok' : 'skipped',
    duration_s: 0,
    ...(carry.status === 'not_carried' ? { note: carry.reason } : {}),
  };
  const done = mcp ? 'discern_done' : '`discern done`';
  return {
    ...facts,
    steps: [...m.steps, editStep, commitStep, carryStep],
    data: {
      ...data,
      pin_commit: committed.commit,
      proof_carried: {
        status: carry.status,
        from: head.commit,
        ...(carry.status === 'not_carried' ? { reason: carry.reason } : {}),
      },
      ...(carry.status === 'carried' ? { proof: carry.proof } : {}),
    },
    hints: [
      ...(skipped.length > 0 ? [`Left as they are: ${skipped.map((s) => `${s.name} (${s.reason})`).join('; ')}.`] : []),
      carry.status === 'carried'
        ? `Committed ${committed.commit.slice(0, 12)} (${message.subject}); its Proof was carried from ${head.commit.slice(0, 12)}, so ${done} returns it without running the gate. Relay the Proof line.`
        : `Committed ${committed.commit.slice(0, 12)} (${message.subject}); no Proof was carried (${carry.reason}): run ${done} for Proof of the pin commit.`,
    ],
  };
}
