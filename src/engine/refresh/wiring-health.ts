// The reference's "integration health", which doctor reports: for each configured agent, whether its MCP
// entry (and Claude Code's hook) is present, whether it is what refresh would write now, and whether the
// command it runs starts from the project root on this machine. Read-only but for one start of that command.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Project } from '../project/resolve.js';
import { memberAt } from '../wiring/jsonc.js';
import { AGENTS, configuredAgents, type AgentId } from './agents.js';
import { launchFix, launchProblem } from './launch-probe.js';
import { planRefresh, probeWiredCommand } from './plan.js';

export interface AgentWiringHealth {
  agent: AgentId;
  status: 'ok' | 'warn' | 'fail';
  detail: string;
  fix?: string;
}

export async function wiringHealth(
  project: Project,
  env: Readonly<Record<string, string | undefined>>,
): Promise<AgentWiringHealth[]> {
  const agents = configuredAgents(project.config.project?.agents);
  const present = await Promise.all(agents.map((id) => entryPresent(project.root, id)));
  // Started only when some agent would start it: an unwired project has nothing to resolve yet.
  const started = present.some((p) => p === true) ? await probeWiredCommand(project, env) : undefined;
  const plan = await planRefresh(project, { env, ...(started ? { probe: started.probe } : {}) });
  return agents.map((id, k): AgentWiringHealth => {
    const agent = AGENTS[id];
    const where = agent.mcp.path;
    const problem = plan.errors.find((e) => e.path === where || e.path === agent.hooks?.path);
    if (problem)
      return {
        agent: id,
        status: 'warn',
        detail: `${problem.path} cannot be read as ${agent.name} reads it: ${problem.message}`,
        fix: `Fix ${problem.path} (${problem.where}), then run \`discern refresh\`.`,
      };
    if (present[k] !== true)
      return {
        agent: id,
        status: 'warn',
        detail: `${agent.name} is configured but ${where} has no discern server, so it has no discern tools`,
        fix: 'Run `discern refresh`, commit the files it writes, and approve the server in the agent.',
      };
    const kept = plan.skipped.find((s) => s.path === where);
    if (kept)
      return {
        agent: id,
        status: 'warn',
        detail: `${where} holds a discern server written by hand, which refresh leaves and doctor does not start`,
        fix: `Check that its command starts discern from the project root, or delete it and run \`discern refresh\`.`,
      };
    // Some agent's entry is present, so the command was started.
    if (!started) throw new Error('an entry is present but the wired command was not started');
    const { probe, launch } = started;
    if (!probe.ok)
      return { agent: id, status: 'warn', detail: launchProblem(probe, launch), fix: capital(launchFix(launch)) };
    const stale = plan.targets.filter((t) => t.agents.includes(id) && !t.removes && t.kind !== 'skill');
    const ms = probe.ok ? `, which starts in ${probe.ms} ms` : '';
    if (stale.length > 0)
      return {
        agent: id,
        status: 'warn',
        detail: `${stale.map((t) => t.path).join(', ')} differ${stale.length === 1 ? 's' : ''} from what refresh writes now; the server runs \`${probe.command}\`${ms}`,
        fix: 'Run `discern refresh` (`discern refresh --dry-run` shows the change) and commit the files.',
      };
    return { agent: id, status: 'ok', detail: `${agent.name}: ${where} runs \`${probe.command}\`${ms}; current` };
  });
}

/** Whether the agent's MCP file names a discern server at all (by whom it was written is the plan's to say). */
async function entryPresent(root: string, id: AgentId): Promise<boolean> {
  const wiring = AGENTS[id].mcp;
  const text = await readFile(join(root, wiring.path), 'utf8').catch(() => undefined);
  if (text === undefined) return false;
  if (wiring.format === 'toml-region') return /^\s*\[mcp_servers\.discern\]\s*$/m.test(text);
  return memberAt(text, [wiring.serversKey, 'discern'], { comments: wiring.comments }) !== undefined;
}

function capital(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}
