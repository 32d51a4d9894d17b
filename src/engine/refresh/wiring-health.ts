// The reference's "integration health", which doctor reports: for each configured agent, whether its MCP
// entry (and Claude Code's hook) is present, whether it is what refresh would write now, and whether the
// command it runs works from the project root on this machine (reachOf). Read-only: the one process it may
// start is discern itself.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Project } from '../project/resolve.js';
import { memberAt } from '../wiring/jsonc.js';
import { AGENTS, configuredAgents, type AgentId } from './agents.js';
import { resolveCommand } from '../jobs/resolve-command.js';
import { launchLine, projectLaunch } from './launch.js';
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
  // Reached only when some agent would start it: an unwired project has nothing to resolve yet.
  const reach = present.some((p) => p === true) ? await reachOf(project, env) : undefined;
  // Unmeasured, so Codex's start-up limit is what the file holds and a run's timing never reads as drift.
  const plan = await planRefresh(project, { env });
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
    if (present[k] !== true || reach === undefined)
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
    if (!reach.ok) return { agent: id, status: 'warn', detail: reach.detail, fix: reach.fix };
    const stale = plan.targets.filter((t) => t.agents.includes(id) && !t.removes && t.kind !== 'skill');
    if (stale.length > 0)
      return {
        agent: id,
        status: 'warn',
        detail: `${stale.map((t) => t.path).join(', ')} differ${stale.length === 1 ? 's' : ''} from what refresh writes now; the server runs ${reach.said}`,
        fix: 'Run `discern refresh` (`discern refresh --dry-run` shows the change) and commit the files.',
      };
    return { agent: id, status: 'ok', detail: `${agent.name}: ${where} runs ${reach.said}; current` };
  });
}

type Reach = { ok: true; said: string } | { ok: false; detail: string; fix: string };

/**
 * Whether the command the files run works here. discern's own launches (the PATH's discern, the project's
 * discern-cli through npx) are started once, as an agent starts them: that runs discern itself. The project's
 * `[project] command` is only looked up, as doctor looks up job commands: doctor is read-only and never runs
 * a command the project names (refresh starts it once).
 */
async function reachOf(project: Project, env: Readonly<Record<string, string | undefined>>): Promise<Reach> {
  const { launch } = await projectLaunch(project.root, project.config.project?.command);
  if (launch.source === 'configured') {
    const line = `${launchLine(launch)} mcp`;
    const found = await resolveCommand(line, project.root, env);
    return found.status === 'fail'
      ? {
          ok: false,
          detail: `The agents' files run \`${line}\` ([project] command), whose program does not resolve from the project root here: ${found.detail}`,
          fix: capital(launchFix(launch)),
        }
      : { ok: true, said: `\`${line}\` ([project] command, looked up and not started: ${found.detail})` };
  }
  const { probe } = await probeWiredCommand(project, env);
  if (probe === undefined) return { ok: true, said: `\`${launchLine(launch)} mcp\`` };
  return probe.ok
    ? { ok: true, said: `\`${probe.command}\`, which starts in ${probe.ms} ms` }
    : { ok: false, detail: launchProblem(probe, launch), fix: capital(launchFix(launch)) };
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
