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
import { renderCoupling } from './coupling.js';
import { renderDocs } from './docs.js';
import { renderDone } from './done.js';
import { renderDoctor } from './doctor.js';
import { renderHelp } from './help.js';
import { renderImpact } from './impact.js';
import { renderImprovement } from './improvement.js';
import { renderIdentity, renderLicenses, renderReleases, renderScripts } from './lifecycle.js';
import { renderMap } from './map.js';
import { renderPatterns, renderPatternsLifecycle } from './patterns.js';
import { renderProgress } from './progress.js';
import { renderStages } from './stages.js';
import { renderStandards } from './standards.js';
import { renderStart } from './start.js';
import { renderUpdate } from './update.js';
import { renderValidateConfig } from './validate-config.js';
import { renderStatus } from './status.js';

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
    case 'coupling':
      return renderCoupling(result);
    case 'docs':
      return renderDocs(result);
    case 'done':
      return renderDone(result);
    case 'doctor':
      return renderDoctor(result);
    case 'help':
      return renderHelp(result);
    case 'identity':
      return renderIdentity(result);
    case 'impact':
      return renderImpact(result);
    case 'improvement':
      return renderImprovement(result);
    case 'licenses':
      return renderLicenses(result);
    case 'map':
      return renderMap(result);
    case 'patterns':
      return renderPatterns(result);
    case 'patterns seal':
    case 'patterns archives':
    case 'patterns reset':
      return renderPatternsLifecycle(result);
    case 'prepare':
    case 'test':
      return renderStages(result);
    case 'progress':
      return renderProgress(result);
    case 'releases':
      return renderReleases(result);
    case 'scripts':
      return renderScripts(result);
    case 'standards':
    case 'standards propose':
      return renderStandards(result);
    case 'start':
      return renderStart(result);
    case 'status':
      return renderStatus(result);
    case 'update':
      return renderUpdate(result);
    case 'validate config':
      return renderValidateConfig(result);
    default:
      // The verbs whose presentation is a template never reach here (the snapshot test covers every verb).
      return unrendered(result);
  }
}

function unrendered(result: DiscernResult): never {
  throw new Error(`no Markdown presentation for ${JSON.stringify(result)}`);
}
