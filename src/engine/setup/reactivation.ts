// What setup accept tells the owner about each configured agent: agents read their instruction files and MCP
// configuration only when a session starts, so each needs a fresh session, a way to see discern connected, a
// repair, and the CLI to fall back on. One row per [project] agents member.
import type { DiscernSetupAcceptData } from '../../../generated/types.js';
import { CODEX_ADD_COMMAND } from '../refresh/agents.js';
import type { Agent } from './proposal.js';

type Reactivation = DiscernSetupAcceptData['reactivation'][number];

const CHECKS: Readonly<Record<Agent, string>> = {
  claude_code: 'Start a new Claude Code session in the project and run `/mcp`: `discern` is listed as connected.',
  codex: 'Start a new Codex session in the project and run `/mcp`: `discern` is listed with its tools.',
  gemini: 'Start a new Gemini CLI session in the project and run `/mcp`: `discern` is listed as connected.',
  cursor: 'Reopen the project in Cursor and look under Settings → MCP: `discern` is enabled and lists its tools.',
  copilot: 'Reopen the project in VS Code, run “MCP: List Servers” from the Command Palette: `discern` is running.',
};

/**
 * Codex reads the project's .codex/config.toml only in a project it trusts; elsewhere refresh cannot wire it,
 * and the repair is registering the server with Codex itself.
 */
const RECOVERY: Readonly<Partial<Record<Agent, string>>> = {
  codex: `discern refresh (in a project Codex trusts), else ${CODEX_ADD_COMMAND}`,
};

export function reactivation(agents: readonly Agent[]): Reactivation[] {
  return agents.map((agent) => ({
    agent,
    check: CHECKS[agent],
    recovery: RECOVERY[agent] ?? 'discern refresh',
    fallback: 'discern status --markdown',
  }));
}

export function activationContext(root: string): string {
  return `Coding agents read their instruction files and MCP configuration only when a session starts: a session that was already open during setup does not see discern's tools. Start a fresh session of each agent in ${root} and confirm with its check; until then the CLI does the same work.`;
}
