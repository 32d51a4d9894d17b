// Authored Markdown for upgrade: the formats, each rename with its old line, what was written, then the steps.
import type { DiscernResult } from '../../../generated/types.js';
import { code } from './blocks.js';
import { failureState, frame } from './frame.js';
import { stepsSection } from './gate.js';

type UpgradeResult = Extract<DiscernResult, { verb: 'upgrade' }>;

export function renderUpgrade(result: UpgradeResult): string {
  const title = 'discern upgrade';
  const data = result.data && 'migrations' in result.data ? result.data : undefined;
  const renames = data?.migrations.flatMap((m) => m.renames) ?? [];
  const facts = data
    ? [
        `- Format ${data.from_version} → ${data.to_version}${data.changed ? '' : ' (already current)'}`,
        ...renames.map((r) => `- ${code(r.from)}${r.line !== undefined ? ` (line ${r.line})` : ''} → ${code(r.to)}`),
        `- File: ${code(data.file)}${result.dry_run ? ' (not written: dry run)' : data.changed ? ' (written)' : ''}`,
      ].join('\n')
    : undefined;
  const evidence = stepsSection(result.steps);
  if (!result.ok) return frame(result, { state: [failureState(result, title), facts].filter(Boolean).join('\n\n'), evidence });
  return frame(result, { state: [`# ${title}`, facts].filter(Boolean).join('\n\n'), evidence });
}
