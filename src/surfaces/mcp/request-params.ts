// The params of requests the SDK checks only as an internal error: a resources/read without a string `uri`, or a
// prompts/get without a string `name`, got -32603 with a dump of its validator's issues. Every revision of MCP
// calls that -32602 (Invalid params), so these are checked before the SDK sees them and answered in one sentence.
// discern lists everything in one page and issues no cursor, so any cursor is one it did not issue, which the
// pagination rules of every revision also answer with -32602.

import { RENAMED_TOOLS } from '../../../generated/mcp-table.js';

const LISTS = new Set(['tools/list', 'resources/list', 'resources/templates/list', 'prompts/list']);

/** What is wrong with a request's params, as the error message says it; undefined when nothing is. */
export function paramsProblem(method: string, params: unknown): string | undefined {
  if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params)))
    return `Invalid params: ${method} takes an object as params.`;
  const given = (params ?? {}) as Record<string, unknown>;
  if (LISTS.has(method) && given['cursor'] !== undefined)
    return typeof given['cursor'] === 'string'
      ? `Invalid params: ${method} got a cursor discern did not issue; discern lists everything in one page, so ask again without one.`
      : `Invalid params: ${method}'s cursor is a string.`;
  if (method === 'tools/call') {
    // A former tool name is an unknown tool, which every revision answers with -32602: this one says what it became.
    const renamed = RENAMED_TOOLS.find((r) => r.from === given['name']);
    if (renamed) return `Invalid params: the tool ${renamed.from} was renamed; call ${renamed.to}.`;
  }
  if (method === 'resources/read' && typeof given['uri'] !== 'string')
    return 'Invalid params: resources/read needs `uri`, the resource URI as a string.';
  if (method === 'prompts/get') {
    if (typeof given['name'] !== 'string')
      return 'Invalid params: prompts/get needs `name`, the prompt name as a string.';
    const args = given['arguments'];
    if (args === undefined) return undefined;
    if (typeof args !== 'object' || args === null || Array.isArray(args))
      return 'Invalid params: prompts/get takes `arguments` as an object of strings.';
    const bad = Object.entries(args).find(([, value]) => typeof value !== 'string');
    if (bad) return `Invalid params: prompts/get's argument \`${bad[0]}\` is a string.`;
  }
  return undefined;
}
