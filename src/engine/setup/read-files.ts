// Small readers for setup's inspection: a file's text or nothing, a folder's entries or nothing. Only what the
// repository view lets setup read (repo-view.ts: tracked, or untracked and not ignored) is read. Inspection never
// fails on an unreadable or malformed file; it just learns less.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import type { RepoView } from './repo-view.js';

export interface Source {
  root: string;
  view: RepoView;
}

export async function readText(source: Source, path: string): Promise<string | undefined> {
  if (!source.view.has(path)) return undefined;
  try {
    const text = await readFile(join(source.root, path), 'utf8');
    source.view.noteRead(path);
    return text;
  } catch {
    return undefined;
  }
}

export async function readJson(source: Source, path: string): Promise<Record<string, unknown> | undefined> {
  const text = await readText(source, path);
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export async function readToml(source: Source, path: string): Promise<Record<string, unknown> | undefined> {
  const text = await readText(source, path);
  if (text === undefined) return undefined;
  try {
    return { ...parse(text) };
  } catch {
    return undefined;
  }
}

/** Names in a folder (files and folders) that setup may read, sorted; empty when it has none. */
export function listNames(source: Source, path: string): string[] {
  return source.view.names(path);
}

export function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? { ...(value as Record<string, unknown>) }
    : {};
}
