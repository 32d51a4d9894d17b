// checkpoints: the checkpoints that govern this checkout's committed change (the discern.toml at the merge-base
// with the trunk), each with its trigger and obligation, a preview of whether it fires on HEAD, and where its
// question stands in this checkout's record. Read-only: nothing is recorded (done records).
import type { CheckpointsOutcome } from '../../generated/handlers.js';
import type { DiscernCheckpointsData, DiscernCheckpointsInput } from '../../generated/types.js';
import {
  compileCheckpoints,
  evaluateCheckpointsAt,
  questionOf,
  readStore,
  reviewQuestions,
} from '../engine/checkpoints/index.js';
import { obligationOf, triggerOf, whenPending } from '../engine/checkpoints/describe.js';
import { readWorkingState } from '../engine/git/porcelain-status.js';
import type { ProjectVerbContext } from './context.js';

export async function checkpoints(
  _input: DiscernCheckpointsInput,
  ctx: ProjectVerbContext,
): Promise<CheckpointsOutcome> {
  const { project } = ctx;
  const working = compileCheckpoints(project.config);
  const [first, ...others] = working.issues;
  if (first !== undefined) {
    return {
      data: { issues: [first, ...others] },
      refusal: {
        error: 'invalid_config',
        message: `discern.toml has ${working.issues.length === 1 ? 'a checkpoint' : `${working.issues.length} checkpoint problems`} that cannot be used: ${working.issues.map((i) => `\`${i.path}\` (${i.message})`).join('; ')}.`,
        next: { file: 'discern.toml', where: `key \`${first.path}\`` },
      },
    };
  }
  const state = await readWorkingState(project.root, ctx.env, ctx.signal);
  const headless = state.unborn || state.head === null;
  const evaluation = headless
    ? undefined
    : await evaluateCheckpointsAt({
        run: { cwd: project.root, env: ctx.env, signal: ctx.signal },
        revision: 'HEAD',
        trunkRef: `refs/heads/${project.trunk.name}`,
        workingConfig: project.config,
        root: project.root,
      });
  const store = await readStore(project.gitDir);
  const now = new Date().toISOString();
  const rows: DiscernCheckpointsData['checkpoints'] = (evaluation?.results ?? []).map((r) => {
    const q = questionOf(r, store);
    const stored = store.questions[r.id];
    const shown = q.matched;
    return {
      id: r.id,
      mode: r.mode,
      question: r.question,
      ...(r.questionFile !== undefined ? { question_file: r.questionFile } : {}),
      ...(r.teach !== undefined ? { teach: r.teach } : {}),
      ...(r.reference !== undefined ? { reference: r.reference } : {}),
      trigger: triggerOf(r.definition),
      obligation: obligationOf(r.definition),
      preview: {
        holds: r.holds,
        why: r.why,
        ...(r.holds && q.state !== 'declared_met' && q.state !== 'declared_unmet'
          ? { when_pending: whenPending(r.definition) }
          : {}),
        ...(r.matched.length > 0 ? { matched: shown, matched_total: r.matched.length } : {}),
        ...(r.vetoedBy.length > 0 ? { vetoed_by: r.vetoedBy } : {}),
      },
      ...(r.holds
        ? {
            open_question: {
              state: q.state,
              definition_hash: q.definition_hash,
              subject: q.subject,
              matched: shown,
              // Recorded when done first saw the question; until then, this reading is the first.
              opened_at: stored !== undefined && stored.definition_hash === r.definitionHash ? stored.opened_at : now,
              ...(q.declaration ? { declaration: q.declaration } : {}),
              ...(r.mode === 'stop' && q.state === 'declared_unmet' ? { variance_required: true } : {}),
            },
          }
        : {}),
    };
  });
  const drops = evaluation ? reviewQuestions(evaluation, store).drops : [];
  const data: DiscernCheckpointsData = {
    policy: 'strict',
    revision: {
      head: state.head,
      base: evaluation?.base ?? null,
      config: evaluation?.source ?? 'working',
      ...(state.changed > 0 ? { uncommitted: state.changed } : {}),
    },
    checkpoints: rows,
    ...(evaluation && evaluation.ungoverned.length > 0 ? { ungoverned: evaluation.ungoverned } : {}),
    ...(drops.length > 0 ? { drops } : {}),
  };
  const waiting = rows.filter(
    (r) =>
      r.mode === 'stop' && (r.open_question?.state === 'awaiting_declaration' || r.open_question?.state === 'reopened'),
  );
  const hints: string[] = [];
  if (state.changed > 0)
    hints.push(
      `${state.changed} uncommitted path${state.changed === 1 ? ' is' : 's are'} not judged: checkpoints look at the committed HEAD, as done does. Commit to include ${state.changed === 1 ? 'it' : 'them'}.`,
    );
  if (waiting.length > 0) {
    hints.push(
      ctx.surface === 'mcp'
        ? `Answer ${waiting.map((w) => w.id).join(', ')} with discern_done met: [id] or unmet: [{id, why}].`
        : `Answer ${waiting.map((w) => w.id).join(', ')} with \`discern done --met <id>\` or \`discern done --unmet <id> --why <text>\`.`,
    );
  }
  const [firstDrop, ...moreDrops] = drops.map((d) => `${d.checkpoint ? `${d.checkpoint}: ` : ''}${d.reason}`);
  return {
    data,
    ...(hints.length > 0 ? { hints } : {}),
    ...(firstDrop !== undefined
      ? {
          advisories: [
            {
              kind: 'checkpoint-evidence-dropped',
              evidence: [firstDrop, ...moreDrops],
              next_action:
                'A dropped checkpoint does not fire (it fails open): fix what the evidence names to have it judged.',
            },
          ],
        }
      : {}),
  };
}
