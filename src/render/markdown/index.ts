// The authored Markdown of any result: MCP content[0].text, `--markdown`, and (until the terminal renderer
// lands) `--render` and the human view.
import type { DiscernResult } from '../../../generated/types.js';
import { PRESENTATIONS } from '../../../generated/presentations.js';
import { evaluateTemplate } from '../template/evaluate.js';
import { BLOCKS } from './blocks-registry.js';
import { frame } from './frame.js';
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
import { renderValidateConfig } from './validate-config.js';

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
    case 'releases':
      return renderReleases(result);
    case 'scripts':
      return renderScripts(result);
    case 'validate config':
      return renderValidateConfig(result);
    default:
      return unrendered(result);
  }
}

function unrendered(result: DiscernResult): never {
  throw new Error(`no Markdown presentation for ${JSON.stringify(result)}`);
}
