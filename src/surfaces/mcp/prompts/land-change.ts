// land_change: the path from discern_status through discern_done to discern_accept for the current checkout,
// with where it stands now (from the status verb, called as the tool would be) and the step to take next.
import type { DiscernStatusResult } from '../../../../generated/types.js';
import { invoke } from '../../../verbs/invoke.js';
import { checkoutOf, code, promptResult, type PromptBuilder } from './context.js';

type StatusData = Extract<NonNullable<DiscernStatusResult['data']>, { git: unknown }>;

export const landChangePrompt: PromptBuilder = async (ctx) => {
  const checkout = await checkoutOf(ctx);
  const status = (await invoke(
    'status',
    { path: checkout.root, local: true },
    { ...ctx.invokeOptions, defaultTarget: checkout.root },
  )) as DiscernStatusResult;
  const data = status.data && 'git' in status.data ? status.data : undefined;
  if (!status.ok || !data) {
    return promptResult(ctx, [
      `Land the change in ${code(checkout.root)}.`,
      `## Where it stands\n\ndiscern_status refused (${code(status.error ?? 'error')}): ${status.message ?? ''}\n\n${status.hints?.at(-1) ?? ''}`,
      `## The path\n\n${path(undefined).join('\n')}`,
    ]);
  }
  const step = nextStep(data);
  return promptResult(ctx, [
    `Land the change in ${code(checkout.root)}.`,
    `## Where it stands\n\n${standing(data).join('\n')}`,
    `## The path\n\n${path(step.index).join('\n')}`,
    `## Next\n\n${step.text}`,
  ]);
};

function standing(data: StatusData): string[] {
  const git = data.git;
  const where = data.location === 'worktree' ? 'a linked worktree' : 'the main checkout';
  const branch = git.detached ? 'a detached HEAD' : `branch ${code(git.branch ?? '?')}`;
  const distance =
    git.ahead_trunk === null || git.behind_trunk === null
      ? `trunk ${code(git.trunk)}${git.trunk_exists ? ' (distance unknown)' : ' (no commit yet)'}`
      : `${git.ahead_trunk} commit${git.ahead_trunk === 1 ? '' : 's'} ahead of trunk ${code(git.trunk)}, ${git.behind_trunk} behind`;
  const changes = git.clean
    ? 'no uncommitted changes'
    : `${git.changed_files} uncommitted change${git.changed_files === 1 ? '' : 's'}${git.untracked_files > 0 ? ` (${git.untracked_files} untracked)` : ''}`;
  const proof = data.gate_proof;
  const lines = [
    `- ${where} at ${code(data.root)}, on ${branch}${git.head ? ` at ${git.head.slice(0, 12)}` : ''}: ${distance}.`,
    `- ${changes[0]?.toUpperCase()}${changes.slice(1)}.`,
    `- Proof: ${proof.status}${proof.proof ? ` — ${proof.proof.line}` : proof.reason ? ` (${proof.reason})` : ''}.`,
  ];
  if (data.operation)
    lines.push(
      `- Running now: ${data.operation.verb} ${code(data.operation.handle)} (${data.operation.phase}); read it with ${data.operation.read_back}.`,
    );
  return lines;
}

const PATH = [
  'discern_status — where the checkout stands (above).',
  'Commit everything the change needs; discern proves commits, never uncommitted files.',
  'discern_update — merge the trunk in when it has moved (behind > 0).',
  'discern_done — run the gate on the committed HEAD; relay its Proof line, or fix its first diagnostic, commit and run it again.',
  'discern_accept — land the proven commit on the trunk; from the main checkout, name the effort as `target`; ask the owner when it answers awaiting_consent.',
];

function path(current: number | undefined): string[] {
  return PATH.map((p, i) => `${i + 1}. ${p}${i === current ? ' ← next' : ''}`);
}

function nextStep(data: StatusData): { index?: number; text: string } {
  const git = data.git;
  if (data.operation)
    return {
      text: `A ${data.operation.verb} run is still going: wait for it with ${data.operation.read_back} instead of starting another.`,
    };
  if (git.unborn) return { index: 1, text: 'The branch has no commit yet: commit the work first.' };
  if (git.detached)
    return { text: "HEAD is detached: check out the effort's branch (or create one) before landing anything." };
  if (data.location === 'main' && git.branch === git.trunk) {
    return {
      text: `This is the trunk ${code(git.trunk)} itself, in the main checkout: there is nothing to land from here. Start an effort with discern_start (its worktree and branch), do the work there, and land it with this path; or call discern_done to prove the trunk's HEAD as it is.`,
    };
  }
  if (!git.clean)
    return {
      index: 1,
      text: `Commit the ${git.changed_files} uncommitted change${git.changed_files === 1 ? '' : 's'} (or remove what does not belong), then call discern_done.`,
    };
  if ((git.behind_trunk ?? 0) > 0)
    return {
      index: 2,
      text: `The trunk has ${git.behind_trunk} commit${git.behind_trunk === 1 ? '' : 's'} this branch lacks: call discern_update, then discern_done.`,
    };
  if ((git.ahead_trunk ?? 1) === 0)
    return { text: 'This branch has no commit the trunk lacks: there is nothing to land. Commit the change first.' };
  if (data.gate_proof.status === 'honored')
    return { index: 4, text: 'HEAD holds current Proof: call discern_accept to land it, and relay its Proof line.' };
  return { index: 3, text: `HEAD has no current Proof (${data.gate_proof.status}): call discern_done.` };
}
