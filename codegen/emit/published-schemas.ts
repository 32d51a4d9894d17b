// The exact text of every published schema, for the discern://schema/{name} resources: the server serves the
// bytes the package ships in schema/, from a module loaded only when a schema is read (the bundle has no
// package directory to read files from).
import type { McpSchemaEntry } from './mcp-model.js';
import { withCodeHeader } from './provenance.js';

export function emitPublishedSchemas(
  schemas: readonly McpSchemaEntry[],
  files: ReadonlyMap<string, string>,
): Map<string, string> {
  const entries = schemas.map((s) => {
    const text = files.get(`schema/${s.file}`);
    if (text === undefined) throw new Error(`schema/${s.file} is listed as a schema resource but was not generated`);
    return `  ${JSON.stringify(s.name)}: { file: ${JSON.stringify(s.file)}, text: ${JSON.stringify(text)} },`;
  });
  const body = [
    "/** Every published schema's text, exactly as schema/<file> holds it, by the name discern://schema/<name> uses. */",
    'export const PUBLISHED_SCHEMAS: Readonly<Record<string, { file: string; text: string }>> = {',
    ...entries,
    '};',
    '',
  ].join('\n');
  return new Map([['generated/published-schemas.ts', withCodeHeader(['schema/*'], body)]]);
}
