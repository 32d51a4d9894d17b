// The release history (spec/releases.yaml) against its schema (spec/releases.schema.json, vocabularies
// expanded as published), and the rules a schema cannot state: package.json's version has an entry, each version
// appears once, the list runs newest first, a version with a pre-release tag is on the prerelease channel, and
// the release shape `discern releases` returns (its data schema's $defs) is the published one.
import { isDeepStrictEqual } from 'node:util';
import { listVocabularies, expandVocabularies } from '../schemas/vocabulary.js';
import { createAjv } from './ajv.js';
import type { ProblemList } from './errors.js';
import type { JsonSchema, ReleasesSpec, VerbModel, VocabulariesSpec } from './types.js';
import { isObject } from './walk.js';

const FILE = 'spec/releases.yaml';

export interface ReleaseCheckInput {
  schema: JsonSchema;
  releases: ReleasesSpec | undefined;
  vocabularies: VocabulariesSpec;
  /** package.json's version. */
  version: string;
  verbs: readonly VerbModel[];
}

export function checkReleases({ schema, releases, vocabularies, version, verbs }: ReleaseCheckInput, problems: ProblemList): void {
  if (releases === undefined) return; // unparseable: already reported
  const expanded = expandVocabularies(schema, listVocabularies(vocabularies), 'published') as JsonSchema;
  const { $schema: _s, ...compilable } = expanded;
  const validate = createAjv().compile(compilable);
  if (!validate(releases)) {
    for (const e of validate.errors ?? []) problems.add(FILE, e.instancePath, e.message ?? e.keyword);
    return;
  }
  const list = releases.releases;
  if (!list.some((r) => r.version === version)) {
    problems.add(FILE, '/releases', `package.json's version ${version} has no entry: add one (newest first) describing what it changes`);
  }
  const seen = new Set<string>();
  list.forEach((release, i) => {
    const at = `/releases/${i}`;
    if (seen.has(release.version)) problems.add(FILE, `${at}/version`, `version ${release.version} appears more than once`);
    seen.add(release.version);
    if (release.version.includes('-') && release.channel !== 'prerelease') problems.add(FILE, `${at}/channel`, `${release.version} has a pre-release tag, so its channel is prerelease`);
    const next = list[i + 1];
    if (next !== undefined && compareVersions(release.version, next.version) <= 0) problems.add(FILE, at, `releases run newest first: ${release.version} is listed before ${next.version}`);
    if (next !== undefined && release.date < next.date) problems.add(FILE, `${at}/date`, `${release.version} (${release.date}) is dated before the older ${next.version} (${next.date})`);
  });

  const verb = verbs.find((v) => v.spec.verb === 'releases');
  if (verb === undefined) return;
  const own = isObject(schema['$defs']) ? schema['$defs'] : {};
  const returned = isObject(verb.data['$defs']) ? verb.data['$defs'] : {};
  for (const name of Object.keys(own)) {
    if (!isDeepStrictEqual(own[name], returned[name])) {
      problems.add(`${verb.dir}/data.schema.json`, `/$defs/${name}`, `must equal spec/releases.schema.json#/$defs/${name}: discern releases returns the published release shape`);
    }
  }
}

/** Semantic-version precedence: negative when a precedes b. */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string): { core: number[]; pre: string[] } => {
    const [core = '', ...rest] = v.split('-');
    return { core: core.split('.').map(Number), pre: rest.length > 0 ? rest.join('-').split('.') : [] };
  };
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < 3; i++) {
    const d = (x.core[i] ?? 0) - (y.core[i] ?? 0);
    if (d !== 0) return d;
  }
  if (x.pre.length === 0 || y.pre.length === 0) return y.pre.length - x.pre.length;
  for (let i = 0; i < Math.max(x.pre.length, y.pre.length); i++) {
    const p = x.pre[i];
    const q = y.pre[i];
    if (p === undefined) return -1;
    if (q === undefined) return 1;
    const pn = /^\d+$/.test(p);
    const qn = /^\d+$/.test(q);
    if (pn && qn && Number(p) !== Number(q)) return Number(p) - Number(q);
    if (pn !== qn) return pn ? -1 : 1;
    if (p !== q) return p < q ? -1 : 1;
  }
  return 0;
}
