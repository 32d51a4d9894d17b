// The CLI: check argv against the generated grammar, dispatch, invoke the verb, present the result, and exit
// with the status the result calls for.
import { VERBS } from '../../../generated/registry.js';
import type { DiscernHelpCliCommand, DiscernResult } from '../../../generated/types.js';
import { buildEnvelope } from '../../core/envelope.js';
import { workingDirectory } from '../../engine/process/working-directory.js';
import { invoke, type InvokeOptions } from '../../verbs/invoke.js';
import { checkArgv, type ArgvCheck, type Format, type Presentation } from './argv-check.js';
import { dispatch } from './dispatch.js';
import { EXIT, exitCodeFor } from './exit-codes.js';
import { present } from './present.js';
import { jobLines } from './job-lines.js';
import { utf8Locale } from './locale.js';
import { terminalPerson } from './terminal-person.js';
import { installSignalHandlers, onInterrupt, releaseSignals } from './signals.js';

export async function run(argv: readonly string[]): Promise<number> {
  const controller = new AbortController();
  installSignalHandlers(() => controller.abort());
  installLastResorts();
  let format: Format = 'human';
  try {
    const check = checkArgv(argv);
    if (check.kind === 'version') {
      const { VERSION } = await import('../../../generated/version.js');
      await write(process.stdout, `discern ${VERSION}\n`);
      return EXIT.ok;
    }
    if (check.kind === 'error') return await grammarError(check);
    format = check.format;
    const person = terminalPerson();
    const common = {
      surface: 'cli' as const,
      defaultTarget: workingDirectory(),
      env: process.env,
      signal: controller.signal,
      ...(person ? { person } : {}),
    };
    if (check.kind === 'help')
      return await emit(
        await invoke('help', check.path.length > 0 ? { command: check.path } : {}, common),
        check.format,
        check.presentation,
      );
    // sade sees the checked tokens without the global format flags, which only choose the presentation.
    if (check.command.verb === undefined && check.command.path[0] === 'desk')
      return await desk(check.format, check.presentation, common);
    if (check.command.verb === undefined) return await protocol(check.command.path, check.positionals, common);
    const target = dispatch(check.tokens, check.command, check.present);
    if (target.kind === 'protocol') return await protocol(target.path, check.positionals, common);
    const { noColor, plain } = check.presentation;
    // The live view loads only for the human format: a --json or --markdown call prints nothing while it runs.
    const live =
      check.format === 'human'
        ? (await import('./live.js')).liveView(check.format, {
            ...(noColor || plain ? { color: false } : {}),
            ascii: plain,
          })
        : undefined;
    // [gate] stream's job lines go to stderr whatever the format; the verb asks for them only under the key.
    const output = jobLines({
      ascii: plain || !utf8Locale(process.env),
      write: live ? live.line : (line) => process.stderr.write(`${line}\n`),
    });
    const running = invoke(target.verb, target.input, {
      ...common,
      output,
      ...(live ? { progress: live.progress } : {}),
    });
    onInterrupt(() => running, live?.clear);
    const result = await running.finally(() => live?.clear());
    if (target.verb === 'done' && (target.input['sarif'] !== undefined || process.env['GITHUB_ACTIONS'] === 'true')) {
      // The CI host's reports, built from this result (ci-host.ts); one that cannot be written fails the call.
      const { ciReports } = await import('./ci-host.js');
      const problem = await ciReports(result, target.input, workingDirectory(), process.env);
      if (problem !== undefined) {
        // done refused a target it could not write before it ran; this is a race after the run. Under --json
        // stderr carries only workflow commands, so there the exit status alone says it.
        if (check.format !== 'json') await write(process.stderr, `discern: ${problem}\n`);
        const code = await emit(result, check.format, check.presentation);
        return code === EXIT.ok ? EXIT.failure : code;
      }
    }
    const predicate = quietPredicate(check.command, check.present, check.format);
    if (predicate !== undefined) return await answerQuietly(result, predicate);
    const print = barePrint(check.command, check.present, check.format);
    if (print !== undefined) return await printBare(result, print);
    if (check.format === 'human' && check.command.bare?.run !== undefined) {
      if (!result.ok) return await answerOnStderr(result);
      const command = commandAt(result, check.command.bare.run);
      if (command !== undefined) return await handOver(command, check.command.path);
    }
    return await emit(result, check.format, check.presentation);
  } catch (error) {
    const { writeCrashRecord } = await import('../../engine/crash/record.js');
    const record = writeCrashRecord({ verb: 'cli', target: workingDirectory(), surface: 'cli', error });
    if (format === 'json') {
      const result = buildEnvelope(
        { verb: 'help', policy: VERBS.help.policy },
        {
          refusal: {
            error: 'internal_error',
            message: `discern failed unexpectedly: ${error instanceof Error ? error.message : String(error)}.`,
            next: { record },
          },
        },
      );
      await write(process.stdout, await present(result, 'json'));
    } else {
      await write(process.stderr, `discern: internal error; crash record at ${record}\n`);
    }
    return EXIT.internal;
  }
}

