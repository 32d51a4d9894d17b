// The map category: the project keeps an agent-maintained map with more than a page or two, its links lead
// somewhere, its pages say what they are about, its decision index is current, and the code it describes has
// not moved on without it.
import { HISTORY_WINDOW } from '../map-lag.js';
import type { Category, Rule } from '../types.js';
import { blocked, count, listed, verdict } from '../verdict.js';

/** A map with fewer pages than this is a start, not a map. */
const PAGES_FOR_A_MAP = 3;
/** Commits to a region's cited code since its pages changed before the region wants reading again. */
const STALE_AFTER_COMMITS = 5;

const pages: Rule = {
  id: 'map.pages',
  title: 'The project has a map of several pages',
  severity: 3,
  kind: 'fix',
  evaluate(facts) {
    const m = facts.map;
    const read = [`${m.dir}/ (tracked pages)`];
    const counts = { pages: m.pages.length, regions: m.regions.length };
    const fix = `Write pages under ${m.dir}/ — one folder per area of the project, a page per thing an agent must know there (\`discern docs map\` shows the layout) — and commit them.`;
    if (m.pages.length === 0)
      return verdict('fail', m.exists ? `${m.dir}/ holds no tracked Markdown page.` : `${m.dir}/ does not exist.`, {
        read,
        counts,
        fix,
        against: `${m.dir}/`,
      });
    if (m.pages.length < PAGES_FOR_A_MAP)
      return verdict('partial', `${count(m.pages.length, 'tracked page')} in ${m.dir}/.`, {
        read,
        counts,
        fix,
        against: `${m.dir}/`,
      });
    return verdict(
      'pass',
      `${count(m.pages.length, 'tracked page')} in ${count(m.regions.length, 'region')} under ${m.dir}/.`,
      { read, counts },
    );
  },
};

const links: Rule = {
  id: 'map.links',
  title: "The map's relative links resolve",
  severity: 2,
  kind: 'fix',
  evaluate(facts) {
    const m = facts.map;
    const read = [`${m.dir}/ (tracked pages)`, 'tracked files'];
    if (m.pages.length === 0) return blocked('map.pages', 'There are no map pages whose links could be checked.', read);
    const broken = m.brokenLinks;
    const counts = { pages: m.pages.length, broken: broken.length };
    if (broken.length === 0)
      return verdict(
        'pass',
        `Every relative link in ${count(m.pages.length, 'page')} names a tracked file or folder.`,
        { read, counts },
      );
    const first = broken[0];
    return verdict(
      'fail',
      `${count(broken.length, 'broken link')}: ${listed(broken.map((b) => `${b.page}:${b.line} → ${b.target}`))}.`,
      {
        read,
        counts,
        fix: `Edit ${first?.page ?? ''} line ${first?.line ?? ''}: point the link at a tracked file, or remove it. \`discern done\` fails on these (map_integrity).`,
        against: first?.page ?? '',
      },
    );
  },
};

const descriptions: Rule = {
  id: 'map.descriptions',
  title: 'Map pages have front matter with a title and a description',
  severity: 1,
  kind: 'fix',
  evaluate(facts) {
    const m = facts.map;
    const read = [`${m.dir}/ front matter`];
    if (m.pages.length === 0) return blocked('map.pages', 'There are no map pages to describe.', read);
    // Decision records are listed by number and title in their index; they need no description of their own.
    const described = m.pages.filter((p) => !p.path.startsWith(`${m.decisionsDir}/`));
    const bare = described.filter((p) => !p.has_front_matter || !p.description || !p.title);
    const counts = { pages: described.length, without: bare.length };
    if (bare.length === 0)
      return verdict(
        'pass',
        `All ${count(described.length, 'page')} (decision records aside) have a title and a description.`,
        { read, counts },
      );
    const first = bare[0]?.path ?? '';
    return verdict(
      bare.length * 2 <= described.length ? 'partial' : 'fail',
      `${bare.length} of ${count(described.length, 'page')} lack a title or description in front matter: ${listed(bare.map((p) => p.path))}. Search and the index show such pages by their first lines.`,
      {
        read,
        counts,
        fix: `Start ${first} with front matter: \`---\\ntitle: …\\ndescription: one sentence on what the page answers\\n---\`.`,
        against: first,
      },
    );
  },
};

