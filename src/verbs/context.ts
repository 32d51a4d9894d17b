// What a handler receives besides its input. Project verbs get the resolved project; `inspect` verbs (doctor)
// get the resolution itself, success or refusal, because reporting on it is their job.
import type { LiveEvent } from '../engine/live/live-events.js';
import type { LineSink } from '../engine/gate/stream-listener.js';
import type { Project, Resolution } from '../engine/project/resolve.js';
import type { SharedLooks } from '../engine/git/checkout-status.js';
import type { OperationWriter } from '../engine/journal/index.js';

export type Surface = 'cli' | 'mcp';

/** One live progress update for the caller: MCP notifications/progress, or the CLI's live view. */
export interface LiveUpdate {
  message: string;
  /** Monotonic: finished producers so far. */
  completed: number;
  /** Producers planned, when known. */
  total?: number;
  /** A fact worth keeping on screen (the progress handle, a failure), not just the latest status. */
  durable?: boolean;
  /** The same news as structure, for a view that draws rows (the CLI's live region); `message` stays the summary. */
  events?: readonly LiveEvent[];
  /** Structure only, nothing new to say: a channel that shows only messages (MCP notifications) skips it. */
  quiet?: boolean;
}

export type LiveProgress = (update: LiveUpdate) => void;

export interface VerbContext {
  signal: AbortSignal;
  /** Present when the caller can show progress live; long verbs report through it. */
  progress?: LiveProgress;
  /** Present when the caller can show the jobs' output lines as they arrive (the CLI); used under [gate] stream. */
  output?: LineSink;
  env: Readonly<Record<string, string | undefined>>;
  /** The absolute path the call is aimed at: input.path, else the CLI's working directory or the server's target. */
  target: string;
  surface: Surface;
  /** The MCP client's clientInfo.name, when the call came over MCP and the client named itself. */
  client?: string;
  /** A way to ask the person directly, when the surface has one (the client's elicitation, a terminal). */
  person?: PersonChannel;
  /**
   * For a verb that tests a tree, with the logbook on: the look at the checkout taken as the call began, to read
   * from instead of asking git again, and where the verb leaves its last status for the logbook (docs/decisions/0043).
   */
  looks?: SharedLooks;
  /**
   * The run this call belongs to, when a verb runs another (accept's gate): the inner verb reports into its
   * journal under its handle instead of opening and announcing one of its own.
   */
  operation?: SharedOperation;
}

/** A running operation's journal, lent to a verb that runs inside it. */
export interface SharedOperation {
  writer: OperationWriter;
  handle: string;
  readBack: string;
}

/**
 * A question put to the person through a channel outside the agent's arguments (docs/decisions/0049): an MCP
 * client's elicitation form, or the terminal the CLI runs in. What it proves is in spec/vocabularies.yaml's
 * consent_sources: that discern asked, not who answered.
 */
export interface PersonChannel {
  via: 'elicited' | 'terminal';
  /** The MCP client that asked (its clientInfo), recorded with the consent. */
  client?: { name: string; version: string };
  /** One yes-or-no question; 'unavailable' when the channel failed (the client errored or timed out). */
  ask(question: PersonQuestion): Promise<PersonAnswer>;
}

export interface PersonQuestion {
  /** The short label of the yes box, e.g. "Land feature at 1a2b3c4d5e6f on main". */
  title: string;
  /** Everything the person decides on, one fact per line. */
  message: string;
}

export type PersonAnswer = 'approved' | 'declined' | 'cancelled' | 'unavailable';

export interface ProjectVerbContext extends VerbContext {
  project: Project;
}

export interface InspectVerbContext extends VerbContext {
  resolution: Resolution;
}

/** Where a caller learns what a verb accepts: its CLI help, or over MCP its tool's input schema. */
export function argumentsHelp(
  ctx: Pick<VerbContext, 'surface'>,
  verb: string,
  tool = `discern_${verb.replace(/[ -]/g, '_')}`,
): string {
  return ctx.surface === 'mcp' ? `the inputSchema of ${tool} in tools/list` : `\`discern help ${verb}\``;
}
