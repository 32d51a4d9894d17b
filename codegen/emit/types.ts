// TypeScript types for results and inputs, in two flavours from one emitter:
// - generated/types.ts (internal): vocabularies are closed unions, so a handler cannot emit an unregistered
//   error slug, step kind or advisory kind without a compile error;
// - types/discern-json.d.ts (published, standalone): open vocabularies admit unknown members (`string & {}`),
//   as the compatibility policy promises consumers.
// Plain object shapes come from json-schema-to-typescript; the envelope's discriminated states and the per-verb
// result types, which that tool cannot express (it ignores if/then/not), are emitted with ts-morph.
import { compile } from 'json-schema-to-typescript';
import { Project, type SourceFile } from 'ts-morph';
import type { JsonSchema, SpecModel } from '../spec/types.js';
import type { Contracts } from '../schemas/contracts.js';
import { envelopeProperties } from '../schemas/refs.js';
import { expandVocabularies } from '../schemas/vocabulary.js';
import { mcpResultDefName, vocabularyType } from '../schemas/names.js';

export type TypesFlavour = 'internal' | 'published';

export async function emitTypes(model: SpecModel, contracts: Contracts, flavour: TypesFlavour): Promise<string> {
  const parts: string[] = [];
  parts.push(flavour === 'published' ? PUBLISHED_PREAMBLE : INTERNAL_PREAMBLE);
  parts.push(vocabularyTypes(contracts, flavour));
  parts.push(await shapeTypes(model, contracts));
  parts.push(stateAndResultTypes(model, contracts));
  const text = parts.join('\n');
  assertUniqueNames(text);
  return text;
}

/**
 * Two spec names can map to one type name (a vocabulary `foo_bar` and a definition `FooBar` are both
 * DiscernFooBar): the emitted file would not compile, so generation stops here and names both.
 */
function assertUniqueNames(text: string): void {
  const seen = new Set<string>();
  for (const match of text.matchAll(/^export (?:declare )?(?:type|interface) (\w+)/gm)) {
    const name = match[1] ?? '';
    if (seen.has(name))
      throw new Error(`two spec names map to the TypeScript type ${name}: rename the vocabulary or the definition`);
    seen.add(name);
  }
}

const PUBLISHED_PREAMBLE = `/**
 * Standalone TypeScript types for discern's JSON results (CLI --json and MCP structuredContent) and tool
 * inputs. Branch on \`ok\`, then \`verb\`, before reading \`data\`. Open vocabularies admit members this
 * release does not know; treat an unknown member as opaque.
 */
`;

const INTERNAL_PREAMBLE = `/** Result and input types used by discern's own code; vocabularies are closed here. */
`;

function vocabularyTypes(contracts: Contracts, flavour: TypesFlavour): string {
  return contracts.vocabularies
    .map((v) => {
      const members = v.members.map((m) => JSON.stringify(m));
      if (flavour === 'published' && v.open) members.push('(string & {})');
      const kind = v.open ? 'Open vocabulary' : 'Closed vocabulary';
      return `/** ${kind}: ${v.description} */\nexport type ${vocabularyType(v.name)} =\n  | ${members.join('\n  | ')};\n`;
    })
    .join('\n');
}

async function shapeTypes(model: SpecModel, contracts: Contracts): Promise<string> {
  const emittedByMorph = new Set(['DiscernResultState', 'DiscernCliJsonResult', 'DiscernMcpJsonResult']);
  for (const c of contracts.verbs) emittedByMorph.add(c.resultName).add(mcpResultDefName(c.verb.pascal));
  const defs: Record<string, JsonSchema> = {};
  for (const [name, def] of Object.entries(contracts.tsDefs))
    if (!emittedByMorph.has(name)) defs[name] = { ...def, title: name };
  for (const [name, def] of Object.entries(contracts.tsInputs))
    defs[name] = { ...(expandVocabularies(def, contracts.vocabularies, 'ts') as JsonSchema), title: name };
  const envelopeProps: Record<string, JsonSchema> = {};
  for (const [key, prop] of Object.entries(envelopeProperties(model.envelope)))
    envelopeProps[key] = expandVocabularies(prop, contracts.vocabularies, 'ts') as JsonSchema;
  defs['DiscernResultEnvelope'] = {
    title: 'DiscernResultEnvelope',
    description: 'Every envelope field; per-verb result types fix verb and data and add DiscernResultState.',
    type: 'object',
    additionalProperties: false,
    required: ['ok', 'verb'],
    properties: {
      ...envelopeProps,
      data: { tsType: 'unknown', description: 'The verb payload; each result type narrows it.' },
    },
  };
  const root = { title: 'DiscernTypesRoot', type: 'object', additionalProperties: false, properties: {}, $defs: defs };
  const text = await compile(root as never, 'DiscernTypesRoot', {
    bannerComment: '',
    unreachableDefinitions: true,
    declareExternallyReferenced: true,
    additionalProperties: false,
    strictIndexSignatures: true,
    format: true,
    // Bounded arrays stay plain arrays: tuple unions are unusable for producers.
    maxItems: -1,
    style: { printWidth: 120, singleQuote: true },
    cwd: process.cwd(),
  });
  return tidyCompiled(text);
}

