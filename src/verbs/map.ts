// map: the project's agent-maintained Markdown map, through the same discovery funnel and ranker as docs.
// The index adds, per region, when its pages last changed and how much the code they cite has changed since.
import { VERBS } from '../../generated/registry.js';
import type { MapOutcome } from '../../generated/handlers.js';
import type { DiscernMapInput, DiscernMapRegion } from '../../generated/types.js';
import { funnel } from '../engine/corpus/funnel.js';
import { entryOf, pageOf, searchOf } from '../engine/corpus/payloads.js';
import { indexCorpus } from '../engine/corpus/search-documents.js';
import type { CorpusRegion } from '../engine/corpus/types.js';
import { regionFreshness } from '../engine/map/freshness.js';
import { readMap, type NoMapReason } from '../engine/map/read-map.js';
import type { ProjectVerbContext } from './context.js';
import { lookupRefusal, type CorpusWords } from './lookup-refusals.js';

const HINTS = VERBS.map.hints;
/** The first half of no_map's next action, for each way the map folder can be unusable. */
const FIXES: Readonly<Record<Exclude<NoMapReason, 'unreadable'>, (dir: string) => string>> = {
  missing: (dir) => `Create ${dir}/ with Markdown pages in region folders`,
  'dangling-link': (dir) => `Create the folder the link ${dir} points to, or replace the link with a folder`,
  'not-a-directory': (dir) => `Replace the file ${dir} with a folder of Markdown pages`,
  'under-a-file': (dir) => `Replace the file in the path ${dir} with a folder`,
  escapes: (dir) => `Make ${dir} a folder inside the project, not reached through a symbolic link that leads out of it`,
};
const WORDS: CorpusWords = { verb: 'map', corpus: 'map', region: 'region', forms: 'path, region/page, slug or region' };

export async function map(input: DiscernMapInput, ctx: ProjectVerbContext): Promise<MapOutcome> {
  const { project } = ctx;
  const read = await readMap(project.root, project.config.map?.dir);
  if (!read.ok) {
    if (read.reason === 'unreadable')
      return {
        refusal: { error: 'read_failed', message: read.message, next: { target: `${read.dir}/`, access: 'readable' } },
      };
    return {
      data: { map_dir: read.dir },
      refusal: { error: 'no_map', message: read.message, next: { fix: FIXES[read.reason](read.dir) } },
    };
  }
  // The map is indexed only for a search: a page or the listing reads the pages as they are.
  const corpus = read.corpus;
  const answer = await funnel(
    { pages: async () => corpus, index: async () => indexCorpus(corpus).index },
    input,
    read.dir,
  );
  switch (answer.kind) {
    case 'refused':
    case 'unknown':
    case 'ambiguous':
      return lookupRefusal(answer, WORDS, ctx);
    case 'search':
      return {
        data: searchOf(answer),
        hints: answer.outcome.results.length === 0 ? [HINTS.search_empty] : [HINTS.read_page],
      };
    case 'page':
      return { data: { doc: pageOf(answer.page) } };
    case 'index': {
      const facts = await regionFreshness({ cwd: project.root, env: ctx.env, signal: ctx.signal }, read.dir, {
        pages: answer.pages,
        regions: answer.regions,
      });
      const regions: DiscernMapRegion[] = answer.regions.map((r: CorpusRegion) => ({
        name: r.name,
        title: r.title,
        description: r.description,
        page_count: r.page_count,
        ...(facts.get(r.name) ?? { cited_files: 0 }),
      }));
      const stale = regions.some((r) => (r.code_changes_since ?? 0) > 0);
      // A region's index carries the notices about its own folder; the whole index carries every one.
      const scopeDir = answer.scope ? `${answer.scope.dir}/` : '';
      const [first, ...rest] = read.notices.filter((n) => n.path.startsWith(scopeDir));
      return {
        data: {
          map_dir: read.dir,
          ...(answer.scope ? { scope: answer.scope.name } : {}),
          count: answer.pages.length,
          docs: answer.pages.map(entryOf),
          regions,
          ...(first ? { notices: [first, ...rest] } : {}),
        },
        hints: [...(stale ? [HINTS.stale_regions] : []), ...(first ? [HINTS.notices] : []), HINTS.read_page],
      };
    }
  }
}
