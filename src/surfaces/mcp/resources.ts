// Resource readers. A resource returns the same data as its tool, computed fresh on every read and without an
// envelope: the index resources are their verb's data (JSON); the page templates are one page's Markdown. The
// published schemas are served as generated, byte for byte.
import { ResourceNotFoundError, type ReadResourceResult } from '@modelcontextprotocol/server';
import { MCP_SCHEMAS, type McpResourceName } from '../../../generated/mcp-table.js';
import { invoke, type InvokeOptions } from '../../verbs/invoke.js';
import type { VerbId } from '../../../generated/registry.js';
import { nextAction } from '../../core/next-action.js';

export type ResourceReader = (
  uri: URL,
  variables: Readonly<Record<string, string | string[]>>,
  options: InvokeOptions,
) => Promise<ReadResourceResult>;

/** A resource that is one verb's data for a fixed input: fresh on every read, without the envelope. */
function dataOf(verb: VerbId, input: Record<string, unknown>): ResourceReader {
  return async (uri, _variables, options) => {
    const result = await invoke(verb, input, options);
    if (!result.ok) throw new ResourceNotFoundError(uri.href, `${result.message} ${result.hints.at(-1) ?? ''}`.trim());
    return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(result.data) }] };
  };
}

/**
 * A page template resource: the `{+target}` capture is percent-decoded once, then handed to the verb, whose
 * lookup refuses anything shaped to leave its corpus. A page is its Markdown exactly; a region its index.
 */
function pageOf(verb: 'docs' | 'map'): ResourceReader {
  return async (uri, variables, options) => {
    const target = decodedVariable(uri, variables, 'target', 'the target');
    const result = await invoke(verb, { target }, options);
    if (!result.ok) throw new ResourceNotFoundError(uri.href, `discern ${verb}: ${result.message}`);
    const data = result.data;
    // The presentations load only when a region's index is asked for, not with the server's start.
    const text =
      data && typeof data === 'object' && 'doc' in data
        ? data.doc.content
        : (await import('../../render/markdown/index.js')).renderMarkdown(result);
    return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text }] };
  };
}

/**
 * The resolved configuration, read straight from the project rather than through doctor: doctor runs every
 * check and needs the trunk branch, while the configuration is there before the trunk is (a fresh repository,
 * a clone of another branch). Loaded on first read, as invoke() loads project resolution.
 */
const configOf: ResourceReader = async (uri, _variables, options) => {
  const [{ resolveProject }, { resolvedConfig }] = await Promise.all([
    import('../../engine/project/resolve.js'),
    import('../../engine/config/resolved.js'),
  ]);
  const resolution = await resolveProject({
    path: options.defaultTarget,
    pathFrom: 'working-directory',
    requireTrunk: false,
    env: options.env,
    signal: options.signal,
  });
  if (!resolution.ok) {
    const { refusal } = resolution;
    throw new ResourceNotFoundError(
      uri.href,
      `discern.toml cannot be resolved: ${refusal.message} ${nextAction(refusal.error, refusal.next)}`,
    );
  }
  return {
    contents: [
      { uri: uri.href, mimeType: 'application/json', text: JSON.stringify(resolvedConfig(resolution.project)) },
    ],
  };
};

export const RESOURCE_READERS: Readonly<Record<McpResourceName, ResourceReader>> = {
  docs: dataOf('docs', {}),
  status: dataOf('status', {}),
  impact: dataOf('impact', {}),
  'docs-page': pageOf('docs'),
  map: dataOf('map', {}),
  'map-page': pageOf('map'),
  config: configOf,
};

export interface ListedResource {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
}

/** The pages a template resource can read, for resources/list: the manual's, or the server's project map's. */
export const TEMPLATE_LISTS: Readonly<
  Partial<Record<McpResourceName, (options: InvokeOptions) => Promise<ListedResource[]>>>
> = {
  // The manual's pages (half a megabyte of JSON) load with the first call that needs them, not with the server's start.
  'docs-page': async () =>
    (await (await import('../../engine/manual/bundle.js')).manualPages()).pages.map((p) => listed('docs', p)),
  'map-page': async (options) => {
    const result = await invoke('map', {}, options);
    // No map (or no project) is an empty list, not an error: the template still exists.
    const docs = result.ok && result.data && 'docs' in result.data ? result.data.docs : [];
    return docs.map((p) => listed('map', p));
  },
};

