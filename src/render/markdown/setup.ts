// Authored Markdown for the setup verbs. A page is whitespace-significant and reproduced as it is; the owner
// moments it refers to come from the spine, once, in the Owner attention section before the next action.
import type {
  DiscernOwnerMoment,
  DiscernSetupAcceptResult,
  DiscernSetupBeginResult,
  DiscernSetupDoneResult,
  DiscernSetupPage,
  DiscernSetupStepResult,
  DiscernSetupVerifyResult,
} from '../../../generated/types.js';
import { code, configIssueList, table } from './blocks.js';
import { failureState, frame } from './frame.js';
import { diagnosticsSection, planSection, stepsSection } from './gate.js';

type SetupResult = DiscernSetupBeginResult | DiscernSetupStepResult | DiscernSetupVerifyResult | DiscernSetupDoneResult | DiscernSetupAcceptResult;

export function renderSetup(result: SetupResult): string {
  switch (result.verb) {
    case 'setup begin':
      return renderBegin(result);
    case 'setup step':
      return renderStep(result);
    case 'setup verify':
      return renderVerify(result);
    case 'setup done':
      return renderDone(result);
    case 'setup accept':
      return renderAccept(result);
  }
}

function renderBegin(result: DiscernSetupBeginResult): string {
  const data = result.data && 'contract' in result.data ? result.data : undefined;
  const runs = [stepsSection(result.steps), planSection(result.plan)].filter(Boolean).join('\n\n') || undefined;
  if (!result.ok || !data) return frame(result, { state: failureState(result, 'discern setup begin'), evidence: runs });
  const c = data.contract;
  const state = [
    `# discern setup begin${result.dry_run ? ' (dry run: nothing written)' : ''}`,
    c.summary,
    `Found: ${data.facts.ecosystems.length > 0 ? data.facts.ecosystems.join(', ') : 'no known ecosystem'}; ${data.facts.jobs.length} job${data.facts.jobs.length === 1 ? '' : 's'} proposed${data.recipe ? `; the recipe ${code(data.recipe.path)} set ${data.recipe.applied.map(code).join(', ')}` : ''}.`,
    `## What setup does\n\n${c.discern_does.map((d) => `- ${d}`).join('\n')}`,
    `## What only the owner decides\n\n${c.owner_decides.map((d) => `- ${d}`).join('\n')}`,
  ].join('\n\n');
  const evidence = [pageSection(data.page, data.pages_total), `## The draft (${code(data.config_path)})\n\n${fence(data.draft, 'toml')}`, runs].filter(Boolean).join('\n\n');
  return frame(result, { state, evidence, ownerAttention: attention(data.page, data.spine.owner_moments) });
}

function renderStep(result: DiscernSetupStepResult): string {
  const data = result.data && 'page' in result.data ? result.data : undefined;
  if (!result.ok || !data) return frame(result, { state: failureState(result, 'discern setup step') });
  const issues = data.config_issues ? `## discern.toml does not load\n\n${configIssueList(data.config_issues)}` : undefined;
  return frame(result, { state: `# Setup on ${code(data.branch)} (${data.phase})`, evidence: [issues, pageSection(data.page, data.pages_total)].filter(Boolean).join('\n\n'), ownerAttention: attention(data.page, data.spine.owner_moments) });
}

function renderVerify(result: DiscernSetupVerifyResult): string {
  const data = result.data && 'valid' in result.data ? result.data : undefined;
  const issues = data && data.issues.length > 0 ? `## Problems\n\n${configIssueList(data.issues)}` : undefined;
  const warnings = data?.warnings && data.warnings.length > 0 ? `## Not checked\n\n${configIssueList(data.warnings)}` : undefined;
  const jobs = data?.jobs && data.jobs.length > 0 ? `## Jobs the gate would run\n\n${table(['Job', 'Stage', 'Commands'], data.jobs.map((j) => [j.name, j.stage, j.commands.map(code).join('; ') || '—']))}` : undefined;
  const evidence = [issues, warnings, jobs].filter(Boolean).join('\n\n') || undefined;
  if (!result.ok) return frame(result, { state: failureState(result, 'discern setup verify'), evidence });
  return frame(result, { state: `# discern setup verify: the draft holds\n\n${code(data?.config_path ?? 'discern.toml')} on ${code(data?.branch ?? '')}${data?.trunk ? `, landing on ${code(data.trunk)}` : ''}.`, evidence });
}

