// Reads spec/ and checks it before anything is generated: every file against its meta-schema, every JSON
// Schema compiled under Ajv 2020 strict, and the cross-references between files (vocabularies, error slugs,
// CLI flags ↔ input keys, tool order). Every problem names its file and JSON pointer.
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { ErrorObject } from 'ajv';
import { createAjv } from './ajv.js';
import { ProblemList } from './errors.js';
import { resolvePolicy } from './policy.js';
import { checkSchemaTree } from './schema-checks.js';
import { checkVerb } from './verb-checks.js';
import { checkReleases } from './release-checks.js';
import { parse as parseToml, TomlError } from 'smol-toml';
import { CONFIG_DEF_REF } from '../schemas/setup-config.js';
import type { CliSpec, JsonSchema, McpSpec, PromptModel, PromptSpec, ReleasesSpec, SpecModel, VerbModel, VerbSpec, VocabulariesSpec } from './types.js';

export interface LoadOptions {
  /** Repository root; spec/ and package.json are read from here. */
  root: string;
}

export function loadSpec({ root }: LoadOptions): SpecModel {
  const problems = new ProblemList();
  const sources = new Map<string, string>();
  const read = (rel: string): string => {
    const text = readFileSync(join(root, rel), 'utf8');
    sources.set(rel, text);
    return text;
  };
  const readJson = (rel: string): JsonSchema => {
    try {
      return JSON.parse(read(rel)) as JsonSchema;
    } catch (error) {
      problems.add(rel, '', `not valid JSON: ${(error as Error).message}`);
      return {};
    }
  };
  const readYaml = (rel: string): unknown => {
    try {
      return parseYaml(read(rel), { prettyErrors: true }) as unknown;
    } catch (error) {
      problems.add(rel, '', `not valid YAML: ${(error as Error).message}`);
      return undefined;
    }
  };

  const meta = createAjv();
  const checkAgainst = (metaRel: string, rel: string, value: unknown): void => {
    if (value === undefined) return; // unparseable: already reported
    const validate = meta.getSchema(metaId(metaRel)) ?? meta.compile(readJson(metaRel));
    if (!validate(value)) for (const e of validate.errors ?? []) problems.add(rel, e.instancePath, describe(e));
  };

  const vocabularies = readYaml('spec/vocabularies.yaml') as VocabulariesSpec;
  checkAgainst('spec/meta/vocabularies.schema.json', 'spec/vocabularies.yaml', vocabularies);
  const mcp = readYaml('spec/mcp.yaml') as McpSpec;
  checkAgainst('spec/meta/mcp.schema.json', 'spec/mcp.yaml', mcp);
  const cli = readYaml('spec/cli.yaml') as CliSpec;
  checkAgainst('spec/meta/cli.schema.json', 'spec/cli.yaml', cli);
  const conventions = readYaml('spec/conventions.yaml') as Record<string, unknown>;
  checkAgainst('spec/meta/conventions.schema.json', 'spec/conventions.yaml', conventions);
  problems.throwIfAny();
  checkVocabularies(vocabularies, problems);

  const envelope = readJson('spec/envelope.schema.json');
  const common = readJson('spec/common.schema.json');
  const config = readJson('spec/config.schema.json');
  const proofNote = readJson('spec/proof-note.schema.json');
  const exceptionNote = readJson('spec/exception-note.schema.json');
  const setupConfig = readJson('spec/setup-config.schema.json');
  const progressLine = readJson('spec/progress-line.schema.json');
  const releasesSchema = readJson('spec/releases.schema.json');
  const releases = readYaml('spec/releases.yaml') as ReleasesSpec;

  const verbs: VerbModel[] = [];
  const verbsDir = join(root, 'spec/verbs');
  for (const folder of readdirSync(verbsDir).sort()) {
    if (!statSync(join(verbsDir, folder)).isDirectory()) continue;
    const dir = `spec/verbs/${folder}`;
    for (const file of ['verb.yaml', 'input.schema.json', 'data.schema.json']) {
      if (!existsSync(join(root, dir, file))) problems.add(`${dir}/${file}`, '', 'missing: every verb folder has verb.yaml, input.schema.json and data.schema.json');
    }
    if (problems.items.length > 0) continue;
    const spec = readYaml(`${dir}/verb.yaml`) as VerbSpec;
    checkAgainst('spec/meta/verb.schema.json', `${dir}/verb.yaml`, spec);
    if (problems.items.length > 0) continue;
    const words = spec.verb.split(' ');
    if (words.join('-') !== folder) problems.add(`${dir}/verb.yaml`, '/verb', `verb "${spec.verb}" must live in spec/verbs/${words.join('-')}/`);
    // A command word may itself hold a hyphen (`config set-job`): the names split on both.
    const parts = spec.verb.split(/[ -]/);
    verbs.push({
      spec,
      dir,
      id: parts.map((w, i) => (i === 0 ? w : capitalise(w))).join(''),
      pascal: parts.map(capitalise).join(''),
      input: readJson(`${dir}/input.schema.json`),
      data: readJson(`${dir}/data.schema.json`),
      policy: resolvePolicy(spec.policy),
    });
  }
  problems.throwIfAny();

  const schemaFiles: [string, JsonSchema][] = [
    ['spec/envelope.schema.json', envelope],
    ['spec/common.schema.json', common],
    ['spec/config.schema.json', config],
    ['spec/proof-note.schema.json', proofNote],
    ['spec/exception-note.schema.json', exceptionNote],
    ['spec/progress-line.schema.json', progressLine],
    ['spec/releases.schema.json', releasesSchema],
    ['spec/setup-config.schema.json', setupConfig],
    ...verbs.flatMap((v): [string, JsonSchema][] => [
      [`${v.dir}/input.schema.json`, v.input],
      [`${v.dir}/data.schema.json`, v.data],
    ]),
  ];
  const vocabularyNames = new Set(['error', ...Object.keys(vocabularies.open), ...Object.keys(vocabularies.closed)]);
  // The setup recipe borrows discern.toml's sections (codegen/schemas/setup-config.ts); no other file may.
  for (const [file, schema] of schemaFiles) checkSchemaTree(file, schema, vocabularyNames, problems, file === 'spec/setup-config.schema.json' ? CONFIG_DEF_REF : undefined);
  problems.throwIfAny();
  compileAll(schemaFiles, problems);
  for (const verb of verbs) checkVerb(verb, vocabularies, problems);
  checkMcp(mcp, verbs, problems);
  problems.throwIfAny();

  const prompts = loadPrompts(root, mcp, config, { read, readYaml, checkAgainst }, problems);
  problems.throwIfAny();

  const pkg = JSON.parse(read('package.json')) as { version: string };
  checkReleases({ schema: releasesSchema, releases, vocabularies, version: pkg.version, verbs }, problems);
  problems.throwIfAny();
  return { version: pkg.version, vocabularies, envelope, common, config, proofNote, exceptionNote, progressLine, releasesSchema, releases, setupConfig, conventions, mcp, cli, verbs, prompts, sources };
}

