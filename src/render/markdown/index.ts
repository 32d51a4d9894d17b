// The authored Markdown of any result: MCP content[0].text, `--markdown`, and (until the terminal renderer
// lands) `--render` and the human view.
import type { DiscernResult } from '../../../generated/types.js';
import { PRESENTATIONS } from '../../../generated/presentations.js';
import { evaluateTemplate } from '../template/evaluate.js';
import { BLOCKS } from './blocks-registry.js';
import { frame } from './frame.js';
import { renderAccept } from './accept.js';
import { renderAwait } from './await.js';
import { renderCheckpoints } from './checkpoints.js';
import { renderConfig } from './config.js';
import { renderDone } from './done.js';
import { renderProgress } from './progress.js';
import { renderRefresh, renderSkills, renderUninstall } from './refresh.js';
import { renderStages } from './stages.js';
import { renderStandards } from './standards.js';
import { renderStart } from './start.js';
import { renderUpdate } from './update.js';
import { renderUpgrade } from './upgrade.js';
import { renderWorktree } from './worktree.js';
import { renderStatus } from './status.js';
import { renderSetup } from './setup.js';

export function renderMarkdown(result: DiscernResult): string {
  const template = PRESENTATIONS[result.verb];
  if (template) {
    const s = evaluateTemplate(template, result, BLOCKS);
    return frame(result, { state: s.state ?? '', evidence: s.evidence, authority: s.authority, ownerAttention: s.owner });
  }
  return legacy(result);
}

function legacy(result: DiscernResult): string {
  switch (result.verb) {
    case 'accept':
      return renderAccept(result);
    case 'await':
      return renderAwait(result);
    case 'checkpoints':
      return renderCheckpoints(result);
    case 'config get':
    case 'config has':
    case 'config keys':
    case 'config subsections':
    case 'config array':
    case 'config explain':
    case 'config set':
    case 'config set-job':
    case 'config set-scope':
    case 'config set-standard':
    case 'tidy':
      return renderConfig(result);
    case 'done':
      return renderDone(result);
    case 'prepare':
    case 'test':
      return renderStages(result);
    case 'progress':
      return renderProgress(result);
    case 'refresh':
      return renderRefresh(result);
    case 'skills list':
    case 'skills eject':
      return renderSkills(result);
    case 'uninstall':
      return renderUninstall(result);
    case 'setup begin':
    case 'setup step':
    case 'setup verify':
    case 'setup done':
    case 'setup accept':
      return renderSetup(result);
    case 'standards':
    case 'standards propose':
      return renderStandards(result);
    case 'start':
      return renderStart(result);
    case 'status':
      return renderStatus(result);
    case 'update':
      return renderUpdate(result);
    case 'upgrade':
      return renderUpgrade(result);
    case 'enter':
    case 'worktree teardown':
    case 'worktree drop':
    case 'worktree park':
    case 'worktree setup':
    case 'worktree ensure':
    case 'worktree rename':
    case 'worktree prune':
      return renderWorktree(result);
    default:
      // A verb converted to a template (spec/verbs/<verb>/presentation.md) is rendered above and never reaches here.
      return unrendered(result);
  }
}

function unrendered(result: DiscernResult): never {
  throw new Error(`no Markdown presentation for ${JSON.stringify(result)}`);
}
