// Reads a folder's TypeScript files once and keeps each file's facts and the import graph between them.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { type ImportGraph, resolveImport } from './import-cycles.js';
import { type SourceFacts, sourceFacts } from './source-facts.js';

export interface SourceTree {
  /** Path relative to the repository, with forward slashes → its facts. */
  files: ReadonlyMap<string, SourceFacts>;
  /** Static value imports only: the graph a cycle in which decides load order. */
  graph: ImportGraph;
  /** Every import, type-only and lazy ones included: the graph a reader follows. */
  fullGraph: ImportGraph;
}

export function readSourceTree(repo: string, folder: string): SourceTree {
  const files = new Map<string, SourceFacts>();
  for (const full of typescriptFiles(join(repo, folder))) {
    const path = relative(repo, full).split(sep).join('/');
    files.set(path, sourceFacts(path, readFileSync(full, 'utf8')));
  }
  const known = new Set(files.keys());
  const edges = (path: string, specifiers: readonly string[]): string[] =>
    [...new Set(specifiers.map((s) => resolveImport(path, s, known)).filter((p) => p !== undefined))].sort();
  const graph = new Map<string, string[]>();
  const fullGraph = new Map<string, string[]>();
  for (const [path, facts] of files) {
    graph.set(path, edges(path, facts.valueImports));
    fullGraph.set(path, edges(path, [...facts.valueImports, ...facts.otherImports]));
  }
  return { files, graph, fullGraph };
}

function typescriptFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...typescriptFiles(full));
    else if (/\.(c|m)?ts$/.test(entry.name) && !entry.name.endsWith('.d.ts')) found.push(full);
  }
  return found;
}