/** Drops the empty root and json-schema-to-typescript's "referenced by" boilerplate from doc comments. */
function tidyCompiled(text: string): string {
  const lines = text.split('\n');
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (/^\s*\* This interface was referenced by `DiscernTypesRoot`/.test(line)) {
      i++; // and its "via the definition" continuation line
      while (kept.length > 0 && /^\s*\*\s*$/.test(kept[kept.length - 1] ?? '')) kept.pop();
      continue;
    }
    kept.push(line);
  }
  return kept
    .join('\n')
    .replace(/^\s*\/\*\*\n\s*\*\/\n/gm, '')
    .replace(/export interface DiscernTypesRoot \{\}\n/, '');
}

function stateAndResultTypes(model: SpecModel, contracts: Contracts): string {
  const project = new Project({ useInMemoryFileSystem: true });
  const file: SourceFile = project.createSourceFile('state.ts', '');
  file.addTypeAlias({
    name: 'DiscernVerdictState',
    isExported: true,
    docs: [
      'A success carries no error; a failure carries its slug, a message, and at least one hint ending with the next action.',
    ],
    type: `| { ok: true; error?: never }\n| { ok: false; error: DiscernErrorSlug; message: string; hints: [string, ...string[]] }`,
  });
  file.addTypeAlias({
    name: 'DiscernExecutionState',
    isExported: true,
    docs: [
      'Preview (dry_run true, optional plan), review plan (plan, no steps), or applied (optional steps, no plan): plan and steps never coexist.',
    ],
    type: `| { dry_run: true; plan?: DiscernPlan; steps?: never }\n| { dry_run?: false; plan: DiscernPlan; steps?: never }\n| { dry_run?: false; plan?: never; steps?: DiscernStep[] }`,
  });
  file.addTypeAlias({
    name: 'DiscernResultState',
    isExported: true,
    docs: ['The structural states every result satisfies; narrowing ok narrows error.'],
    type: 'DiscernVerdictState & DiscernExecutionState',
  });
  const byVerb: string[] = [];
  const byCommand: string[] = [];
  const byTool: string[] = [];
  const inputsByVerb: string[] = [];
  const inputsByTool: string[] = [];
  for (const c of contracts.verbs) {
    const verb = c.verb.spec.verb;
    const data = c.verb.spec.project === 'none' ? c.dataName : `${c.dataName} | DiscernConfigIssues`;
    file.addTypeAlias({
      name: c.resultName,
      isExported: true,
      docs: [c.verb.spec.summary],
      type: `Omit<DiscernResultEnvelope, 'verb' | 'data'> & { verb: ${JSON.stringify(verb)}; data?: ${data} } & DiscernResultState`,
    });
    byVerb.push(`${JSON.stringify(verb)}: ${c.resultName};`);
    for (const command of [c.verb.spec.cli.path.join(' '), ...(c.verb.spec.cli.aliases ?? [])])
      byCommand.push(`${JSON.stringify(command)}: ${c.resultName};`);
    inputsByVerb.push(`${JSON.stringify(verb)}: ${c.inputName};`);
    const tool = c.verb.spec.mcp;
    if (tool) {
      file.addTypeAlias({
        name: mcpResultDefName(c.verb.pascal),
        isExported: true,
        docs: [`structuredContent of ${tool.name}.`],
        type: c.resultName,
      });
      byTool.push(`${JSON.stringify(tool.name)}: ${c.resultName};`);
      inputsByTool.push(`${JSON.stringify(tool.name)}: ${c.inputName};`);
    }
  }
  const map = (name: string, doc: string, rows: string[]): void => {
    file.addInterface({ name, isExported: true, docs: [doc] });
    file
      .getInterfaceOrThrow(name)
      .replaceWithText(`/** ${doc} */\nexport interface ${name} {\n${rows.map((r) => `  ${r}`).join('\n')}\n}`);
  };
  map('DiscernResultsByVerb', 'Result type of each verb.', byVerb);
  map('DiscernResultsByCommand', 'Result type of each CLI command path (words joined by spaces).', byCommand);
  map('DiscernResultsByMcpTool', 'structuredContent type of each MCP tool.', byTool);
  map('DiscernInputsByVerb', 'Input type of each verb.', inputsByVerb);
  map('DiscernInputsByMcpTool', 'Arguments type of each MCP tool.', inputsByTool);
  file.addTypeAlias({
    name: 'DiscernVerb',
    isExported: true,
    docs: ['Every verb.'],
    type: 'keyof DiscernResultsByVerb',
  });
  file.addTypeAlias({
    name: 'DiscernCliJsonResult',
    isExported: true,
    docs: ['Any CLI --json result.'],
    type: 'DiscernResultsByVerb[keyof DiscernResultsByVerb]',
  });
  file.addTypeAlias({
    name: 'DiscernMcpJsonResult',
    isExported: true,
    docs: ['Any MCP tool structuredContent.'],
    type: 'DiscernResultsByMcpTool[keyof DiscernResultsByMcpTool]',
  });
  file.addTypeAlias({
    name: 'DiscernResult',
    isExported: true,
    docs: ['Any discern result.'],
    type: 'DiscernCliJsonResult | DiscernMcpJsonResult',
  });
  file.formatText({ indentSize: 2, convertTabsToSpaces: true });
  void model;
  return file.getFullText();
}
