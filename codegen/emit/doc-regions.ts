// Lists of tools, resources and prompts inside hand-written pages (the manual's and the README), generated from
// spec/ so that no page can name fewer tools than the server has. A page marks each list as a region:
//
//   <!-- generated:mcp-tools -->
//   …filled by `npm run generate`…
//   <!-- /generated:mcp-tools -->
//
// `npm run generate` rewrites what lies between the markers; `generate:check` fails when it differs. The markers
// are HTML comments, so they do not show on a rendered page; the manual bundle leaves their lines out.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProblemList } from '../spec/errors.js';
import type { JsonSchema, SpecModel } from '../spec/types.js';
import { isObject } from '../spec/walk.js';
import type { Contracts } from '../schemas/contracts.js';
import {
  AGENT_ASSET_MIME_TYPE,
  SCHEMA_MIME_TYPE,
  mcpResources,
  orderedTools,
  promptEntries,
  promptSignature,
  type McpToolModel,
} from './mcp-model.js';

// LF only: the repository's Markdown is LF (a CRLF checkout would find no region and regenerate nothing).
const REGION = /^<!-- generated:([a-z-]+) -->\n([\s\S]*?)^<!-- \/generated:\1 -->$/gm;
const MARKER_LINE = /^<!-- \/?generated:[a-z-]+ -->\n/gm;

/** Every region a page may hold, by name, as the Markdown that goes between its markers. */
export function docRegions(model: SpecModel, contracts: Contracts): Map<string, string> {
  const tools = orderedTools(model, contracts);
  const regions = new Map<string, string>();
  regions.set('mcp-tools', toolsTable(tools));
  regions.set('mcp-annotations', annotationsTable(tools));
  regions.set('mcp-resources', resourcesTable(model));
  regions.set('mcp-prompts', promptsList(model));
  regions.set('mcp-path-tools', `The project tools, which take \`path\`, are ${pathTools(tools)}.\n`);
  return regions;
}

/**
 * The text with every region filled. An unknown region name or an unclosed marker is a problem for the page's
 * author, reported with the file's name.
 */
export function fillRegions(text: string, regions: ReadonlyMap<string, string>): { text: string; problems: string[] } {
  const problems: string[] = [];
  const filled = text.replace(REGION, (whole, name: string) => {
    const body = regions.get(name);
    if (body === undefined) {
      problems.push(`no generated region is called "${name}" (known: ${[...regions.keys()].join(', ')})`);
      return whole;
    }
    return `<!-- generated:${name} -->\n${body}<!-- /generated:${name} -->`;
  });
  const opened = (text.match(/^<!-- generated:[a-z-]+ -->$/gm) ?? []).length;
  const closed = (text.match(/^<!-- \/generated:[a-z-]+ -->$/gm) ?? []).length;
  const whole = [...text.matchAll(REGION)].length;
  if (opened !== whole || closed !== whole)
    problems.push('a generated region marker has no matching end on a line of its own');
  return { text: filled, problems };
}

/** The page as the manual serves it: the regions' content without their marker lines. */
export function withoutRegionMarkers(text: string): string {
  return text.replace(MARKER_LINE, '');
}

function toolsTable(tools: readonly McpToolModel[]): string {
  const rows = tools.map((t) => `| \`${t.name}\` | ${t.title} | ${inputSummary(t.inputSchema)} |`);
  return ['| Tool | Title | Inputs |', '| --- | --- | --- |', ...rows, ''].join('\n');
}

function annotationsTable(tools: readonly McpToolModel[]): string {
  const groups = new Map<string, string[]>();
  for (const t of tools) {
    const a = t.annotations;
    const key = [a.readOnlyHint, a.destructiveHint, a.idempotentHint, a.openWorldHint].map(String).join(' | ');
    groups.set(key, [...(groups.get(key) ?? []), `\`${t.name}\``]);
  }
  const rows = [...groups].map(([key, names]) => `| ${names.join(', ')} | ${key.replace(/(\w+)/g, '`$1`')} |`);
  return [
    '| Tools | `readOnlyHint` | `destructiveHint` | `idempotentHint` | `openWorldHint` |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}

function resourcesTable(model: SpecModel): string {
  const rows = mcpResources(model).map(
    (r) => `| \`${r.uri}\` | ${r.kind} | \`${r.mimeType}\` | ${oneLine(r.description)} | ${r.reads} |`,
  );
  const schemas = model.mcp.schemas;
  rows.push(
    `| \`${schemas.uri}\` | template | \`${SCHEMA_MIME_TYPE}\` | ${oneLine(schemas.description)} | none: the same files are in the package's \`schema/\` directory |`,
  );
  const assets = model.mcp.agent_assets;
  rows.push(
    `| \`${assets.instructions.uri}\` | resource | \`${AGENT_ASSET_MIME_TYPE}\` | ${oneLine(assets.instructions.description)} | none: \`discern refresh --dry-run\` shows the compiled files |`,
    `| \`${assets.skills.uri}\` | template | \`${AGENT_ASSET_MIME_TYPE}\` | ${oneLine(assets.skills.description)} | \`discern skills list\`, \`discern skills eject <name>\` (CLI) |`,
  );
  return ['| URI | Kind | MIME type | Content | Same data as |', '| --- | --- | --- | --- | --- |', ...rows, ''].join(
    '\n',
  );
}

function promptsList(model: SpecModel): string {
  return promptEntries(model)
    .map((p) => `- \`${promptSignature(p)}\`: ${p.title}.\n`)
    .join('');
}

/** The tools that take `path`, as one sentence-ready list. */
function pathTools(tools: readonly McpToolModel[]): string {
  const names = tools
    .filter((t) => isObject(t.inputSchema['properties']) && 'path' in t.inputSchema['properties'])
    .map((t) => `\`${t.name}\``);
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`;
}

/** A tool's inputs in one cell: each key with its type, or "none". */
function inputSummary(schema: JsonSchema): string {
  const properties = isObject(schema['properties']) ? schema['properties'] : {};
  const keys = Object.entries(properties);
  if (keys.length === 0) return 'none';
  return keys.map(([key, p]) => `\`${key}\` (${typeOf(p as JsonSchema)})`).join(', ');
}

function typeOf(p: JsonSchema): string {
  if (Array.isArray(p['enum'])) return p['enum'].map((v) => `\`${JSON.stringify(v)}\``).join(' or ');
  if ('const' in p) return `\`${JSON.stringify(p['const'])}\``;
  if (p['type'] === 'array' && isObject(p['items'])) return `array of ${String(p['items']['type'])}`;
  if (typeof p['type'] === 'string') return p['type'];
  if (Array.isArray(p['anyOf'])) return p['anyOf'].map((b) => typeOf(b as JsonSchema)).join(' or ');
  return 'any';
}

function oneLine(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

/** README.md with its regions filled, when that changes it: the README is read before any manual page. */
export function emitReadmeRegions(root: string, model: SpecModel, contracts: Contracts): Map<string, string> {
  const written = readFileSync(join(root, 'README.md'), 'utf8');
  const filled = fillRegions(written, docRegions(model, contracts));
  const problems = new ProblemList();
  for (const problem of filled.problems) problems.add('README.md', '', problem);
  problems.throwIfAny();
  return filled.text === written ? new Map() : new Map([['README.md', filled.text]]);
}
