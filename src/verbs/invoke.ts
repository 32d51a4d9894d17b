// One call of one verb, the same for every surface: validate the input against the generated schema, resolve
// the project as the verb's contract says, run the handler, and build the envelope from its facts. An
// unexpected exception becomes internal_error with a crash record.
import type { ErrorObject } from 'ajv';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { INPUT_VALIDATORS } from '../../generated/validator-loaders.js';
import { VERBS, type VerbId, type VerbRegistration } from '../../generated/registry.js';
import type { DiscernResult } from '../../generated/types.js';
import { buildEnvelope } from '../core/envelope.js';
import { collectingSkips, type SkippedRecord } from '../engine/state/state-record.js';
import type { AnyOutcome } from '../core/outcome.js';
import { ContractViolation } from '../core/contract-violation.js';
import type { LineSink } from '../engine/gate/stream-listener.js';
import { argumentsHelp, type LiveProgress, type PersonChannel, type Surface, type VerbContext } from './context.js';
import { HANDLERS } from './index.js';
import { WriteDenied } from '../engine/state/write-denied.js';
import { faultRequested } from '../engine/faults.js';
// Loaded with the CLI itself: most calls are project verbs, and one module graph loads faster than two.
import { resolveProject } from '../engine/project/resolve.js';
import { GitTooOld, GitUnavailable } from '../engine/git/git.js';
// Path arithmetic only, kept in the CLI's core chunk: the logbook's own code loads only when a call records.
import { logbookPaths } from '../engine/logbook/paths.js';
import type { TreeLook } from '../engine/logbook/tree-probe.js';
import { lookAtCheckout, type SharedLooks } from '../engine/git/checkout-status.js';

export interface InvokeOptions {
  surface: Surface;
  /** Where a call without `path` is aimed: the CLI's working directory or the MCP server's target. */
  defaultTarget: string;
  env: Readonly<Record<string, string | undefined>>;
  signal: AbortSignal;
  /** Where live progress goes, when the caller can show it. */
  progress?: LiveProgress;
  /** Where the jobs' output lines go under [gate] stream, when the caller can show them (the CLI). */
  output?: LineSink;
  /** The MCP client's clientInfo.name. */
  client?: string;
  /**
   * The checkouts an MCP client's roots hold, when there are several and the server was started outside any:
   * a call without `path` must choose one (surfaces/mcp/roots.ts).
   */
  targetChoices?: readonly string[];
  /** The surface's way to ask the person directly, when it has one. */
  person?: PersonChannel;
  /**
   * false: the call is not written to the logbook. The desk's own refreshes read status every few seconds; they
   * are glances at the repository, not calls anyone made, and would drown the logbook's findings.
   */
  logbook?: boolean;
}

/**
 * What the logbook needs from a call beyond its result: the checkout it resolved, once known, and for the verbs
 * that test a tree, a look at the checkout taken as the call began (docs/decisions/0026).
 */
interface LogbookSession {
  checkout?: { root: string; commonDir: string };
  before?: Promise<TreeLook | undefined>;
  /** The looks the verb shares with the logbook (docs/decisions/0043). */
  looks?: SharedLooks;
}

/** A call without `path` when the client's roots offer several checkouts: which one is the caller's to say. */
function ambiguousTarget(choices: readonly string[]): AnyOutcome['refusal'] & object {
  return {
    error: 'ambiguous',
    message: `The MCP client's roots hold ${choices.length} git checkouts: ${choices.join(', ')}. Pass \`path\`, an absolute path inside the one this call is for; discern does not guess.`,
    next: { help: 'the `path` section of `discern docs mcp-server`' },
  };
}

/** Verbs that run the project's jobs on the invoking checkout: their tree is looked at before and after. */
const TREE_VERBS: ReadonlySet<string> = new Set(['done', 'test', 'prepare', 'standards']);

export async function invoke(id: VerbId, rawInput: unknown, options: InvokeOptions): Promise<DiscernResult> {
  const startedAt = Date.now();
  const session: LogbookSession = {};
  const result = await runVerb(id, rawInput, options, session);
  if (session.checkout !== undefined && options.logbook !== false) {
    try {
      // Loaded only here: calls outside a project (help, docs, --version never gets this far) never load it.
      const { record } = await import('../engine/logbook/record.js');
      await record({
        result,
        surface: options.surface,
        env: options.env,
        ...(options.client !== undefined ? { client: options.client } : {}),
        root: session.checkout.root,
        paths: logbookPaths(session.checkout.commonDir),
        startedAt,
        ...(session.before ? { before: session.before } : {}),
        ...(session.looks?.last ? { after: session.looks.last } : {}),
      });
    } catch {
      // The logbook is advisory: not even a module that fails to load may change the call's result.
    }
  }
  return result;
}

