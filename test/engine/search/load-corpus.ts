// Test helper: reads the fixture manual into SearchDocuments the way code generation will, with a
// deliberately tiny front matter reader (scalars and one string list) so tests need no YAML dependency.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractFields, splitFrontMatter } from '../../../src/engine/search/index.js';
import type { SearchDocument } from '../../../src/engine/search/index.js';

export const corpusRoot = fileURLToPath(new URL('../../fixtures/search-corpus/', import.meta.url));

interface FrontMatter {
  title: string;
  description: string;
  aliases: string[];
}

function unquote(value: string): string {
  const trimmed = value.trim();
  const quoted = /^(["'])(.*)\1$/.exec(trimmed);
  return quoted?.[2] ?? trimmed;
}

export function parseFrontMatter(text: string): FrontMatter {
  const result: FrontMatter = { title: '', description: '', aliases: [] };
  let inAliases = false;
  for (const line of text.split('\n')) {
    const item = /^\s+-\s+(.*)$/.exec(line);
    if (inAliases && item?.[1] !== undefined) {
      result.aliases.push(unquote(item[1]));
      continue;
    }
    inAliases = false;
    const pair = /^(\w+):\s*(.*)$/.exec(line);
    if (!pair) continue;
    const [, key, value = ''] = pair;
    if (key === 'title') result.title = unquote(value);
    else if (key === 'description') result.description = unquote(value);
    else if (key === 'aliases') inAliases = true;
  }
  return result;
}

/** "10-guides" -> "guides": the numeric prefix only orders sections on disk. */
function sectionName(directory: string): string {
  return directory.replace(/^\d+-/, '');
}

export function loadCorpus(): SearchDocument[] {
  const documents: SearchDocument[] = [];
  for (const directory of readdirSync(corpusRoot).sort()) {
    for (const file of readdirSync(join(corpusRoot, directory)).sort()) {
      if (!file.endsWith('.md')) continue;
      const { frontMatter, body } = splitFrontMatter(readFileSync(join(corpusRoot, directory, file), 'utf8'));
      const meta = parseFrontMatter(frontMatter ?? '');
      const fields = extractFields(body);
      const section = sectionName(directory);
      documents.push({
        target: `${section}/${file.slice(0, -'.md'.length)}`,
        path: `${directory}/${file}`,
        section,
        title: meta.title,
        description: meta.description,
        aliases: meta.aliases,
        headings: fields.headings,
        code: fields.code,
        body: fields.body,
      });
    }
  }
  return documents;
}
