// Naming rules shared by every artifact: the published names of vocabularies, schema definitions and TS types.

export const SCHEMA_BASE = 'https://discern.sh/schema/v1/';

export function kebab(name: string): string {
  return name.replace(/_/g, '-');
}

export function pascal(name: string): string {
  return name
    .split(/[_\s-]+/)
    .filter((w) => w.length > 0)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
}

/** The root key of the published results schema that lists an open vocabulary's members. */
export function vocabularyKey(name: string): string {
  return name === 'error' ? 'x-discern-error-slugs' : `x-discern-${kebab(name)}`;
}

/** The TypeScript type of a vocabulary, e.g. step_kind → DiscernStepKind, error → DiscernErrorSlug. */
export function vocabularyType(name: string): string {
  return name === 'error' ? 'DiscernErrorSlug' : `Discern${pascal(name)}`;
}

/** Published name of a definition local to a verb's schema: DocsIndex → DiscernDocsIndex, DocPage → DiscernDocsDocPage. */
export function verbDefName(verbPascal: string, local: string): string {
  if (local.startsWith('Discern')) return local;
  return local.startsWith(verbPascal) ? `Discern${local}` : `Discern${verbPascal}${local}`;
}

/** Published name of an envelope definition: Step → DiscernStep. */
export function envelopeDefName(local: string): string {
  return local.startsWith('Discern') ? local : `Discern${local}`;
}

/** The $id of a tool's self-contained output schema: its verb and a digest of its content. */
export function toolOutputSchemaId(verb: string, digest: string): string {
  return `${SCHEMA_BASE}tool-output/${verb.replace(/[\s_]+/g, '-')}-${digest}.json`;
}

export function resultDefName(verbPascal: string): string {
  return `Discern${verbPascal}Result`;
}

export function mcpResultDefName(verbPascal: string): string {
  return `Discern${verbPascal}McpToolResult`;
}