interface Readers {
  read: (rel: string) => string;
  readYaml: (rel: string) => unknown;
  checkAgainst: (metaRel: string, rel: string, value: unknown) => void;
}

/**
 * spec/prompts/<name>.yaml, each checked against its meta-schema, in prompt_order. A prompt's worked example
 * (spec/prompts/<example>.toml) must be a discern.toml the config schema accepts: the example a model copies
 * can never drift from what discern honours.
 */
function loadPrompts(root: string, mcp: McpSpec, config: JsonSchema, readers: Readers, problems: ProblemList): PromptModel[] {
  const dir = join(root, 'spec/prompts');
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort() : [];
  const found = new Map<string, PromptModel>();
  const validateConfig = createAjv().compile(withoutDollarSchema({ ...config, $id: specId('spec/config.schema.json') }));
  for (const name of files) {
    const rel = `spec/prompts/${name}`;
    const spec = readers.readYaml(rel) as PromptSpec;
    const before = problems.items.length;
    readers.checkAgainst('spec/meta/prompt.schema.json', rel, spec);
    if (problems.items.length > before) continue;
    if (`${spec.name}.yaml` !== name) problems.add(rel, '/name', `prompt "${spec.name}" must live in spec/prompts/${spec.name}.yaml`);
    const argNames = spec.arguments.map((a) => a.name);
    argNames.forEach((a, i) => {
      if (argNames.indexOf(a) !== i) problems.add(rel, `/arguments/${i}/name`, `argument "${a}" is declared twice`);
    });
    const model: PromptModel = { spec, file: rel };
    if (spec.example !== undefined) {
      const exampleRel = `spec/prompts/${spec.example}`;
      if (!existsSync(join(root, exampleRel))) problems.add(rel, '/example', `${exampleRel} does not exist`);
      else {
        const text = readers.read(exampleRel);
        model.example = text;
        try {
          const value = JSON.parse(JSON.stringify(parseToml(text))) as unknown;
          if (!validateConfig(value)) for (const e of validateConfig.errors ?? []) problems.add(exampleRel, e.instancePath, `the worked example is not a valid discern.toml: ${describe(e)}`);
        } catch (error) {
          if (!(error instanceof TomlError)) throw error;
          problems.add(exampleRel, '', `the worked example is not valid TOML: ${error.message.split('\n')[0] ?? ''}`);
        }
      }
    }
    found.set(spec.name, model);
  }
  for (const name of found.keys()) if (!mcp.prompt_order.includes(name)) problems.add('spec/mcp.yaml', '/prompt_order', `prompt "${name}" (spec/prompts/${name}.yaml) is not in prompt_order`);
  mcp.prompt_order.forEach((name, i) => {
    if (!found.has(name)) problems.add('spec/mcp.yaml', `/prompt_order/${i}`, `prompt_order names "${name}", but spec/prompts/${name}.yaml does not exist`);
  });
  return mcp.prompt_order.flatMap((name) => found.get(name) ?? []);
}

