// Authored Markdown for patterns and its lifecycle commands: what was read and from which window, the findings
// with their numbers, the investigations with their boundary, interpretation, action and falsifier, the
// detectors that ran, and (when asked) the stats.
import type {
  DiscernPatternsArchivesResult,
  DiscernPatternsData,
  DiscernPatternsNumber,
  DiscernPatternsResetResult,
  DiscernPatternsResult,
  DiscernPatternsSealResult,
} from '../../../generated/types.js';
import { code, table } from './blocks.js';
import { failureState, frame } from './frame.js';
import { planSection, stepsSection } from './gate.js';

export function renderPatterns(result: DiscernPatternsResult): string {
  const data = result.data && 'findings' in result.data ? result.data : undefined;
  if (!result.ok || !data) return frame(result, { state: failureState(result, 'discern patterns') });
  return frame(result, { state: [`# discern patterns`, summary(data), population(data)].filter(Boolean).join('\n\n'), evidence: [findings(data), investigations(data), detectors(data), stats(data)].filter(Boolean).join('\n\n') });
}

function summary(data: DiscernPatternsData): string {
  const { logbook } = data;
  const which = logbook.source === 'archive' ? `the archive ${code(logbook.name ?? logbook.path)}` : 'the active logbook';
  if (!logbook.exists) return `${which[0]?.toUpperCase()}${which.slice(1)} (${code(logbook.path)}) does not exist yet: nothing to analyse.${logbook.recording ? '' : ' Recording is off (`[project] logbook = false`).'}`;
  const malformed = logbook.malformed > 0 ? `, ${logbook.malformed} malformed line${logbook.malformed === 1 ? '' : 's'} skipped` : '';
  const window = logbook.window.days === null ? 'every event' : logbook.window.from ? `the ${logbook.window.days} days ending at the latest event (${logbook.window.from.slice(0, 10)} to ${logbook.window.to?.slice(0, 10) ?? ''})` : 'the last days';
  const shown = data.findings_total !== undefined ? `${data.findings.length} of ${data.findings_total} findings shown` : `${data.findings.length} finding${data.findings.length === 1 ? '' : 's'}`;
  return `Read ${logbook.events} event${logbook.events === 1 ? '' : 's'} from ${which} (${code(logbook.path)}${malformed}); analysed ${data.population.analyzed} from ${window}. ${shown}; ${data.investigations.length} investigation${data.investigations.length === 1 ? '' : 's'}.${logbook.recording || logbook.source === 'archive' ? '' : ' Recording is off (`[project] logbook = false`).'}`;
}

function population(data: DiscernPatternsData): string | undefined {
  const p = data.population;
  if (p.analyzed === 0) return undefined;
  const names = p.identities.filter((i) => i.actor === 'agent' && i.name).map((i) => `${i.name} ${i.events}`);
  return `Callers: ${p.agent} agent${names.length > 0 ? ` (${names.join(', ')})` : ''}, ${p.human} human, ${p.unknown} unknown.`;
}

function numbers(list: readonly DiscernPatternsNumber[]): string {
  return list.map((n) => `${n.name} ${n.value}${n.of !== undefined ? ` of ${n.of}` : ''} ${n.unit}`).join('; ');
}

function findings(data: DiscernPatternsData): string | undefined {
  if (data.findings.length === 0) return data.population.analyzed > 0 ? 'No finding cleared its detector\'s minimum sample.' : undefined;
  const items = data.findings.map((f) => `- **${f.title}** (${code(f.id)}): ${f.observation}\n  Numbers: ${numbers(f.numbers)}.`);
  return `## Findings\n\n${items.join('\n')}`;
}

function investigations(data: DiscernPatternsData): string | undefined {
  if (data.investigations.length === 0) return undefined;
  const items = data.investigations.map((i) =>
    [
      `### ${i.relationship}: ${i.sources.map(code).join(' and ')}`,
      ...i.evidence.map((e) => `- ${code(e.finding)}: ${e.observation} (${numbers(e.numbers)})`),
      ...(i.link ? [`- Linking count: ${numbers(i.link)}.`] : []),
      '',
      `**Boundary**: ${i.boundary}`,
      '',
      `**Interpretation**: ${i.interpretation}`,
      '',
      `**Action**: ${i.action}`,
      '',
      `**Falsifier**: ${i.falsifier}`,
    ].join('\n'),
  );
  return `## Investigations\n\n${items.join('\n\n')}`;
}