/** Commands that serve a protocol instead of returning a result: the MCP server, queue, and the agents' hook. */
async function protocol(path: readonly string[], positionals: string[], common: InvokeOptions): Promise<number> {
  if (path[0] === 'queue') {
    const { queue } = await import('./queue.js');
    return queue(positionals);
  }
  if (path[0] === 'hook') {
    const { sessionStartHook } = await import('./session-hook.js');
    return sessionStartHook(common);
  }
  const { serve } = await import('../mcp/serve.js');
  return serve();
}

/**
 * `discern` and `discern desk`: the live desk when a person is at a terminal (stdin and stdout both TTYs, no
 * result format asked for); otherwise status's result, in the format asked for, with status's exit code — a
 * pipe or a CI job never waits on a screen nobody reads.
 */
async function desk(format: Format, presentation: Presentation, common: InvokeOptions): Promise<number> {
  const interactive = format === 'human' && process.stdin.isTTY === true && process.stdout.isTTY === true;
  if (!interactive) return await emit(await invoke('status', {}, common), format, presentation);
  const { openDesk } = await import('./desk/desk.js');
  const outcome = await openDesk(common, presentation);
  return outcome.kind === 'exit' ? outcome.code : await emit(outcome.result, 'human', presentation);
}

/**
 * A reader that closes the pipe early (`discern docs | head`) is not a failure: stop quietly. Anything thrown
 * outside the awaited call chain still ends as exit 70 with a crash record, never a bare stack trace.
 */
function installLastResorts(): void {
  // Write errors are reported where the result is written (emit); this listener only keeps them from being
  // thrown as uncaught, and ends quietly when the reader has gone.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? EXIT.ok);
  });
  const crash = (error: unknown): void => {
    // Loaded only on this path: the crash recorder is not part of a normal run's startup.
    void import('../../engine/crash/record.js').then(
      ({ writeCrashRecord }) => {
        const record = writeCrashRecord({ verb: 'cli', target: workingDirectory(), surface: 'cli', error });
        process.stderr.write(`discern: internal error; crash record at ${record}\n`);
        process.exit(EXIT.internal);
      },
      () => process.exit(EXIT.internal),
    );
  };
  process.once('uncaughtException', crash);
  process.once('unhandledRejection', crash);
}

/** The predicate flag of a bare call (no result format), e.g. `impact --has docs`: its JSON pointer into data. */
function quietPredicate(
  command: DiscernHelpCliCommand,
  present: ReadonlySet<string>,
  format: Format,
): string | undefined {
  if (format !== 'human') return undefined;
  return (
    command.bare?.predicate ??
    command.flags.find((f) => f.predicate !== undefined && present.has(f.spellings[0] ?? ''))?.predicate
  );
}

/** The value a bare call prints alone: the command's own (`discern identity`) or a given flag's (`verify --signer-line`). */
function barePrint(command: DiscernHelpCliCommand, present: ReadonlySet<string>, format: Format): string | undefined {
  if (format !== 'human') return undefined;
  return (
    command.bare?.print ?? command.flags.find((f) => f.print !== undefined && present.has(f.spellings[0] ?? ''))?.print
  );
}

/** A bare predicate prints nothing: exit 0 when true, 1 when false; a failed call says why on stderr. */
async function answerQuietly(result: DiscernResult, pointer: string): Promise<number> {
  if (!result.ok) {
    await write(process.stderr, `discern: ${result.message}\n`);
    return exitCodeFor(result);
  }
  return at(result.data, pointer) === true ? EXIT.ok : EXIT.failure;
}

/**
 * A bare read (`discern identity`, `discern config get`): only the value, for scripts — a string as is, an array
 * of strings one per line, anything else as JSON. A failed call says why on stderr.
 */
async function printBare(result: DiscernResult, pointer: string): Promise<number> {
  if (!result.ok) {
    await write(process.stderr, `discern: ${result.message}\n`);
    return exitCodeFor(result);
  }
  const value = at(result.data, pointer);
  const text =
    typeof value === 'string'
      ? value
      : Array.isArray(value) && value.every((v) => typeof v === 'string')
        ? value.join('\n')
        : JSON.stringify(value);
  const failed = await write(process.stdout, text === undefined || text === '' ? '' : `${text}\n`);
  return failed && failed.code !== 'EPIPE' ? EXIT.failure : EXIT.ok;
}