async function runVerb(
  id: VerbId,
  rawInput: unknown,
  options: InvokeOptions,
  session: LogbookSession,
): Promise<DiscernResult> {
  const registration: VerbRegistration = VERBS[id];
  const subject = { verb: registration.verb, policy: registration.policy };
  let target = options.defaultTarget;
  // The handler's module starts loading now, so its files are read while the input and project are checked.
  const loading = HANDLERS[id]();
  loading.catch(() => undefined); // a failure surfaces where the handler is awaited
  try {
    const validators = await INPUT_VALIDATORS[id]();
    const validateInput = options.surface === 'mcp' ? validators.mcp : validators.cli;
    if (!validateInput(rawInput)) {
      const help = argumentsHelp(
        { surface: options.surface },
        registration.cliPath.join(' '),
        registration.mcpTool ?? undefined,
      );
      return buildEnvelope(subject, {
        refusal: {
          error: 'invalid_arguments',
          message: describeInputErrors(validateInput.errors ?? []),
          next: { help },
        },
      });
    }
    const input = rawInput as { path?: string };
    target = input.path ?? options.defaultTarget;
    if (faultRequested(options.env, `verb:${id}`)) throw new Error(`fault injected at verb:${id} (DISCERN_FAULT)`);
    const base: VerbContext = {
      signal: options.signal,
      env: options.env,
      target,
      surface: options.surface,
      ...(options.progress ? { progress: options.progress } : {}),
      ...(options.output ? { output: options.output } : {}),
      ...(options.client !== undefined ? { client: options.client } : {}),
      ...(options.person ? { person: options.person } : {}),
    };
    let context: object = base;
    if (registration.project !== 'none') {
      const choices = options.targetChoices ?? [];
      if (input.path === undefined && choices.length > 1)
        return buildEnvelope(subject, { refusal: ambiguousTarget(choices) });
      const pathFrom = input.path === undefined ? 'working-directory' : 'argument';
      const resolution = await resolveProject({
        path: target,
        pathFrom,
        requireTrunk: registration.trunk === 'required',
        env: options.env,
        signal: options.signal,
      });
      // The work loop waits for an unfinished setup (docs/decisions/0022), before any other refusal: on the trunk
      // mid-setup there is no discern.toml yet, and "finish setup" is the answer, not "no project".
      const checkout = resolution.ok ? resolution.project : resolution.partial.checkout;
      // The logbook records calls in a project whose discern.toml could be read and does not turn it off.
      const config = resolution.ok ? resolution.project.config : resolution.partial.config;
      if (checkout !== undefined && config !== undefined && config.project?.logbook !== false) {
        session.checkout = { root: checkout.root, commonDir: checkout.commonDir };
        if (TREE_VERBS.has(id)) {
          // One look serves the logbook and the verb: done and test read their status and HEAD from it rather
          // than asking git the same questions again at the same moment (docs/decisions/0043).
          // done compares file modes where the filesystem keeps them (git/file-modes.ts); its look does too.
          const modes = id === 'done' ? { compareModesIn: join(checkout.gitDir, 'discern') } : {};
          const looks: SharedLooks = { first: lookAtCheckout(checkout.root, options.env, options.signal, modes) };
          session.looks = looks;
          session.before = import('../engine/logbook/tree-probe.js').then(
            ({ treeLookFrom }) => treeLookFrom(looks.first),
            () => undefined,
          );
        }
      }
      if (registration.setupGate && checkout !== undefined) {
        const refusal = await setupGate(registration, checkout.commonDir, { cwd: checkout.root, env: options.env });
        if (refusal) return buildEnvelope(subject, { refusal });
      }
      if (registration.project === 'required') {
        if (!resolution.ok) {
          const issues = resolution.partial.configIssues;
          const outcome: AnyOutcome = {
            refusal: resolution.refusal,
            ...(issues && issues.length > 0 ? { data: { issues } } : {}),
          };
          return buildEnvelope(subject, outcome);
        }
        context = { ...base, ...(session.looks ? { looks: session.looks } : {}), project: resolution.project };
      } else {
        context = { ...base, resolution };
      }
    }
    const handler = (await loading) as (input: unknown, ctx: object) => Promise<AnyOutcome>;
    const { value: outcome, skipped } = await collectingSkips(() => handler(rawInput, context));
    return buildEnvelope(subject, withSkippedRecords(outcome, skipped));
  } catch (error) {
    // git went missing after the checkout was found (it was found without git): a precondition, not a crash.
    if (error instanceof GitUnavailable && registration.project !== 'none') {
      return buildEnvelope(subject, {
        refusal: {
          error: 'precondition_failed',
          message: `${error.message}; discern needs git. Install git 2.38 or newer and put it on PATH.`,
          next: { rerun: 'discern doctor' },
        },
      });
    }
    if (error instanceof GitTooOld && (registration.errors as readonly string[]).includes('precondition_failed')) {
      return buildEnvelope(subject, {
        refusal: {
          error: 'precondition_failed',
          message: `${error.message}. Install git 2.38 or newer.`,
          next: { rerun: 'discern doctor' },
        },
      });
    }
    if (error instanceof WriteDenied && (registration.errors as readonly string[]).includes('write_denied')) {
      return buildEnvelope(subject, {
        refusal: {
          error: 'write_denied',
          message: `${error.message}, so ${registration.verb} changed nothing.`,
          next: {
            target: error.path,
            access:
              error.code === 'ENOSPC' || error.code === 'EDQUOT' ? 'writable (free space on its disk)' : 'writable',
          },
        },
      });
    }
    const { writeCrashRecord } = await import('../engine/crash/record.js');
    const record = writeCrashRecord({ verb: registration.verb, target, surface: options.surface, error });
    const message =
      error instanceof ContractViolation
        ? `discern broke its own result contract: ${error.message}.`
        : `discern failed unexpectedly: ${error instanceof Error ? error.message : String(error)}.`;
    return buildEnvelope(subject, { refusal: { error: 'internal_error', message, next: { record } } });
  }
}

