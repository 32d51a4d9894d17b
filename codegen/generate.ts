// Produces every generated file in memory from spec/ (docs/ for the manual bundle; spec/agents/ for the built-in
// agent instructions and skills). Pure apart from reading the inputs: the same inputs give byte-identical output.
import type { SpecModel } from './spec/types.js';
import { loadSpec } from './spec/load.js';
import { buildContracts } from './schemas/contracts.js';
import { buildCliGrammar } from './schemas/cli-grammar.js';
import { emitJsonArtifacts } from './emit/json-artifacts.js';
import { emitTypes } from './emit/types.js';
import { emitValidators } from './emit/validators.js';
import { emitRegistry } from './emit/registry.js';
import { withCodeHeader } from './emit/provenance.js';
import { checkGrammar } from './emit/grammar-check.js';
import { emitManual } from './emit/manual.js';
import { emitAgentAssets } from './emit/agent-assets.js';
import { emitConfigMigrations } from './emit/config-migrations.js';

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
  add(emitValidators(model, contracts));
  add(emitRegistry(model, contracts, grammar));
  add(emitManual(root, model, contracts, grammar));
  add(emitAgentAssets(root));
  add(emitConfigMigrations(root));
  const typeSources = ['spec/envelope.schema.json', 'spec/vocabularies.yaml', 'spec/verbs/*'];
  files.set('generated/types.ts', withCodeHeader(typeSources, await emitTypes(model, contracts, 'internal')));
  files.set('types/discern-json.d.ts', withCodeHeader(typeSources, await emitTypes(model, contracts, 'published')));
  return { model, files: new Map([...files.entries()].sort(([a], [b]) => a.localeCompare(b))) };
}