/** A refusal of a bare `run` call: its message and next action on stderr, nothing on stdout. */
async function answerOnStderr(result: DiscernResult): Promise<number> {
  const next = result.hints?.[result.hints.length - 1];
  await write(process.stderr, `discern: ${result.message}\n${next !== undefined ? `discern: ${next}\n` : ''}`);
  return exitCodeFor(result);
}

interface ChildCommand {
  program: string;
  args: string[];
  cwd: string;
}

/** The command ({program, args, cwd}) a bare `run` call hands over to, when the result's data holds one. */
function commandAt(result: DiscernResult, pointer: string): ChildCommand | undefined {
  const value = at(result.data, pointer);
  if (typeof value !== 'object' || value === null) return undefined;
  const { program, args, cwd } = value as Record<string, unknown>;
  if (
    typeof program !== 'string' ||
    typeof cwd !== 'string' ||
    !Array.isArray(args) ||
    !args.every((a) => typeof a === 'string')
  )
    return undefined;
  return { program, args: args as string[], cwd };
}

/**
 * A bare `discern scripts <name>`: the checked command runs as a protocol, like `discern queue` — directly, with
 * this terminal's stdio and every signal forwarded — and its exit status is discern's.
 */
async function handOver(command: ChildCommand, path: readonly string[]): Promise<number> {
  const { runInherited } = await import('./child.js');
  // From here the script's signals are its own: runInherited forwards them as soon as it has spawned it.
  releaseSignals();
  return runInherited(command.program, command.args, command.cwd, `discern ${path.join(' ')}`);
}

function at(data: unknown, pointer: string): unknown {
  let value: unknown = data;
  for (const key of pointer.split('/').slice(1))
    value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}

/** Resolves once `text` is handed to the OS (or the write failed), so exiting afterwards loses nothing. */
function write(stream: NodeJS.WriteStream, text: string): Promise<NodeJS.ErrnoException | null> {
  return new Promise((resolve) => {
    stream.write(text, (error) => resolve(error ?? null));
  });
}

/** Writes the result; a result that cannot be delivered (a full disk, a closed descriptor) is a failure. */
async function emit(result: DiscernResult, format: Format, presentation: Presentation): Promise<number> {
  // Known before writing: a reader that closes the pipe early ends the process from the EPIPE handler, which
  // must still exit with the result's status (a failed gate is 1 even under `| head`).
  process.exitCode = exitCodeFor(result);
  const failed = await write(process.stdout, await present(result, format, presentation));
  if (failed && failed.code !== 'EPIPE') {
    await write(
      process.stderr,
      `discern: the result could not be written to stdout (${failed.code ?? failed.message})\n`,
    );
    return EXIT.failure;
  }
  return exitCodeFor(result);
}

async function grammarError(check: Extract<ArgvCheck, { kind: 'error' }>): Promise<number> {
  if (check.format === 'json') {
    const help =
      check.query.length > 0 && check.error === 'invalid_arguments'
        ? `\`discern help ${check.query.join(' ')}\``
        : '`discern help`';
    const result = buildEnvelope(
      { verb: 'help', policy: VERBS.help.policy },
      {
        data: { query: check.query, suggestions: check.suggestions, ...(check.usage ? { usage: check.usage } : {}) },
        refusal:
          check.error === 'unknown_command'
            ? { error: 'unknown_command', message: check.message, next: {} }
            : check.error === 'renamed_command'
              ? { error: 'renamed_command', message: check.message, next: { command: check.suggestions[0] ?? '' } }
              : { error: 'invalid_arguments', message: check.message, next: { help } },
      },
    );
    await write(process.stdout, await present(result, 'json'));
  } else {
    const pointer =
      check.error === 'renamed_command'
        ? ` Run \`discern ${check.suggestions[0] ?? ''}\` instead.`
        : check.usage
          ? ` Usage: ${check.usage}`
          : check.suggestions.length > 0
            ? ` Did you mean: ${check.suggestions.map((s) => `discern ${s}`).join(', ')}?`
            : ' See: discern help';
    await write(process.stderr, `discern: ${printable(`${check.message}${pointer}`)}\n`);
  }
  return EXIT.usage;
}

/**
 * A grammar error quotes the caller's tokens; on a terminal it must stay one line and must not carry control
 * sequences (an argument holding ESC [2J would clear the screen), so line breaks, C0/C1 controls and bidi
 * overrides are written as escapes.
 */
function printable(text: string): string {
  return text.replace(
    /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