function detectors(data: DiscernPatternsData): string | undefined {
  if (!data.logbook.exists) return undefined;
  return `## Detectors\n\n${table(['Detector', 'Events considered', 'Findings', 'Minimum evidence'], data.detectors.map((d) => [d.name, String(d.considered), String(d.findings), d.requirement]))}`;
}

function stats(data: DiscernPatternsData): string | undefined {
  const s = data.stats;
  if (!s) return undefined;
  const span = s.first_at && s.last_at ? ` from ${s.first_at} to ${s.last_at}` : '';
  return [
    `## Stats\n\n${s.events} event${s.events === 1 ? '' : 's'}${span}.`,
    table(['Verb', 'Calls', 'Ok', 'Median'], s.by_verb.map((v) => [code(v.verb), String(v.events), String(v.ok), `${v.median_ms} ms`])),
    table(['Outcome', 'Calls'], s.by_outcome.map((o) => [code(o.outcome), String(o.events)])),
    table(['Surface', 'Calls'], s.by_surface.map((o) => [o.surface, String(o.events)])),
  ].join('\n\n');
}

export function renderPatternsLifecycle(result: DiscernPatternsSealResult | DiscernPatternsArchivesResult | DiscernPatternsResetResult): string {
  switch (result.verb) {
    case 'patterns seal': {
      const data = result.data && 'sealed' in result.data ? result.data : undefined;
      if (!result.ok || !data) return frame(result, { state: failureState(result, 'discern patterns seal'), evidence: stepsSection(result.steps) });
      const state = data.archive
        ? `**Sealed** the active logbook as ${code(data.archive.name)}: ${data.archive.events} event${data.archive.events === 1 ? '' : 's'}, ${data.archive.bytes} bytes. The next call starts a new active logbook.`
        : 'Nothing was sealed: the active logbook is empty or absent.';
      return frame(result, { state: `# discern patterns seal\n\n${state}`, evidence: stepsSection(result.steps) });
    }
    case 'patterns archives': {
      const data = result.data && 'archives' in result.data ? result.data : undefined;
      if (!result.ok || !data) return frame(result, { state: failureState(result, 'discern patterns archives') });
      const active = data.active.exists ? `The active logbook (${code(data.active.path)}) holds ${data.active.events} event${data.active.events === 1 ? '' : 's'} (${data.active.bytes} bytes).` : 'There is no active logbook yet.';
      const recording = data.active.recording ? '' : ' Recording is off (`[project] logbook = false`).';
      const rows = data.archives.map((a) => [code(a.name), String(a.events), String(a.bytes), a.first_at ?? '', a.last_at ?? '']);
      const list = data.archives.length > 0 ? `## Archives (${data.archives.length})\n\n${table(['Name', 'Events', 'Bytes', 'First event', 'Last event'], rows)}` : `No sealed logbooks in ${code(data.folder)}.`;
      const skipped = data.skipped && data.skipped.length > 0 ? `Left alone (not regular archive files): ${data.skipped.map(code).join(', ')}.` : undefined;
      return frame(result, { state: `# discern patterns archives\n\n${active}${recording}`, evidence: [list, skipped].filter(Boolean).join('\n\n') });
    }
    case 'patterns reset': {
      const data = result.data && 'removed' in result.data ? result.data : undefined;
      if (!result.ok) return frame(result, { state: failureState(result, 'discern patterns reset'), evidence: [planSection(result.plan), stepsSection(result.steps)].filter(Boolean).join('\n\n') || undefined });
      const state = data?.removed ? `**Deleted** the active logbook (${data.events} event${data.events === 1 ? '' : 's'}, ${data.bytes} bytes). Archives stay.` : 'Nothing was deleted.';
      return frame(result, { state: `# discern patterns reset\n\n${state}`, evidence: stepsSection(result.steps) });
    }
  }
}
