// The runtime tables in generated/: error registry, verb registry, handler interface, MCP table and CLI
// grammar, rendered from handlebars templates in codegen/templates/.
import { readFileSync } from 'node:fs';
import Handlebars from 'handlebars';
import type { SpecModel } from '../spec/types.js';
import type { Contracts } from '../schemas/contracts.js';
import type { Grammar } from '../schemas/cli-grammar.js';
import { orderedTools, mcpResources, resourceEntry, serverInstructions } from './mcp-model.js';
import { withCodeHeader } from './provenance.js';
import { collectionRules } from '../schemas/projection-rules.js';

const hb = Handlebars.create();
hb.registerHelper('json', (value: unknown) => JSON.stringify(value, null, 2));
hb.registerHelper('union', (values: unknown) => {
  const list = Array.isArray(values) ? values.map(String) : [];
  return list.length === 0 ? 'never' : list.map((v) => JSON.stringify(v)).join(' | ');
});

function render(template: string, context: object): string {
  const source = readFileSync(new URL(`../templates/${template}`, import.meta.url), 'utf8');
  return hb.compile(source, { noEscape: true, strict: true })(context);
}

/** Always-permitted slugs a handler may refuse with, beyond those its verb.yaml lists. */
const UNIVERSAL_ERRORS = ['invalid_arguments'];
/** A setup-gated verb may be refused with this before its handler runs (src/verbs/invoke.ts). */
const SETUP_GATE_ERRORS = ['setup_unfinished'];

export function emitRegistry(model: SpecModel, contracts: Contracts, grammar: Grammar): Map<string, string> {
  const out = new Map<string, string>();
  const v = model.vocabularies;

  const slugs = Object.entries(v.error_slugs)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, entry]) => {
      const nextAction = entry.next_action ?? v.error_families[entry.family]?.next_action ?? '';
      const params = placeholders(nextAction);
      const paramsType = params.length === 0 ? 'Record<string, never>' : `{ ${params.map((p) => `${p}: string`).join('; ')} }`;
      return { name, family: entry.family, description: entry.description, nextAction, paramsType };
    });
  const families = Object.entries(v.error_families).map(([name, f]) => ({ name, description: f.description, nextAction: f.next_action }));
  out.set('generated/errors.ts', withCodeHeader(['spec/vocabularies.yaml'], render('errors.ts.hbs', { slugs, families })));

  const verbs = contracts.verbs.map((c) => {
    const spec = c.verb.spec;
    return {
      id: c.verb.id,
      pascal: c.verb.pascal,
      verb: spec.verb,
      summary: spec.summary,
      project: spec.project,
      trunk: spec.trunk ?? 'required',
      policy: c.verb.policy,
      errors: [...new Set([...spec.errors, ...UNIVERSAL_ERRORS, ...(spec.setup_gate ? SETUP_GATE_ERRORS : [])])].sort(),
      setupGate: spec.setup_gate === true,
      advisories: c.verb.policy.optional_advisories,
      postconditions: c.verb.policy.required_postconditions,
      hints: spec.hints ?? {},
      execution: spec.execution,
      cliPath: spec.cli.path,
      mcpTool: spec.mcp?.name ?? null,
      projection: spec.projection ? collectionRules(c.verb.data, model.common) : null,
      dataName: c.dataName,
      // A project verb may answer a configuration problem with the shared config-issue payload.
      outcomeData: spec.project === 'none' ? `T.${c.dataName}` : `T.${c.dataName} | T.DiscernConfigIssues`,
      inputName: c.inputName,
    };
  });
  const verbSources = ['spec/verbs/*/verb.yaml'];
  out.set('generated/registry.ts', withCodeHeader(verbSources, render('registry.ts.hbs', { verbs })));
  // Alone in its module so `discern --version` loads nothing else.
  out.set(
    'generated/version.ts',
    withCodeHeader(
      ['package.json', 'spec/cli.yaml'],
      `export const VERSION = ${JSON.stringify(model.version)};\n\n/** The flags that print the version when given alone. */\nexport const VERSION_FLAGS: readonly string[] = ${JSON.stringify(model.cli.implicit_flags.root)};\n`,
    ),
  );
  out.set('generated/handlers.ts', withCodeHeader(verbSources, render('handlers.ts.hbs', { verbs })));
  out.set('generated/outcome.ts', withCodeHeader(['codegen/templates/outcome.ts.hbs'], render('outcome.ts.hbs', {})));
  out.set('generated/validator-loaders.ts', withCodeHeader(verbSources, render('validator-loaders.ts.hbs', { verbs })));

  const tools = orderedTools(model, contracts).map((t) => ({
    verb: t.verbId,
    name: t.name,
    title: t.title,
    description: t.description,
    annotations: t.annotations,
    inputSchema: t.inputSchema,
    outputSchema: t.outputSchema,
  }));
  const resources = mcpResources(model).map((r) => ({ verb: r.verbId, ...resourceEntry(r) }));
  out.set(
    'generated/mcp-table.ts',
    withCodeHeader(['spec/mcp.yaml', 'spec/verbs/*'], render('mcp-table.ts.hbs', {
      server: { name: model.mcp.server.name, title: model.mcp.server.title, version: model.version },
      instructions: serverInstructions(model, contracts),
      tools,
      resources,
      resourceNames: resources.map((r) => r.name),
      clientProfiles: model.mcp.client_profiles,
    })),
  );
  out.set('generated/cli-grammar.ts', withCodeHeader(['spec/cli.yaml', 'spec/verbs/*'], render('cli-grammar.ts.hbs', { grammar })));
  return out;
}

function placeholders(template: string): string[] {
  return [...new Set([...template.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1] ?? ''))].sort();
}
