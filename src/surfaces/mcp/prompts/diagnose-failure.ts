// diagnose_failure: the checkout's last failed run (or the run `handle` names) from the progress journal — its
// failing steps and diagnostics with their output and reproduce commands — asking for the fix. With no failed
// run it says so instead. A handle that names no run of this checkout is an invalid-params error.
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { checkoutOf, code, promptResult, repositoryStateDir, type PromptBuilder } from './context.js';
import { describeRun, failedRun } from './failed-run.js';

export const diagnoseFailurePrompt: PromptBuilder = async (ctx) => {
  const checkout = await checkoutOf(ctx);
  const handle = ctx.args['handle'];
  const run = await failedRun(repositoryStateDir(checkout), checkout.root, handle);
  if ('unreadable' in run) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `\`handle\`: ${run.unreadable}`);
  const intro = `Diagnose ${handle ? `run ${code(handle)}` : 'the last failed gate run'} in ${code(checkout.root)}.`;
  if ('none' in run) return promptResult(ctx, [intro, run.none], ctx.prompt.empty ?? ctx.prompt.ask);
  if (run.found.record.outcome !== 'failed') {
    return promptResult(
      ctx,
      [intro, `${code(run.found.record.handle)} did not fail: it is ${run.found.record.outcome ?? 'still running'}.`],
      ctx.prompt.empty ?? ctx.prompt.ask,
    );
  }
  return promptResult(ctx, [intro, `## The run\n\n${describeRun(run.found, { diagnostics: 10 })}`]);
};