const adrIndex: Rule = {
  id: 'map.decisions',
  title: 'Decisions are recorded, numbered once, and indexed',
  severity: 1,
  kind: 'fix',
  evaluate(facts) {
    const m = facts.map;
    const read = [`${m.decisionsDir}/`, `${m.decisionsDir}/README.md`];
    if (m.decisions === undefined || m.decisions.length === 0) {
      return verdict(
        'partial',
        `${m.decisionsDir}/ ${m.decisions === undefined ? 'does not exist' : 'holds no record'}: why the project is as it is lives only in people's heads.`,
        {
          read,
          counts: { records: 0 },
          fix: `Record the next decision as ${m.decisionsDir}/0001-<slug>.md (context, decision, consequences), then run \`discern refresh\` for the index.`,
          against: `${m.decisionsDir}/`,
        },
      );
    }
    const byNumber = new Map<number, string[]>();
    for (const d of m.decisions) byNumber.set(Number(d.number), [...(byNumber.get(Number(d.number)) ?? []), d.file]);
    const duplicates = [...byNumber.values()].filter((files) => files.length > 1);
    const stale = facts.refresh.targets.some((t) => t.kind === 'adr-index');
    const counts = { records: m.decisions.length, duplicate_numbers: duplicates.length };
    if (duplicates.length > 0) {
      return verdict(
        'fail',
        `${count(duplicates.length, 'number')} used twice: ${listed(duplicates.map((f) => f.join(' and ')))}.`,
        {
          read,
          counts,
          fix: `Renumber ${duplicates[0]?.[1] ?? ''} to the next free number and update links to it.`,
          against: duplicates[0]?.[1] ?? '',
        },
      );
    }
    if (stale)
      return verdict(
        'fail',
        `The index in ${m.decisionsDir}/README.md does not list the ${count(m.decisions.length, 'record')} as they are.`,
        { read, counts, fix: 'Run `discern refresh` and commit the index.', against: `${m.decisionsDir}/README.md` },
      );
    return verdict('pass', `${count(m.decisions.length, 'record')}, each number once, indexed.`, { read, counts });
  },
};

const fresh: Rule = {
  id: 'map.fresh',
  title: 'No region of the map lags far behind the code it cites',
  severity: 1,
  kind: 'review',
  evaluate(facts) {
    const m = facts.map;
    const read = [`${m.dir}/ regions`, `git log (last ${HISTORY_WINDOW} commits) of the files they cite`];
    if (m.pages.length === 0) return blocked('map.pages', 'There is no map whose freshness could be measured.', read);
    const measured = m.regions.filter((r) => r.code_changes_since !== undefined);
    const stale = measured.filter((r) => (r.code_changes_since ?? 0) >= STALE_AFTER_COMMITS);
    const counts = { regions: m.regions.length, measured: measured.length, stale: stale.length };
    const lag = (r: (typeof stale)[number]): string =>
      `${r.lower_bound ? 'at least ' : ''}${r.code_changes_since ?? 0}`;
    const reviews = stale.map((r) => ({
      subject: `map region ${r.name}`,
      reason: `${lag(r)} commits changed the code it cites since its pages last changed`,
    }));
    if (stale.length === 0)
      return verdict(
        'pass',
        `${count(measured.length, 'region')} cite${measured.length === 1 ? 's' : ''} code; none has ${STALE_AFTER_COMMITS} or more commits to it since its pages changed.`,
        { read, counts },
      );
    const first = stale[0]?.name ?? '';
    return verdict(
      stale.length === measured.length ? 'fail' : 'partial',
      `${stale.length} of ${count(measured.length, 'region')} lag the code they cite: ${listed(stale.map((r) => `${r.name} (${lag(r)} commits)`))}.`,
      {
        read,
        counts,
        reviews,
        fix: `Read region ${first} (\`discern map ${first}\`) against the code it cites, and correct what changed.`,
        against: `${m.dir}/`,
      },
    );
  },
};

export const MAP: Category = {
  name: 'map',
  title: 'Map',
  weight: 1,
  rules: [pages, links, descriptions, adrIndex, fresh],
};
