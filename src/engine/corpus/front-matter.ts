// Reads the front matter of a Markdown page or SKILL.md with a real YAML parser (YAML 1.2, core schema), so
// anything a person or another tool writes there is read as YAML says: block scalars, nested maps such as an
// Agent Skills `metadata` map, anchors. Each reader checks the keys it uses for their type (page-meta.ts,
// skills.ts); keys it does not know are kept and ignored. The parser is a chunk of its own, loaded by
// frontMatterReader() only where front matter is read (map pages, skills, decision records), never as part of
// a call's start-up.
import type { parseDocument as ParseDocument } from 'yaml';

export type FrontMatterValue =
  string | number | boolean | null | FrontMatterValue[] | { [key: string]: FrontMatterValue };

export type FrontMatterRead =
  { ok: true; data: Record<string, FrontMatterValue> } | { ok: false; line: number; reason: string };

export type FrontMatterReader = (text: string) => FrontMatterRead;

let loading: Promise<FrontMatterReader> | undefined;

/** The reader, once the YAML parser has loaded (the first call loads it; later ones share it). */
export function frontMatterReader(): Promise<FrontMatterReader> {
  loading ??= import('yaml').then(({ parseDocument }) => readerWith(parseDocument));
  return loading;
}

/** The reader over a parser already loaded: codegen and tests import `yaml` themselves. */
export function readerWith(parseDocument: typeof ParseDocument): FrontMatterReader {
  return (text) => readWith(parseDocument, text);
}

function readWith(parseDocument: typeof ParseDocument, text: string): FrontMatterRead {
  // uniqueKeys: a key given twice is a mistake to report, not a value to pick.
  const document = parseDocument(text, { uniqueKeys: true, prettyErrors: true, schema: 'core' });
  const error = document.errors[0];
  if (error !== undefined) {
    const line = error.linePos?.[0].line ?? 1;
    // The parser's message ends with a copy of the line and a caret; the line number says where.
    return { ok: false, line, reason: error.message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '') ?? '' };
  }
  let value: unknown;
  try {
    // maxAliasCount bounds what anchors and aliases may expand to.
    value = document.toJS({ maxAliasCount: 100 });
  } catch (thrown) {
    return { ok: false, line: 1, reason: thrown instanceof Error ? thrown.message : String(thrown) };
  }
  if (value === null || value === undefined) return { ok: true, data: {} };
  if (typeof value !== 'object' || Array.isArray(value))
    return { ok: false, line: 1, reason: 'front matter must be a map of `key: value` lines' };
  return { ok: true, data: value as Record<string, FrontMatterValue> };
}