function renderDone(result: DiscernSetupDoneResult): string {
  const data = result.data && 'checks' in result.data ? result.data : undefined;
  const failed = data?.checks.filter((c) => c.status !== 'ok') ?? [];
  const checks = failed.length > 0 ? `## Doctor\n\n${table(['Check', 'Status', 'Detail'], failed.map((c) => [c.name, c.status, `${c.detail}${c.fix ? ` — ${c.fix}` : ''}`]))}` : undefined;
  const runs = [diagnosticsSection(result.diagnostics), checks, stepsSection(result.steps)].filter(Boolean).join('\n\n') || undefined;
  if (!result.ok || !data?.proof || !data.inventory) {
    const stage = data?.failed_stage ? `\n\nFailed stage: ${code(data.failed_stage)}.` : '';
    return frame(result, { state: `${failureState(result, 'discern setup done')}${stage}`, evidence: runs });
  }
  const inv = data.inventory;
  const inventory = [
    `## Inventory`,
    table(['Job', 'Stage', 'Commands'], inv.jobs.map((j) => [j.name, j.stage, j.commands.map(code).join('; ') || '—'])),
    `Scopes: ${inv.scopes.length > 0 ? inv.scopes.map((s) => `${code(s.name)} (${s.paths.map(code).join(', ')}${s.neutral ? ', neutral' : ''})`).join('; ') : 'none'}. Agents: ${inv.agents.map(code).join(', ')}. Project: ${inv.project_context.name} (${inv.project_context.ecosystems.join(', ') || 'no known ecosystem'}), trunk ${code(inv.project_context.trunk)}.`,
  ].join('\n\n');
  const state = `# discern setup done: proven\n\n**Green** on ${code(data.branch)} at ${code(data.proof.head)}.\n\n> ${data.proof.line}`;
  return frame(result, { state, evidence: [inventory, runs].filter(Boolean).join('\n\n'), ownerAttention: `Land the proven discern.toml on ${code(data.trunk)}? The owner runs \`discern setup accept\` (or tells the agent to).` });
}

function renderAccept(result: DiscernSetupAcceptResult): string {
  const data = result.data && 'completion' in result.data ? result.data : undefined;
  const runs = stepsSection(result.steps);
  if (!result.ok || !data) return frame(result, { state: failureState(result, 'discern setup accept'), evidence: runs });
  const how = data.completion.status === 'landed' ? `**Landed** on ${code(data.trunk)} at ${code((data.landed_commit ?? '').slice(0, 12))} by fast-forward.` : `Nothing to land: ${code(data.trunk)} already holds the setup${data.landed_commit ? ` (${code(data.landed_commit.slice(0, 12))})` : ''}.`;
  const state = [`# discern setup accept`, how, data.proof_line ? `> ${data.proof_line}` : undefined, data.activation_context].filter(Boolean).join('\n\n');
  const agents = `## Reconnect each agent\n\n${table(['Agent', 'Check', 'If it fails', 'Meanwhile'], data.reactivation.map((r) => [code(r.agent), r.check, code(r.recovery), code(r.fallback)]))}`;
  const refresh = data.instruction_refresh ? `Instruction refresh: ${data.instruction_refresh.status}${data.instruction_refresh.compiled.length > 0 ? ` (${data.instruction_refresh.compiled.map(code).join(', ')})` : ''}.` : undefined;
  return frame(result, { state, evidence: [agents, refresh, runs].filter(Boolean).join('\n\n') });
}

/** The page itself, exactly, after one line saying which it is. */
function pageSection(page: DiscernSetupPage, total: number): string {
  return `## Page ${page.number} of ${total}: ${page.title}\n\n${page.body}`;
}

/** The page's owner moments, from the spine: what is asked, what discern recommends, until when the work waits. */
function attention(page: DiscernSetupPage, moments: readonly DiscernOwnerMoment[]): string | undefined {
  const mine = page.owner_moments.map((id) => moments.find((m) => m.id === id)).filter((m): m is DiscernOwnerMoment => m !== undefined);
  if (mine.length === 0) return undefined;
  return mine
    .map((m) => `- **${m.kind === 'confirm' ? 'Confirm' : 'Choose'}** (${code(m.id)}): ${m.purpose} Recommended: ${m.recommendation} Options: ${m.options.map(code).join(', ')}. Waits ${m.wait_boundary}${m.relay_protected ? '; the owner answers this, not the agent' : ''}.`)
    .join('\n');
}

function fence(text: string, lang: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${lang}\n${text.replace(/\n$/, '')}\n${ticks}`;
}
