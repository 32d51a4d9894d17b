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
// `.github/skills/`, `.claude/skills/` and `.agents/skills/`. Gemini's hooks must print JSON and Cursor's and
// Copilot's run no command whose output reaches the session's context, so only Claude Code gets a hook.
import type { JsonValue } from '../wiring/jsonc.js';
import { LAUNCHES, PATH_LAUNCH, launchLine, type Launch } from './launch.js';

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

/** Codex's `[mcp_servers.discern]` table with a launch. */
function codexBody(launch: Launch): string {
  const { command, args } = serverEntry(launch);
  return `[mcp_servers.discern]\ncommand = "${command}"\nargs = [${args.map((a) => `"${a}"`).join(', ')}]`;
}

/** Claude Code's SessionStart hook group with a launch: it runs `discern status --markdown`. */
function statusHookGroup(launch: Launch): JsonValue {
  const command = `${launchLine(launch)} status --markdown`;
  return { matcher: 'startup|clear|compact', hooks: [{ type: 'command', command }] };
}

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
  },
  gemini: {
    id: 'gemini',
    name: 'Gemini CLI',
    instructions: 'GEMINI.md',
    mcp: { format: 'json', path: '.gemini/settings.json', serversKey: 'mcpServers', entry: ENTRY, comments: true },
    skillFolders: ['.gemini/skills', '.agents/skills'],
  },
  cursor: {
    id: 'cursor',
    name: 'Cursor',
    instructions: 'AGENTS.md',
    mcp: { format: 'json', path: '.cursor/mcp.json', serversKey: 'mcpServers', entry: ENTRY, comments: false },
    skillFolders: ['.cursor/skills', '.agents/skills', '.claude/skills'],
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
export function mcpWiringFor(id: AgentId, launch: Launch): McpWiring {
  const wiring = AGENTS[id].mcp;
  if (wiring.format === 'toml-region') return { ...wiring, body: codexBody(launch) };
  return { ...wiring, entry: { ...(wiring.entry as Record<string, JsonValue>), ...serverEntry(launch) } };
}

/** An agent's hook group with the given launch. */
export function hookWiringFor(id: AgentId, launch: Launch): HookWiring | undefined {
  const hooks = AGENTS[id].hooks;
  return hooks === undefined ? undefined : { ...hooks, element: statusHookGroup(launch) };
}

/** Whether a hook group (one element of the event's list) is discern's. */
export function isDiscernHookGroup(value: JsonValue): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const hooks = value['hooks'];
  return (
    Array.isArray(hooks) &&
    hooks.some(
      (h) =>
        typeof h === 'object' &&
        h !== null &&
        !Array.isArray(h) &&
        typeof h['command'] === 'string' &&
        LAUNCHES.some((launch) => (h['command'] as string).startsWith(`${launchLine(launch)} status`)),
    )
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
