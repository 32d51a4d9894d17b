// refine_config: the model's draft with every validation error and warning at its line (the same check as
// discern_validate_config), the project's saved discern.toml when it has one, the doctor result, and the failing steps of the checkout's last
// failed gate run, asking what to change.
import type { DiscernDoctorResult, DiscernValidateConfigResult } from '../../../../generated/types.js';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { invoke } from '../../../verbs/invoke.js';
import { checkoutOf, code, fenced, promptResult, repositoryStateDir, type PromptBuilder } from './context.js';
import { describeRun, failedRun } from './failed-run.js';

export const refineConfigPrompt: PromptBuilder = async (ctx) => {
  const checkout = await checkoutOf(ctx);
  const draft = ctx.args['draft'] ?? '';
  const options = { ...ctx.invokeOptions, defaultTarget: checkout.root };
  const [validation, doctor, run, saved] = await Promise.all([
    invoke('validateConfig', { toml: draft, path: checkout.root }, options) as Promise<DiscernValidateConfigResult>,
    invoke('doctor', { path: checkout.root }, options) as Promise<DiscernDoctorResult>,
    failedRun(repositoryStateDir(checkout), checkout.root),
    readFile(join(checkout.root, 'discern.toml'), 'utf8').catch(() => undefined),
  ]);
  // The configuration the project runs with now, when it has one and the draft changes it: what the gate and
  // doctor below were reading.
  const current =
    saved === undefined
      ? []
      : [
          saved === draft
            ? "## The saved discern.toml\n\nThe project's saved discern.toml is this draft."
            : `## The saved discern.toml (what the project runs with now)\n\n${fenced(saved, 'toml')}`,
        ];
  return promptResult(ctx, [
    `Refine this draft discern.toml for the repository at ${code(checkout.root)}.`,
    `## The draft\n\n${fenced(draft, 'toml')}`,
    ...current,
    `## What discern_validate_config reports\n\n${validationSection(validation)}`,
    `## discern_doctor for the project\n\n${doctorSection(doctor)}`,
    `## The last failed gate run\n\n${'found' in run ? describeRun(run.found) : 'none' in run ? run.none : run.unreadable}`,
  ]);
};

function validationSection(result: DiscernValidateConfigResult): string {
  const data = result.data && 'checks' in result.data ? result.data : undefined;
  if (!data) return `The draft could not be checked: ${result.message ?? 'no result'}`;
  const rows = [
    ...data.errors.map((i) => ({ ...i, severity: 'error' })),
    ...data.warnings.map((i) => ({ ...i, severity: 'warning' })),
  ].map(
    (i) =>
      `- ${i.line !== undefined ? `line ${i.line}${i.column !== undefined ? `, column ${i.column}` : ''}` : 'no line'} ${code(i.path)} (${i.severity}): ${i.message}`,
  );
  const verdict = data.valid
    ? `Valid${data.warnings.length > 0 ? `, with ${data.warnings.length} warning${data.warnings.length === 1 ? '' : 's'}` : ''}: discern would accept this draft.`
    : `Invalid (${code(result.error ?? 'invalid_config')}): ${data.errors.length} error${data.errors.length === 1 ? '' : 's'}${data.warnings.length > 0 ? ` and ${data.warnings.length} warning${data.warnings.length === 1 ? '' : 's'}` : ''}.`;
  const skipped = data.checks.filter((c) => c.status === 'skipped').map((c) => `${c.name} (${c.detail})`);
  const stages = data.stages?.map((s) => `${s.stage}: ${s.jobs.map((j) => j.name).join(', ')}`);
  return [
    verdict,
    rows.length > 0 ? rows.join('\n') : undefined,
    skipped.length > 0 ? `Not checked yet: ${skipped.join('; ')}.` : undefined,
    stages && stages.length > 0 ? `discern_done would run: ${stages.join(' → ')}.` : undefined,
  ]
    .filter(Boolean)
    .join('\n\n');
}

function doctorSection(result: DiscernDoctorResult): string {
  const data = result.data && 'checks' in result.data ? result.data : undefined;
  const verdict = result.ok ? 'ok' : `failed (${code(result.error ?? 'error')}): ${result.message ?? ''}`;
  const notable = (data?.checks ?? [])
    .filter((c) => c.status !== 'ok')
    .map((c) => `- ${c.name}: ${c.status} — ${c.detail}${c.fix ? ` Fix: ${c.fix}` : ''}`);
  const note =
    result.error === 'no_project'
      ? 'doctor reads the saved discern.toml; this repository has none yet, so it reports no_project until the draft is saved.'
      : undefined;
  return [`doctor: ${verdict}`, notable.length > 0 ? notable.join('\n') : undefined, note].filter(Boolean).join('\n\n');
}
