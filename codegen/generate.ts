// Produces every generated file in memory from spec/ (docs/ for the manual bundle; spec/agents/ for the built-in
// agent instructions and skills). Pure apart from reading the inputs: the same inputs give byte-identical output.
import type { SpecModel } from './spec/types.js';
import { loadSpec } from './spec/load.js';
import { buildContracts } from './schemas/contracts.js';
import { buildCliGrammar } from './schemas/cli-grammar.js';
import { emitJsonArtifacts, emitMcpManifest, MCP_MANIFEST } from './emit/json-artifacts.js';
import { schemaEntries } from './emit/mcp-model.js';
import { emitPublishedSchemas } from './emit/published-schemas.js';
import { ProblemList } from './spec/errors.js';
import { emitTypes } from './emit/types.js';
import { emitValidators } from './emit/validators.js';
import { emitRegistry } from './emit/registry.js';
import { withCodeHeader } from './emit/provenance.js';
import { checkGrammar } from './emit/grammar-check.js';
import { emitManual } from './emit/manual.js';
import { builtinSkillNames, emitAgentAssets } from './emit/agent-assets.js';
import { emitConfigMigrations } from './emit/config-migrations.js';
import { emitPresentations } from './emit/presentations.js';
import { emitState } from './emit/state.js';
import { emitPolicySections } from './emit/policy-sections.js';
import { emitReadmeRegions } from './emit/doc-regions.js';

/** Directories whose every file is generated; anything else found there is an orphan. */
export const OWNED_DIRS = ['generated', 'schema', 'types'] as const;

export async function generateAll(root: string): Promise<{ model: SpecModel; files: Map<string, string> }> {
  const model = loadSpec({ root });
  const contracts = buildContracts(model);
  const grammar = buildCliGrammar(model, contracts);
  checkGrammar(grammar, contracts);
  const files = new Map<string, string>();
  const add = (entries: Map<string, string>): void => {
    for (const [path, text] of entries) files.set(path, text);
  };
  add(emitJsonArtifacts(model, contracts, grammar));
  // The manifest lists every published schema (itself included) as a resource, so it is written after them.
  const schemas = schemaEntries(model, new Map([...files, [MCP_MANIFEST, '']]));
  checkAttachments(
    model,
    schemas.map((s) => s.name),
  );
  add(emitMcpManifest(model, contracts, schemas, builtinSkillNames(root)));
  add(emitValidators(model, contracts));
  add(emitRegistry(model, contracts, grammar, schemas));
  add(emitManual(root, model, contracts, grammar, schemas));
  add(emitReadmeRegions(root, model, contracts));
  add(emitAgentAssets(root));
  add(emitConfigMigrations(root));
  add(emitPolicySections(root));
  add(emitPresentations(root, model, contracts));
  add(await emitState(root, contracts));
  // Every file in schema/ is served as discern://schema/<name>, byte for byte: one emitted anywhere but above
  // would be published yet not served.
  const unserved = [...files.keys()].filter(
    (path) => path.startsWith('schema/') && !schemas.some((s) => `schema/${s.file}` === path),
  );
  if (unserved.length > 0)
    throw new Error(
      `${unserved.join(', ')}: emitted after the schema resources were listed; emit it in codegen/emit/json-artifacts.ts`,
    );
  add(emitPublishedSchemas(schemas, files));
  const typeSources = ['spec/envelope.schema.json', 'spec/vocabularies.yaml', 'spec/verbs/*'];
  files.set('generated/types.ts', withCodeHeader(typeSources, await emitTypes(model, contracts, 'internal')));
  files.set('types/discern-json.d.ts', withCodeHeader(typeSources, await emitTypes(model, contracts, 'published')));
  return { model, files: new Map([...files.entries()].sort(([a], [b]) => a.localeCompare(b))) };
}

/** A prompt attaches published schemas by name: each must exist. */
function checkAttachments(model: SpecModel, names: readonly string[]): void {
  const problems = new ProblemList();
  for (const prompt of model.prompts) {
    (prompt.spec.attach ?? []).forEach((name, i) => {
      if (!names.includes(name))
        problems.add(
          prompt.file,
          `/attach/${i}`,
          `"${name}" is not a published schema (schema/ has ${names.join(', ')})`,
        );
    });
  }
  problems.throwIfAny();
}