function listed(scheme: 'docs' | 'map', page: { target: string; title: string; description: string }): ListedResource {
  return {
    uri: `discern://${scheme}/${page.target}`,
    name: `${scheme}:${page.target}`,
    title: page.title,
    description: page.description,
    mimeType: 'text/markdown',
  };
}

/**
 * A published schema, byte for byte as schema/ holds it. `{name}` is percent-decoded once, then must be one of
 * the names generation found in schema/: no `/`, no `..`, nothing else resolves. The texts load on first read.
 */
export async function readSchema(
  uri: URL,
  variables: Readonly<Record<string, string | string[]>>,
): Promise<ReadResourceResult> {
  const name = decodedVariable(uri, variables, 'name', 'the schema name');
  const names = MCP_SCHEMAS.map((s) => s.name);
  if (!names.includes(name)) {
    const why = /[/\\]|\.\./.test(name)
      ? 'a schema name is one word, without / or ..'
      : `there is no published schema "${name}"`;
    throw new ResourceNotFoundError(uri.href, `${why}; the schemas are ${names.join(', ')}`);
  }
  const text = await schemaText(name);
  if (text === undefined) throw new ResourceNotFoundError(uri.href, `there is no published schema "${name}"`);
  return { contents: [{ uri: uri.href, mimeType: 'application/json', text }] };
}

/** A published schema's exact text by name, from the module holding them all (loaded on first use). */
export async function schemaText(name: string): Promise<string | undefined> {
  const { PUBLISHED_SCHEMAS } = await import('../../../generated/published-schemas.js');
  return Object.hasOwn(PUBLISHED_SCHEMAS, name) ? PUBLISHED_SCHEMAS[name]?.text : undefined;
}

/** Every published schema, for resources/list. */
export function schemaList(): ListedResource[] {
  return MCP_SCHEMAS.map((s) => ({
    uri: s.uri,
    name: `schema:${s.name}`,
    title: s.title,
    description: `${s.description} (schema/${s.file})`,
    mimeType: 'application/json',
  }));
}

/** discern's built-in agent instructions, exactly as refresh compiles them (the module loads on first read). */
export async function readInstructions(uri: URL): Promise<ReadResourceResult> {
  const { BUILTIN_INSTRUCTIONS } = await import('../../../generated/agent-assets.js');
  return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: BUILTIN_INSTRUCTIONS }] };
}

/** One built-in skill's SKILL.md. `{name}` is percent-decoded once and must be a built-in skill's name. */
export async function readSkill(
  uri: URL,
  variables: Readonly<Record<string, string | string[]>>,
): Promise<ReadResourceResult> {
  const { BUILTIN_SKILLS } = await import('../../../generated/agent-assets.js');
  const name = decodedVariable(uri, variables, 'name', 'the skill name');
  const skill = BUILTIN_SKILLS.find((s) => s.name === name);
  if (!skill)
    throw new ResourceNotFoundError(
      uri.href,
      `there is no built-in skill "${name}"; the built-in skills are ${BUILTIN_SKILLS.map((s) => s.name).join(', ')}`,
    );
  return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: skill.content }] };
}

/** The built-in skills, for resources/list. */
export async function skillList(): Promise<ListedResource[]> {
  const { BUILTIN_SKILLS } = await import('../../../generated/agent-assets.js');
  return BUILTIN_SKILLS.map((s) => ({
    uri: `discern://skills/${s.name}`,
    name: `skill:${s.name}`,
    title: s.name,
    description: s.description,
    mimeType: 'text/markdown',
  }));
}

/**
 * A template variable, percent-decoded exactly once (the SDK leaves `{+target}` captures encoded, and a `%2F..`
 * must not survive as a path step); what it may name is each reader's own check.
 */
function decodedVariable(
  uri: URL,
  variables: Readonly<Record<string, string | string[]>>,
  key: string,
  what: string,
): string {
  const raw = variables[key];
  try {
    return decodeURIComponent(Array.isArray(raw) ? raw.join('/') : (raw ?? ''));
  } catch {
    throw new ResourceNotFoundError(uri.href, `${what} is not valid percent-encoding`);
  }
}
