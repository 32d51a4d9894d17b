// Who made a verb call, as far as discern can tell (docs/decisions/0026). Over MCP the caller is an agent by
// construction, named by its client. On the CLI there is no protocol to ask, so the answer comes from the
// environment: coding agents mark the shells they run commands in, each its own way. Those marks are the
// agents' conventions, not ours, and some are undocumented; a person working in a shell an agent spawned is
// counted as that agent, and an agent that sets nothing is counted as a person. DISCERN_ACTOR settles it.
export type Actor = 'agent' | 'human' | 'unknown';

export interface Identity {
  actor: Actor;
  /** The agent's name, when known. */
  agent?: string;
}

type Env = Readonly<Record<string, string | undefined>>;

/** A variable that marks an agent's shell, and the name it implies. */
interface Mark {
  variable: string;
  agent: string;
  /** The value it must have; any non-empty value when absent. */
  value?: string;
}

// Checked in order; the first present wins. Sources (each seen set by the tool itself, 2025–2026):
// - Claude Code sets CLAUDECODE=1 (since 0.2.47) and CLAUDE_CODE_ENTRYPOINT in the shells it runs.
// - Codex sets CODEX_THREAD_ID in newer versions, CODEX_SANDBOX (e.g. "seatbelt") when sandboxed, and
//   CODEX_SANDBOX_NETWORK_DISABLED=1 without network. Not CODEX_HOME: people set that themselves.
// - Gemini CLI sets GEMINI_CLI=1 for every shell command.
// - Cursor's headless agent sets CURSOR_AGENT; its in-editor agent shells carry CURSOR_EXTENSION_HOST_ROLE=agent-exec.
//   Not CURSOR_TRACE_ID: every terminal inside the Cursor editor has it, people's included.
// - OpenCode sets OPENCODE=1; Augment's CLI AUGMENT_AGENT.
// - AGENT=<name> (Goose, Amp) and AI_AGENT=<name> are cross-tool conventions; their value is the name.
// GitHub Copilot is not detected: it sets no variable we know of.
const MARKS: readonly Mark[] = [
  { variable: 'CLAUDECODE', agent: 'claude_code' },
  { variable: 'CLAUDE_CODE_ENTRYPOINT', agent: 'claude_code' },
  { variable: 'CODEX_THREAD_ID', agent: 'codex' },
  { variable: 'CODEX_SANDBOX', agent: 'codex' },
  { variable: 'CODEX_SANDBOX_NETWORK_DISABLED', agent: 'codex' },
  { variable: 'GEMINI_CLI', agent: 'gemini' },
  { variable: 'CURSOR_AGENT', agent: 'cursor' },
  { variable: 'CURSOR_EXTENSION_HOST_ROLE', agent: 'cursor', value: 'agent-exec' },
  { variable: 'OPENCODE', agent: 'opencode' },
  { variable: 'AUGMENT_AGENT', agent: 'augment' },
];

/** Variables whose value names the agent. */
const NAMING = ['AI_AGENT', 'AGENT'] as const;

const FALSE_VALUES = new Set(['', '0', 'false', 'no']);

export function identify(surface: 'cli' | 'mcp', env: Env, client?: string): Identity {
  const override = env['DISCERN_ACTOR']?.trim().toLowerCase();
  const detected =
    surface === 'mcp' ? { agent: client === undefined ? undefined : cleanName(client) } : agentFromEnvironment(env);
  if (override === 'human') return { actor: 'human' };
  if (override === 'agent' || detected !== undefined) {
    const name = detected?.agent;
    return name === undefined ? { actor: 'agent' } : { actor: 'agent', agent: name };
  }
  // Automation is neither: a CI job is not a person at a terminal, and may or may not drive an agent.
  if (isSet(env['CI']) || isSet(env['GITHUB_ACTIONS'])) return { actor: 'unknown' };
  return { actor: 'human' };
}

function agentFromEnvironment(env: Env): { agent?: string } | undefined {
  for (const mark of MARKS) {
    const value = env[mark.variable];
    if (mark.value !== undefined ? value === mark.value : isSet(value)) return { agent: mark.agent };
  }
  for (const variable of NAMING) {
    const value = env[variable]?.trim();
    if (!isSet(value) || value === undefined) continue;
    // AGENT=1 says "an agent" without saying which.
    return value === '1' || value.toLowerCase() === 'true' ? {} : { agent: cleanName(value) };
  }
  return undefined;
}

function isSet(value: string | undefined): boolean {
  return value !== undefined && !FALSE_VALUES.has(value.trim().toLowerCase());
}

/** Names are kept short and printable: they come from other programs. */
function cleanName(name: string): string {
  return (
    name
      .replace(/[^\x20-\x7e]/g, '')
      .trim()
      .slice(0, 64) || 'unnamed'
  );
}

/** Every variable identify() reads, for callers (and tests) that must present a neutral environment. */
export const IDENTITY_VARIABLES: readonly string[] = [
  ...new Set([...MARKS.map((m) => m.variable), ...NAMING, 'CI', 'GITHUB_ACTIONS', 'DISCERN_ACTOR']),
];
