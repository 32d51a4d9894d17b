// Small readers for setup's inspection: a file's text or nothing, a folder's entries or nothing. Inspection
// never fails on an unreadable or malformed file; it just learns less.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'smol-toml';

export async function readText(root: string, path: string): Promise<string | undefined> {
  try {
    return await readFile(join(root, path), 'utf8');
  } catch {
    return undefined;
  }
}

export async function readJson(root: string, path: string): Promise<Record<string, unknown> | undefined> {
  const text = await readText(root, path);
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

export async function readToml(root: string, path: string): Promise<Record<string, unknown> | undefined> {
  const text = await readText(root, path);
  if (text === undefined) return undefined;
  try {
    return { ...parse(text) };
  } catch {
    return undefined;
  }
}

/** Names in a folder (files and folders), sorted; empty when it does not exist. */
export async function listNames(root: string, path: string): Promise<string[]> {
  try {
    return (await readdir(join(root, path))).sort();
  } catch {
    return [];
  }
}

export function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? { ...(value as Record<string, unknown>) }
    : {};
}
