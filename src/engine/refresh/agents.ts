// What discern writes for each coding agent it serves, in that agent's documented project-level format:
// the instruction file it reads, where it reads project MCP servers, its project hooks, and the folders it
// reads project skills from. One table, so refresh, uninstall and `skills list` agree on every path.
//
// Sources (checked when this was written): Claude Code reads CLAUDE.md, `.mcp.json` (`mcpServers`),
// `.claude/settings.json` `hooks` (a SessionStart hook's output joins the session's context) and
// `.claude/skills/`; Codex reads AGENTS.md, `.codex/config.toml` `[mcp_servers.<name>]` in a trusted project,
// and `.agents/skills/`; Gemini CLI reads GEMINI.md, `.gemini/settings.json` `mcpServers` (JSON with comments)
// and `.gemini/skills/` or its `.agents/skills/` alias; Cursor reads AGENTS.md, `.cursor/mcp.json`
// (`mcpServers`) and `.cursor/skills/`, `.agents/skills/` and `.claude/skills/`; Copilot (VS Code, the coding
// agent) reads AGENTS.md, `.vscode/mcp.json` (`servers` with `type`, JSON with comments) and
// `.github/skills/`, `.claude/skills/` and `.agents/skills/`. Only Claude Code gets a hook: VS Code reads its
// file too (so the hook prints the JSON both take), Gemini CLI's hooks are experimental and off unless enabled,
// and Cursor's run no command whose output reaches the session's context.
import type { JsonValue } from '../wiring/jsonc.js';
import { PATH_LAUNCH, PROJECT_LAUNCH, launchLine, type Launch } from './launch.js';

export const AGENT_IDS = ['claude_code', 'codex', 'gemini', 'cursor', 'copilot'] as const;
export type AgentId = (typeof AGENT_IDS)[number];
/** `[project] agents` omitted. */
export const DEFAULT_AGENTS: readonly AgentId[] = ['claude_code', 'codex'];

/** discern's own arguments that start its MCP server, after the launch's (launch.ts). */
const SERVER_ARGS = ['mcp'] as const;

/** The MCP entry's command and arguments with a launch: `discern mcp`, or `npx --no-install discern mcp`. */
function serverEntry(launch: Launch): { command: string; args: string[] } {
  return { command: launch.command, args: [...launch.args, ...SERVER_ARGS] };
}

/**
 * Codex's limit on one tool call: the reference's configured limit of an hour, from which await's 3,300 s
 * budget is derived. Codex's own default (60 s) would cut a gate run off.
 */
export const CODEX_TOOL_TIMEOUT_SEC = 3600;
/** Codex's own default start-up limit, the least discern writes. */
export const CODEX_STARTUP_FLOOR_SEC = 10;

/**
 * Codex's start-up limit from the wired command's measured start-up: four times it, in whole 5 s steps, never
 * under Codex's default, and never under what the file holds (a teammate's slower machine measured it), so
 * refresh on a faster machine does not churn the committed file.
 */
export function codexStartupTimeout(measuredMs: number | undefined, existing: number | undefined): number {
  const measured = measuredMs === undefined ? 0 : Math.ceil((4 * measuredMs) / 5000) * 5;
  return Math.max(CODEX_STARTUP_FLOOR_SEC, measured, Math.min(existing ?? 0, 600));
}

