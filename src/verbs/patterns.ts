// patterns and its CLI-only lifecycle (seal, archives, reset): reading what the logbook recorded, and closing,
// listing or forgetting it. The logbook itself is written by invoke() for every call, never here
// (docs/decisions/0026).
import { stat, unlink } from 'node:fs/promises';
import { relative } from 'node:path';
import type {
  PatternsArchivesOutcome,
  PatternsOutcome,
  PatternsResetOutcome,
  PatternsSealOutcome,
} from '../../generated/handlers.js';
import { VERBS } from '../../generated/registry.js';
import type {
  DiscernPatternsArchivesInput,
  DiscernPatternsData,
  DiscernPatternsInput,
  DiscernPatternsResetInput,
  DiscernPatternsSealInput,
} from '../../generated/types.js';
import { analyse } from '../engine/logbook/analyse.js';
import { confinedArchive, countEvents, listArchives } from '../engine/logbook/archives.js';
import { archiveFileName, logbookPaths } from '../engine/logbook/paths.js';
import { sealActive } from '../engine/logbook/seal.js';
import type { ProjectVerbContext } from './context.js';

const ARCHIVES_CALL = '`discern patterns archives` (CLI)';

export async function patterns(input: DiscernPatternsInput, ctx: ProjectVerbContext): Promise<PatternsOutcome> {
  const paths = logbookPaths(ctx.project.commonDir);
  const recording = ctx.project.config.project?.logbook !== false;
  let path = paths.active;
  let archive: string | undefined;
  if (input.logbook_file !== undefined) {
    const name = archiveFileName(input.logbook_file);
    const found = name === undefined ? undefined : await confinedArchive(paths.archives, name);
    if (name === undefined || found === undefined) {
      const { archives } = await listArchives(paths.archives).catch(() => ({ archives: [] }));
      const names = archives.map((a) => a.name);
      return {
        refusal: {
          error: 'unknown_target',
          message: `"${input.logbook_file}" is not a sealed logbook in ${paths.archives}${names.length > 0 ? `; the archives are ${names.slice(-6).join(', ')}${names.length > 6 ? ` and ${names.length - 6} older` : ''}` : '; there are none yet (`discern patterns seal` makes one)'}.`,
          next: { list: ARCHIVES_CALL },
        },
      };
    }
    path = found;
    archive = name;
  }
  let analysis;
  try {
    analysis = await analyse({ path, all: input.all === true, stats: input.stats === true });
  } catch (error) {
    return {
      refusal: {
        error: 'read_failed',
        message: `The logbook ${path} could not be read: ${error instanceof Error ? error.message : String(error)}.`,
        next: { target: path, access: 'readable' },
      },
    };
  }
  const { summary } = analysis;
  const data: DiscernPatternsData = {
    logbook: {
      path,
      source: archive === undefined ? 'active' : 'archive',
      ...(archive !== undefined ? { name: archive } : {}),
      exists: summary.exists,
      recording,
      bytes: summary.bytes,
      events: summary.events,
      malformed: summary.malformed,
      ...(summary.first !== undefined ? { first_at: new Date(summary.first).toISOString() } : {}),
      ...(summary.last !== undefined ? { last_at: new Date(summary.last).toISOString() } : {}),
      window: analysis.window,
    },
    population: analysis.population,
    findings: analysis.findings,
    ...(analysis.findingsTotal > analysis.findings.length ? { findings_total: analysis.findingsTotal } : {}),
    investigations: analysis.investigations,
    detectors: analysis.detectors,
    ...(analysis.stats ? { stats: analysis.stats } : {}),
  };
  const hints = VERBS.patterns.hints;
  const notes: string[] = [];
  if (!recording && archive === undefined) notes.push(hints['not_recording'] ?? '');
  if (summary.events === 0) notes.push(hints['empty'] ?? '');
  else if (
    input.all !== true &&
    (analysis.findingsTotal > analysis.findings.length ||
      analysis.investigationsTotal > analysis.investigations.length ||
      (summary.first !== undefined &&
        analysis.window.from !== undefined &&
        summary.first < Date.parse(analysis.window.from)))
  )
    notes.push(hints['all_route'] ?? '');
  return { data, ...(notes.length > 0 ? { hints: notes } : {}) };
}

