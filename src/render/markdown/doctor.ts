// Authored Markdown for `doctor`: one line of environment, the checks table, and what to fix.
import type { DiscernDoctorResult } from '../../../generated/types.js';
import { code, configIssueList, table } from './blocks.js';
import { frame } from './frame.js';

export function renderDoctor(result: DiscernDoctorResult): string {
  const data = result.data && 'checks' in result.data ? result.data : undefined;
  const failed = data?.checks.filter((c) => c.status === 'fail') ?? [];
  const warned = data?.checks.filter((c) => c.status === 'warn') ?? [];
  const verdict = result.ok ? (warned.length > 0 ? `ok with ${warned.length} warning${warned.length === 1 ? '' : 's'}` : 'ok') : `failed (${code(result.error ?? 'error')})`;
  const env = data?.environment;
  const facts = env
    ? [`discern ${env.discern}`, `Node.js ${env.node}`, env.git ? `git ${env.git}` : 'no git', env.root ? `${env.location === 'worktree' ? 'linked worktree' : 'main checkout'} at ${code(env.root)}` : undefined, env.trunk ? `trunk ${code(env.trunk)} (${env.trunk_source ?? 'default'})` : undefined]
        .filter(Boolean)
        .join(' · ')
    : undefined;
  const state = [`# discern doctor: ${verdict}`, result.ok ? undefined : result.message, facts].filter(Boolean).join('\n\n');
  const rows = (data?.checks ?? []).map((c) => [c.name, c.status, c.detail]);
  const fixes = [...failed, ...warned].filter((c) => c.fix).map((c) => `- **${c.name}**: ${c.fix ?? ''}`);
  const model = data?.execution_model?.map((m) => `### ${m.verb}\n\n${m.when}\n\n${m.steps.map((s, i) => `${i + 1}. ${s.label} (${s.actor}${s.note ? `; ${s.note}` : ''})`).join('\n')}`);

  const evidence = [
    rows.length > 0 ? table(['Check', 'Status', 'Detail'], rows) : undefined,
    data?.issues && data.issues.length > 0 ? `## discern.toml problems\n\n${configIssueList(data.issues)}` : undefined,
    fixes.length > 0 ? `## To fix\n\n${fixes.join('\n')}` : undefined,
    model && model.length > 0 ? `## Execution model\n\n${model.join('\n\n')}` : undefined,
  ]
    .filter(Boolean)
    .join('\n\n');
  return frame(result, { state, evidence });
}
