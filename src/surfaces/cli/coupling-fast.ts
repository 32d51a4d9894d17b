// The short path of `discern coupling [--file <path>]… [--with <path>] --json` (docs/decisions/0025): when the
// project resolved before is provably the same (project-memo.ts), the verb's handler runs here without loading
// the CLI (grammar, sade, validators, every verb's registration) or the configuration parser, which are most of
// a warm call's cost — with the history cached for HEAD it then reads a few files and starts no process. Anything
// this does not answer with certainty — another flag or format, a changed discern.toml, any refusal — returns
// undefined and the full CLI answers instead, so every result comes from the same handler and envelope builder.
import type { CompletionPolicy } from '../../../generated/registry.js';
import type { DiscernCouplingInput } from '../../../generated/types.js';
import { buildEnvelope } from '../../core/envelope.js';
import { serializeResult } from '../../core/serialize.js';
import { rememberedProject } from '../../engine/coupling/project-memo.js';
import { workingDirectory } from '../../engine/process/working-directory.js';
import { runCoupling } from '../../verbs/coupling.js';

/**
 * What this path needs of the verb's registration, written out because the registry of every verb is a large
 * module; a test holds it equal to the generated one (test/verbs/coupling.test.ts).
 */
export const COUPLING_REGISTRATION = {
  verb: 'coupling',
  trunk: 'required',
  setupGate: false,
  policy: {
    required_postconditions: ['declared-outcome'],
    optional_advisories: ['state-record-skipped'],
    refusal: 'failure',
    cancellation: 'not-applicable',
    partial_effect: 'not-applicable',
    no_op: 'success',
    recovery_owner: 'caller',
  } satisfies CompletionPolicy,
} as const;

export async function answerCoupling(argv: readonly string[]): Promise<number | undefined> {
  const input = plainInput(argv);
  const registration = COUPLING_REGISTRATION;
  if (input === undefined || process.env['DISCERN_FAULT'] !== undefined) return undefined;
  const target = workingDirectory();
  // The trunk must exist (the verb's trunk: required): the memo is only taken after checking it does.
  const project =
    registration.trunk === 'required' && !registration.setupGate ? rememberedProject(target, process.env) : undefined;
  if (project === undefined) return undefined;
  const signal = new AbortController().signal;
  const outcome = await runCoupling(
    input,
    { project, env: process.env, signal, target, surface: 'cli' },
    { remembered: true },
  );
  if (outcome.refusal !== undefined) return undefined;
  const text = `${serializeResult(buildEnvelope({ verb: registration.verb, policy: registration.policy }, outcome))}\n`;
  // As the full CLI does: a reader that closed the pipe early (`| head`) is no failure of an ok result; any other
  // write error is.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
  });
  return new Promise((resolve) => {
    process.stdout.write(text, (error) => {
      if (!error || (error as NodeJS.ErrnoException).code === 'EPIPE') resolve(0);
      else
        process.stderr.write(
          `discern: the result could not be written to stdout (${(error as NodeJS.ErrnoException).code ?? error.message})\n`,
          () => resolve(1),
        );
    });
  });
}

/**
 * The call's input when argv is exactly `coupling`, `--json`, `--file <v>` (repeatable) and `--with <v>`, with
 * values the input schema accepts; undefined for anything else (the grammar checker's business).
 */
function plainInput(argv: readonly string[]): DiscernCouplingInput | undefined {
  if (argv[0] !== 'coupling') return undefined;
  const files: string[] = [];
  let other: string | undefined;
  let json = false;
  for (let i = 1; i < argv.length; i++) {
    const token = argv[i] as string;
    if (token === '--json' && !json) {
      json = true;
      continue;
    }
    const value = argv[i + 1];
    if (
      (token !== '--file' && token !== '--with') ||
      value === undefined ||
      value.length === 0 ||
      value.length > 1024 ||
      value.startsWith('-')
    )
      return undefined;
    if (token === '--file') files.push(value);
    else if (other === undefined) other = value;
    else return undefined;
    i++;
  }
  if (!json || files.length > 50) return undefined;
  const [first, ...rest] = files;
  return {
    ...(first !== undefined ? { file: [first, ...rest] } : {}),
    ...(other !== undefined ? { with: other } : {}),
  };
}