function compileAll(files: [string, JsonSchema][], problems: ProblemList): void {
  // One instance holds every spec schema under a stable id, so relative $refs between files resolve.
  const ajv = createAjv();
  for (const [file, schema] of files) {
    if (!ajv.validateSchema(schema)) {
      for (const e of ajv.errors ?? []) problems.add(file, e.instancePath, `not a valid 2020-12 schema: ${describe(e)}`);
      continue;
    }
    ajv.addSchema(withoutDollarSchema({ ...schema, $id: specId(file) }), specId(file));
  }
  for (const [file] of files) {
    try {
      ajv.getSchema(specId(file));
    } catch (error) {
      problems.add(file, '', `does not compile under Ajv 2020 strict: ${(error as Error).message}`);
    }
  }
}

function checkVocabularies(v: VocabulariesSpec, problems: ProblemList): void {
  const file = 'spec/vocabularies.yaml';
  for (const name of Object.keys(v.open)) {
    if (name in v.closed) problems.add(file, `/closed/${name}`, `"${name}" is both open and closed`);
  }
  for (const [slug, entry] of Object.entries(v.error_slugs)) {
    if (!(entry.family in v.error_families)) problems.add(file, `/error_slugs/${slug}/family`, `unknown family "${entry.family}"`);
  }
  // The consent table has one row per consent source, and each row's queue authority is a queue_authority member.
  const sources = v.open['consent_source']?.members ?? [];
  const rows = Object.keys(v.consent_sources);
  for (const s of sources) if (!rows.includes(s)) problems.add(file, '/consent_sources', `has no row for consent source "${s}"`);
  for (const r of rows) if (!sources.includes(r)) problems.add(file, `/consent_sources/${r}`, `"${r}" is not a member of consent_source`);
  const queueAuthorities = v.open['queue_authority']?.members ?? [];
  for (const [r, row] of Object.entries(v.consent_sources))
    if (!queueAuthorities.includes(row.queue_authority)) problems.add(file, `/consent_sources/${r}/queue_authority`, `"${row.queue_authority}" is not a member of queue_authority`);
  // A pre-authorized row names its queue_source (a queue_authority_source member); a row awaiting the owner has none.
  const queueSources = v.open['queue_authority_source']?.members ?? [];
  for (const [r, row] of Object.entries(v.consent_sources)) {
    const preAuthorized = row.queue_authority === 'pre-authorized';
    if (preAuthorized && row.queue_source === undefined) problems.add(file, `/consent_sources/${r}`, 'is pre-authorized but names no queue_source');
    if (!preAuthorized && row.queue_source !== undefined) problems.add(file, `/consent_sources/${r}/queue_source`, 'is set on a row that awaits the owner');
    if (row.queue_source !== undefined && !queueSources.includes(row.queue_source)) problems.add(file, `/consent_sources/${r}/queue_source`, `"${row.queue_source}" is not a member of queue_authority_source`);
  }
}

function checkMcp(mcp: McpSpec, verbs: VerbModel[], problems: ProblemList): void {
  const file = 'spec/mcp.yaml';
  const profiles = mcp.client_profiles;
  for (const [client, profile] of Object.entries(profiles.clients)) {
    if (!(profile in profiles.profiles)) problems.add(file, `/client_profiles/clients/${client}`, `names profile "${profile}", which client_profiles.profiles does not define`);
    if (client !== client.toLowerCase()) problems.add(file, `/client_profiles/clients/${client}`, 'client names are compared lower-cased: write them in lower case');
  }
  for (const key of ['cli', 'unknown'] as const) {
    if (!(profiles[key] in profiles.profiles)) problems.add(file, `/client_profiles/${key}`, `names profile "${profiles[key]}", which client_profiles.profiles does not define`);
  }
  const names = new Set<string>();
  for (const verb of verbs) {
    const tool = verb.spec.mcp;
    if (!tool) continue;
    if (names.has(tool.name)) problems.add(`${verb.dir}/verb.yaml`, '/mcp/name', `tool name ${tool.name} is used twice`);
    names.add(tool.name);
    if (!mcp.tool_order.includes(verb.spec.verb)) problems.add(file, '/tool_order', `verb "${verb.spec.verb}" has an MCP tool but is not in tool_order`);
  }
}

export const SPEC_ID_BASE = 'https://discern.sh/spec/';

export function specId(file: string): string {
  return SPEC_ID_BASE + file.replace(/^spec\//, '');
}

function metaId(rel: string): string {
  return specId(rel);
}

function withoutDollarSchema(schema: JsonSchema): JsonSchema {
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}

function describe(e: ErrorObject): string {
  const extra = e.keyword === 'additionalProperties' ? ` ("${String((e.params as { additionalProperty: string }).additionalProperty)}")` : '';
  return `${e.message ?? e.keyword}${extra}`;
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

export function relativeTo(root: string, path: string): string {
  return relative(root, path).split('\\').join('/');
}
