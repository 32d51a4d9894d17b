// discern.toml as a file for the config commands: where it is (from the project resolution, which may have
// stopped at a missing or invalid file — the config commands read and fix such files themselves), its text
// (UTF-8, a byte-order mark kept aside), whether it can be written, and the atomic write that keeps its mode.
import { constants } from 'node:fs';
import { access, readFile, realpath, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Refusal } from '../../core/outcome.js';
import { CONFIG_FILE, type Resolution, type ResolutionSlug } from '../project/resolve.js';
import { errorCode, writeFileAtomic } from '../state/atomic-write.js';
import { faultRequested } from '../faults.js';

export interface ConfigLocation {
  root: string;
  /** Absolute path of discern.toml (it may not exist). */
  path: string;
}

/** The refusals a resolution gives before it has found a checkout: no discern.toml can be located then. */
export type LocateSlug = 'no_repository' | 'invalid_arguments' | 'precondition_failed';

export type Located = { ok: true; location: ConfigLocation } | { ok: false; refusal: Refusal<LocateSlug> };

export function locateConfigFile(resolution: Resolution): Located {
  if (resolution.ok)
    return { ok: true, location: { root: resolution.project.root, path: resolution.project.configPath } };
  const checkout = resolution.partial.checkout;
  if (checkout)
    return {
      ok: true,
      location: { root: checkout.root, path: resolution.partial.configPath ?? join(checkout.root, CONFIG_FILE) },
    };
  const refusal = resolution.refusal;
  if (isLocateRefusal(refusal)) return { ok: false, refusal };
  // Every later refusal comes with the checkout it found, handled above; should one come without, say so.
  return {
    ok: false,
    refusal: { error: 'precondition_failed', message: refusal.message, next: { rerun: 'discern doctor' } },
  };
}

function isLocateRefusal(refusal: Refusal<ResolutionSlug>): refusal is Refusal<LocateSlug> {
  return (
    refusal.error === 'no_repository' ||
    refusal.error === 'invalid_arguments' ||
    refusal.error === 'precondition_failed'
  );
}

export type ConfigText =
  | { ok: true; exists: boolean; text: string; bom: boolean; mode: number | undefined }
  | { ok: false; reason: 'unreadable'; code: string }
  | { ok: false; reason: 'not-utf8' };

export async function readConfigText(path: string): Promise<ConfigText> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const code = errorCode(error) ?? 'error';
    if (code === 'ENOENT') return { ok: true, exists: false, text: '', bom: false, mode: undefined };
    return { ok: false, reason: 'unreadable', code };
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { ok: false, reason: 'not-utf8' };
  }
  const bom = text.startsWith('\uFEFF');
  const mode = (await stat(path).catch(() => undefined))?.mode;
  return {
    ok: true,
    exists: true,
    text: bom ? text.slice(1) : text,
    bom,
    mode: mode === undefined ? undefined : mode & 0o7777,
  };
}

/** undefined when `path` can be written (replaced through a temp file beside it); else the path that cannot, and why. */
export async function writeProblem(
  path: string,
  exists: boolean,
): Promise<{ target: string; code: string } | undefined> {
  const target = exists ? await realpath(path).catch(() => path) : path;
  if (exists) {
    const denied = await access(target, constants.W_OK).then(
      () => undefined,
      (e: unknown) => errorCode(e) ?? 'EACCES',
    );
    if (denied) return { target, code: denied };
  }
  const dir = dirname(target);
  const denied = await access(dir, constants.W_OK).then(
    () => undefined,
    (e: unknown) => errorCode(e) ?? 'EACCES',
  );
  return denied ? { target: dir, code: denied } : undefined;
}

/** Replaces the file's bytes atomically (temp file beside it, then rename), keeping its permission bits. */
export async function writeConfigText(
  path: string,
  text: string,
  previous: { exists: boolean; bom: boolean; mode: number | undefined },
  env: Readonly<Record<string, string | undefined>> = {},
  fault = 'config:write',
): Promise<void> {
  if (faultRequested(env, fault))
    throw Object.assign(new Error(`fault injected at ${fault} (DISCERN_FAULT)`), { code: 'EACCES' });
  const target = previous.exists ? await realpath(path).catch(() => path) : path;
  const bytes = new TextEncoder().encode(previous.bom ? `\uFEFF${text}` : text);
  await writeFileAtomic(target, bytes, previous.mode !== undefined ? { mode: previous.mode } : {});
}
