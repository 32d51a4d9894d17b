// The runtime tables in generated/: error registry, verb registry, handler interface, MCP table and CLI
// grammar, rendered from handlebars templates in codegen/templates/.
import { readFileSync } from 'node:fs';
import Handlebars from 'handlebars';
import type { SpecModel } from '../spec/types.js';
import type { Contracts } from '../schemas/contracts.js';
import type { Grammar } from '../schemas/cli-grammar.js';
import {
  AGENT_ASSET_MIME_TYPE,
  SCHEMA_MIME_TYPE,
  orderedTools,
  mcpResources,
  promptEntries,
  resourceEntry,
  serverInstructions,
  type McpSchemaEntry,
} from './mcp-model.js';
import { withCodeHeader } from './provenance.js';
import { parsedJson } from './json-text.js';
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
/**
 * A verb that works in a project may be refused with this before its handler runs, when a call without `path`
 * reaches an MCP server whose client's roots hold several checkouts (src/verbs/invoke.ts).
 */
const PROJECT_ERRORS = ['ambiguous'];

export function emitRegistry(
  model: SpecModel,
  contracts: Contracts,
  grammar: Grammar,
  schemas: readonly McpSchemaEntry[],
): Map<string, string> {
  const out = new Map<string, string>();
  const v = model.vocabularies;

  const slugs = Object.entries(v.error_slugs)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, entry]) => {
      const nextAction = entry.next_action ?? v.error_families[entry.family]?.next_action ?? '';
      const params = placeholders(nextAction);
      const paramsType =
        params.length === 0 ? 'Record<string, never>' : `{ ${params.map((p) => `${p}: string`).join('; ')} }`;
      return { name, family: entry.family, description: entry.description, nextAction, paramsType };
    });
  const families = Object.entries(v.error_families).map(([name, f]) => ({
    name,
    description: f.description,
    nextAction: f.next_action,
  }));
  out.set(
    'generated/errors.ts',
    withCodeHeader(['spec/vocabularies.yaml'], render('errors.ts.hbs', { slugs, families })),
  );

  // The consent table (spec/vocabularies.yaml consent_sources): what each consent source proves and how the queue
  // and data.landing_authority name it.
  out.set(
    'generated/consent-sources.ts',
    withCodeHeader(
      ['spec/vocabularies.yaml'],
      `export interface ConsentSourceRow {\n  description: string;\n  person: 'asked' | 'standing' | 'asserted';\n  queue_authority: 'pre-authorized' | 'awaiting-owner';\n  queue_source?: 'effort-grant' | 'standing-grant';\n  landing_authority: string;\n}\n\nexport type ConsentSource = ${Object.keys(
        v.consent_sources,
      )
        .map((k) => JSON.stringify(k))
        .join(
          ' | ',
        )};\n\nexport const CONSENT_SOURCES: Readonly<Record<ConsentSource, ConsentSourceRow>> = ${JSON.stringify(v.consent_sources, null, 2)};\n`,
    ),
  );

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
      errors: [
        ...new Set([
          ...spec.errors,
          ...UNIVERSAL_ERRORS,
          ...(spec.setup_gate ? SETUP_GATE_ERRORS : []),
          ...(spec.project !== 'none' ? PROJECT_ERRORS : []),
        ]),
      ].sort(),
      setupGate: spec.setup_gate === true,
      advisories: c.verb.policy.optional_advisories,
      postconditions: c.verb.policy.required_postconditions,
      hints: spec.hints ?? {},
      execution: spec.execution,
      cliPath: spec.cli.path,
      cliFixed: spec.cli.fixed ?? {},
      cliMcpOnly: spec.cli.mcp_only ?? [],
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
  // The release history `discern releases` returns, checked against spec/releases.schema.json when loaded.
  out.set(
    'generated/releases.ts',
    withCodeHeader(
      ['spec/releases.yaml'],
      `import type { DiscernReleasesRelease } from './types.js';\n\nexport const RELEASES: readonly DiscernReleasesRelease[] = ${JSON.stringify(model.releases.releases, null, 2)} as DiscernReleasesRelease[];\n`,
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
  const prompts = promptEntries(model).map((p) => ({ ...p, argsSchema: promptArgsSchema(model, p.arguments) }));
  const template = model.mcp.schemas;
  out.set(
    'generated/mcp-table.ts',
    withCodeHeader(
      ['spec/mcp.yaml', 'spec/verbs/*', 'spec/prompts/*', 'schema/*'],
      render('mcp-table.ts.hbs', {
        server: { name: model.mcp.server.name, title: model.mcp.server.title, version: model.version },
        instructions: serverInstructions(model, contracts, schemas),
        toolsText: parsedJson(tools),
        renamedTools: renamedTools(model, tools),
        resources,
        resourceNames: resources.map((r) => r.name),
        schemaTemplate: {
          name: template.name,
          uri: template.uri,
          title: template.title,
          description: template.description.trim(),
          mimeType: SCHEMA_MIME_TYPE,
        },
        schemas: schemas.map((s) => ({
          name: s.name,
          file: s.file,
          uri: s.uri,
          title: s.title,
          description: s.description,
        })),
        agentAssets: Object.fromEntries(
          Object.entries(model.mcp.agent_assets).map(([key, a]) => [
            key,
            {
              name: a.name,
              uri: a.uri,
              title: a.title,
              description: a.description.trim(),
              mimeType: AGENT_ASSET_MIME_TYPE,
            },
          ]),
        ),
        prompts,
        builders: [...new Set(prompts.map((p) => p.builder))],
        clientProfiles: model.mcp.client_profiles,
      }),
    ),
  );
  out.set(
    'generated/cli-grammar.ts',
    withCodeHeader(
      ['spec/cli.yaml', 'spec/verbs/*'],
      render('cli-grammar.ts.hbs', { grammarText: parsedJson(grammar) }),
    ),
  );
  return out;
}

/**
 * A prompt's arguments as a JSON Schema: every argument is a string on the wire, and its form narrows which
 * strings, as the tools' inputs do (an absolute-path is the tools' ProjectPath).
 */
function promptArgsSchema(
  model: SpecModel,
  args: readonly { name: string; description: string; required: boolean; form: string }[],
): Record<string, unknown> {
  const defs = (model.common['$defs'] ?? {}) as Record<string, Record<string, unknown>>;
  const { description: _d, ...projectPath } = defs['ProjectPath'] ?? {};
  const forms: Record<string, Record<string, unknown>> = {
    text: { type: 'string', maxLength: 262144 },
    'absolute-path': projectPath,
    handle: { type: 'string', pattern: '^R1-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{2}$' },
  };
  return {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(args.map((a) => [a.name, { ...forms[a.form], description: a.description }])),
    ...(args.some((a) => a.required) ? { required: args.filter((a) => a.required).map((a) => a.name) } : {}),
  };
}

function placeholders(template: string): string[] {
  return [...new Set([...template.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1] ?? ''))].sort();
}

/** Each former command whose new command has a tool, as the former and the new tool name. */
function renamedTools(
  model: SpecModel,
  tools: readonly { verb: string; name: string }[],
): { from: string; to: string }[] {
  const byVerb = new Map(model.verbs.map((v) => [v.spec.cli.path.join(' '), v.id]));
  return (model.cli.renamed_commands ?? []).flatMap((r) => {
    const tool = tools.find((t) => t.verb === byVerb.get(r.to.join(' ')));
    return tool ? [{ from: `discern_${r.from.join('_').replace(/-/g, '_')}`, to: tool.name }] : [];
  });
}