export async function patternsArchives(
  _input: DiscernPatternsArchivesInput,
  ctx: ProjectVerbContext,
): Promise<PatternsArchivesOutcome> {
  const paths = logbookPaths(ctx.project.commonDir);
  try {
    const [listing, active] = await Promise.all([listArchives(paths.archives), countEvents(paths.active)]);
    const exists = await stat(paths.active).then(
      () => true,
      () => false,
    );
    return {
      data: {
        folder: paths.archives,
        archives: listing.archives,
        ...(listing.skipped.length > 0 ? { skipped: listing.skipped } : {}),
        active: {
          path: paths.active,
          exists,
          bytes: active.bytes,
          events: active.events,
          recording: ctx.project.config.project?.logbook !== false,
        },
      },
      hints: [VERBS.patternsArchives.hints['read'] ?? ''],
    };
  } catch (error) {
    return {
      refusal: {
        error: 'read_failed',
        message: `The logbook archives in ${paths.archives} could not be read: ${error instanceof Error ? error.message : String(error)}.`,
        next: { target: paths.archives, access: 'readable' },
      },
    };
  }
}

export async function patternsSeal(
  _input: DiscernPatternsSealInput,
  ctx: ProjectVerbContext,
): Promise<PatternsSealOutcome> {
  const paths = logbookPaths(ctx.project.commonDir);
  const hints = VERBS.patternsSeal.hints;
  const size = await stat(paths.active).then(
    (s) => s.size,
    () => 0,
  );
  if (size === 0) return { data: { sealed: false, active: paths.active }, hints: [hints['nothing'] ?? ''] };
  const label = `move ${relative(ctx.project.commonDir, paths.active)} into ${relative(ctx.project.commonDir, paths.archives)}`;
  if (ctx.signal.aborted) {
    return {
      data: { sealed: false, active: paths.active },
      steps: [{ kind: 'logbook', label, disposition: 'run', outcome: 'skipped' }],
      hints: ['Cancelled before anything changed: the active logbook is as it was.'],
    };
  }
  let sealed;
  try {
    sealed = sealActive(paths);
  } catch (error) {
    return {
      refusal: {
        error: 'write_denied',
        message: `The active logbook could not be moved into ${paths.archives}: ${error instanceof Error ? error.message : String(error)}.`,
        next: { target: paths.archives, access: 'writable' },
      },
    };
  }
  if (sealed === undefined) return { data: { sealed: false, active: paths.active }, hints: [hints['nothing'] ?? ''] };
  const counts = await countEvents(sealed.path).catch(() => ({ bytes: size, events: 0, malformed: 0 }));
  return {
    data: { sealed: true, active: paths.active, archive: { name: sealed.name, path: sealed.path, ...counts } },
    steps: [{ kind: 'logbook', label: `${label} as ${sealed.name}`, disposition: 'run', outcome: 'ok' }],
    hints: [(hints['sealed'] ?? '').replace('{name}', sealed.name.replace(/\.jsonl$/, ''))],
  };
}

export async function patternsReset(
  input: DiscernPatternsResetInput,
  ctx: ProjectVerbContext,
): Promise<PatternsResetOutcome> {
  const paths = logbookPaths(ctx.project.commonDir);
  const hints = VERBS.patternsReset.hints;
  const existed = await stat(paths.active).then(
    () => true,
    () => false,
  );
  const counts = existed
    ? await countEvents(paths.active).catch(() => ({ bytes: 0, events: 0 }))
    : { bytes: 0, events: 0 };
  const data = { path: paths.active, existed, removed: false, bytes: counts.bytes, events: counts.events };
  if (!existed) return { data, hints: [hints['nothing'] ?? ''] };
  const label = `delete ${relative(ctx.project.commonDir, paths.active)}`;
  if (input.confirmed !== true) {
    return {
      data,
      plan: {
        title: 'patterns reset would delete the active logbook',
        details: [
          `${paths.active}: ${counts.events} event${counts.events === 1 ? '' : 's'}, ${counts.bytes} bytes. Archives stay.`,
        ],
        steps: [{ kind: 'logbook', label, disposition: 'run' }],
      },
      hints: [hints['seal_instead'] ?? ''],
      refusal: {
        error: 'confirmation_required',
        message: `Deleting the active logbook (${counts.events} event${counts.events === 1 ? '' : 's'} since it began) cannot be undone: run \`discern patterns reset --confirmed\` to delete it, or \`discern patterns seal\` to keep it as an archive.`,
        next: {},
      },
    };
  }
  if (ctx.signal.aborted)
    return {
      data,
      steps: [{ kind: 'logbook', label, disposition: 'run', outcome: 'skipped' }],
      hints: ['Cancelled before anything changed: the active logbook is as it was.'],
    };
  try {
    await unlink(paths.active);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      return {
        refusal: {
          error: 'write_denied',
          message: `The active logbook ${paths.active} could not be deleted: ${error instanceof Error ? error.message : String(error)}.`,
          next: { target: paths.folder, access: 'writable' },
        },
      };
    }
  }
  return { data: { ...data, removed: true }, steps: [{ kind: 'logbook', label, disposition: 'run', outcome: 'ok' }] };
}