/** The state records the call skipped, as one advisory: the call went on as if they were absent. */
function withSkippedRecords(outcome: AnyOutcome, skipped: readonly SkippedRecord[]): AnyOutcome {
  const [first, ...rest] = skipped.map((s) => `${s.why}; skipped`);
  if (first === undefined) return outcome;
  return {
    ...outcome,
    advisories: [
      ...(outcome.advisories ?? []),
      {
        kind: 'state-record-skipped',
        evidence: [first, ...rest],
        next_action:
          'discern went on as if the record were absent. Look at the file, then remove it (or restore it from a backup); a damaged record is never trusted.',
      },
    ],
  };
}

/** setup_unfinished for a setup-gated verb while a setup is begun and not accepted; nothing otherwise. */
async function setupGate(
  registration: VerbRegistration,
  commonDir: string,
  run: { cwd: string; env: Readonly<Record<string, string | undefined>> },
): Promise<AnyOutcome['refusal']> {
  // Most repositories have no setup state at all: one stat, and the setup module never loads.
  if (!existsSync(join(commonDir, 'discern', 'setup.json'))) return undefined;
  const { unfinishedSetup } = await import('../engine/setup/state.js');
  const setup = await unfinishedSetup(commonDir, run);
  if (setup === undefined) return undefined;
  return {
    error: 'setup_unfinished',
    message: `A setup was begun on \`${setup.branch}\` and is not accepted yet (${setup.phase}): \`discern ${registration.cliPath.join(' ')}\` works once it lands on the trunk.`,
    next: { next: setup.next },
  };
}

/** Ajv's errors as one sentence naming each offending key. */
export function describeInputErrors(errors: readonly ErrorObject[]): string {
  const parts = errors.map((e) => {
    const at = e.instancePath === '' ? 'arguments' : `\`${e.instancePath.slice(1).replace(/\//g, '.')}\``;
    const params = e.params as Record<string, unknown>;
    switch (e.keyword) {
      case 'additionalProperties':
        return `\`${String(params['additionalProperty'])}\` is not an accepted key`;
      case 'type':
        return `${at} must be ${String(params['type'])}`;
      case 'required':
        return `\`${String(params['missingProperty'])}\` is required`;
      case 'pattern':
        return e.instancePath === '/path' ? '`path` must be an absolute path' : `${at} has a form that is not accepted`;
      default:
        return `${at} ${e.message ?? 'is not accepted'}`;
    }
  });
  return `The arguments do not fit: ${[...new Set(parts)].join('; ')}.`;
}