/** The startup_timeout_sec in discern's `[mcp_servers.discern]` table of a Codex config, if it has one. */
export function codexStartupIn(text: string | null): number | undefined {
  if (text === null) return undefined;
  const at = text.indexOf('[mcp_servers.discern]');
  if (at === -1) return undefined;
  const rest = text.slice(at + 1);
  const table = rest.slice(0, rest.search(/\n\s*\[/) === -1 ? undefined : rest.search(/\n\s*\[/));
  const value = /^\s*startup_timeout_sec\s*=\s*(\d+)\s*$/m.exec(table)?.[1];
  return value === undefined ? undefined : Number(value);
}

/** Codex's `[mcp_servers.discern]` table with a launch and a start-up limit. */
function codexBody(launch: Launch, startupSec = CODEX_STARTUP_FLOOR_SEC): string {
  const { command, args } = serverEntry(launch);
  return [
    '[mcp_servers.discern]',
    `command = "${command}"`,
    `args = [${args.map((a) => `"${a}"`).join(', ')}]`,
    `startup_timeout_sec = ${startupSec}`,
    `tool_timeout_sec = ${CODEX_TOOL_TIMEOUT_SEC}`,
  ].join('\n');
}

/**
 * Claude Code's SessionStart hook group with a launch: `discern hook session-start` prints status as JSON
 * (`hookSpecificOutput.additionalContext`), which Claude Code and VS Code, which also reads this file, both take.
 */
function statusHookGroup(launch: Launch): JsonValue {
  const command = `${launchLine(launch)} hook session-start`;
  return { matcher: 'startup|clear|compact', hooks: [{ type: 'command', command }] };
}

/** The group discern versions before the JSON hook wrote: `discern status --markdown`, with either launch. */
export const EARLIER_HOOK_GROUPS: readonly JsonValue[] = [PATH_LAUNCH, PROJECT_LAUNCH].map((launch) => ({
  matcher: 'startup|clear|compact',
  hooks: [{ type: 'command', command: `${launchLine(launch)} status --markdown` }],
}));

/** A hook command that starts discern's session context through a program named discern (`discern.js` too). */
const SESSION_COMMAND = /(^|[\s/])discern(\.[cm]?js)? (hook session-start|status --markdown)$/;

/** What a person runs to add the server to Codex by hand, with the given launch. */
export function codexAddCommand(launch: Launch): string {
  return `codex mcp add discern -- ${launchLine(launch)} mcp`;
}

/** The same, for the PATH's discern: what setup's reactivation hint names. */
export const CODEX_ADD_COMMAND = codexAddCommand(PATH_LAUNCH);

export type McpWiring =
  | { format: 'json'; path: string; serversKey: 'mcpServers' | 'servers'; entry: JsonValue; comments: boolean }
  | { format: 'toml-region'; path: string; body: string };

export interface HookWiring {
  path: string;
  /** Where the agent keeps the event's list of hook groups. */
  listPath: readonly string[];
  /** discern's hook group. */
  element: JsonValue;
  comments: boolean;
}

export interface AgentWiring {
  id: AgentId;
  name: string;
  instructions: InstructionFile;
  mcp: McpWiring;
  hooks?: HookWiring;
  /** Project folders the agent reads skills from, its own first. */
  skillFolders: readonly string[];
  /** The step a person takes before the agent starts a project's MCP server (approval or trust), with a launch. */
  trust: (launch: Launch) => string;
}

export type InstructionFile = 'CLAUDE.md' | 'AGENTS.md' | 'GEMINI.md';
export const INSTRUCTION_FILES: readonly InstructionFile[] = ['CLAUDE.md', 'AGENTS.md', 'GEMINI.md'];

// The table holds each agent's places and shapes with the PATH's discern; mcpWiringFor and hookWiringFor give
// them with the launch a project chooses.
const ENTRY = serverEntry(PATH_LAUNCH);

export const AGENTS: Readonly<Record<AgentId, AgentWiring>> = {
  claude_code: {
    id: 'claude_code',
    name: 'Claude Code',
    instructions: 'CLAUDE.md',
    mcp: {
      format: 'json',
      path: '.mcp.json',
      serversKey: 'mcpServers',
      entry: { type: 'stdio', ...ENTRY },
      comments: false,
    },
    hooks: {
      path: '.claude/settings.json',
      listPath: ['hooks', 'SessionStart'],
      element: statusHookGroup(PATH_LAUNCH),
      comments: false,
    },
    skillFolders: ['.claude/skills'],
    trust: () =>
      "Claude Code asks before it starts a server from a project's .mcp.json: approve `discern` when it asks (a server pending approval offers no tools; `/mcp` shows it).",
  },
  codex: {
    id: 'codex',
    name: 'Codex',
    instructions: 'AGENTS.md',
    mcp: {
      format: 'toml-region',
      path: '.codex/config.toml',
      body: codexBody(PATH_LAUNCH),
    },
    skillFolders: ['.agents/skills'],
    trust: (launch) =>
      `Codex reads .codex/config.toml only in a project it trusts: trust the project when Codex asks, or add the server for yourself with \`${codexAddCommand(launch)}\`.`,
  },
  gemini: {
    id: 'gemini',
    name: 'Gemini CLI',
    instructions: 'GEMINI.md',
    mcp: { format: 'json', path: '.gemini/settings.json', serversKey: 'mcpServers', entry: ENTRY, comments: true },
    skillFolders: ['.gemini/skills', '.agents/skills'],
    trust: () =>
      "Gemini CLI ignores a project's .gemini/settings.json in a folder it does not trust: trust the folder when it asks (or with `/permissions`).",
  },
  cursor: {
    id: 'cursor',
    name: 'Cursor',
    instructions: 'AGENTS.md',
    mcp: { format: 'json', path: '.cursor/mcp.json', serversKey: 'mcpServers', entry: ENTRY, comments: false },
    skillFolders: ['.cursor/skills', '.agents/skills', '.claude/skills'],
    trust: () =>
      "Cursor asks before it runs a server from a project's .cursor/mcp.json: enable `discern` when it asks, or under Settings → MCP.",
  },
  copilot: {
    id: 'copilot',
    name: 'Copilot',
    instructions: 'AGENTS.md',
    mcp: {
      format: 'json',
      path: '.vscode/mcp.json',
      serversKey: 'servers',
      entry: { type: 'stdio', ...ENTRY },
      comments: true,
    },
    skillFolders: ['.github/skills', '.claude/skills', '.agents/skills'],
    trust: () =>
      'VS Code asks you to trust an MCP server from .vscode/mcp.json the first time it starts: choose Trust (the `MCP: List Servers` command shows it).',
  },
};

/** Every folder any agent reads skills from: where refresh may have materialised skills before. */
export const ALL_SKILL_FOLDERS: readonly string[] = [...new Set(AGENT_IDS.flatMap((id) => AGENTS[id].skillFolders))];

/** The configured agents, in the table's order; `[project] agents` omitted means the default two. */
export function configuredAgents(agents: readonly string[] | undefined): AgentId[] {
  const wanted = new Set(agents ?? DEFAULT_AGENTS);
  return AGENT_IDS.filter((id) => wanted.has(id));
}

/** An agent's MCP wiring with the given launch: the same place and shape, the launch's command. */
export function mcpWiringFor(id: AgentId, launch: Launch, codexStartupSec?: number): McpWiring {
  const wiring = AGENTS[id].mcp;
  if (wiring.format === 'toml-region') return { ...wiring, body: codexBody(launch, codexStartupSec) };
  return { ...wiring, entry: { ...(wiring.entry as Record<string, JsonValue>), ...serverEntry(launch) } };
}

/** An agent's hook group with the given launch. */
export function hookWiringFor(id: AgentId, launch: Launch): HookWiring | undefined {
  const hooks = AGENTS[id].hooks;
  return hooks === undefined ? undefined : { ...hooks, element: statusHookGroup(launch) };
}

/**
 * Whether a hook group (one element of the event's list) runs discern's session context: through a program
 * named discern with any launch, or through one of the given launches (a `[project] command` of any name).
 */
export function isDiscernHookGroup(value: JsonValue, launches: readonly Launch[] = []): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const hooks = value['hooks'];
  const exact = new Set(
    launches.flatMap((l) => [`${launchLine(l)} hook session-start`, `${launchLine(l)} status --markdown`]),
  );
  return (
    Array.isArray(hooks) &&
    hooks.some((h) => {
      if (typeof h !== 'object' || h === null || Array.isArray(h)) return false;
      const command = h['command'];
      return typeof command === 'string' && (exact.has(command) || SESSION_COMMAND.test(command));
    })
  );
}

export interface SkillFolderChoice {
  folder: string;
  /** The agents that read skills from this folder among those configured. */
  agents: AgentId[];
}

/**
 * The fewest folders that give every configured agent the skills, so no agent is handed two copies it does
 * not need: among the smallest sets of folders that every agent reads from, the one holding the most agents'
 * own folders (then the first in table order). Claude Code and Codex read only their own folder, so with both
 * configured the others are served from those two; Cursor with Gemini share `.agents/skills`.
 */
export function skillFolders(agents: readonly AgentId[]): SkillFolderChoice[] {
  if (agents.length === 0) return [];
  const folders = ALL_SKILL_FOLDERS;
  let best: { mask: number; size: number; own: number } | undefined;
  for (let mask = 1; mask < 1 << folders.length; mask++) {
    const picked = folders.filter((_f, k) => (mask & (1 << k)) !== 0);
    if (!agents.every((id) => AGENTS[id].skillFolders.some((f) => picked.includes(f)))) continue;
    const own = agents.filter((id) => picked.includes(AGENTS[id].skillFolders[0] ?? '')).length;
    if (!best || picked.length < best.size || (picked.length === best.size && own > best.own))
      best = { mask, size: picked.length, own };
  }
  const picked = folders.filter((_f, k) => ((best?.mask ?? 0) & (1 << k)) !== 0);
  return picked.map((folder) => ({ folder, agents: agents.filter((id) => AGENTS[id].skillFolders.includes(folder)) }));
}
