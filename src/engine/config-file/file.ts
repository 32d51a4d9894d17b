// discern.toml as a file for the config commands: where it is (from the project resolution, which may have
// stopped at a missing or invalid file — the config commands read and fix such files themselves), its text
// (UTF-8, a byte-order mark kept aside), whether it can be written, and the atomic write that keeps its mode.
import { constants } from 'node:fs';
import { access, readFile, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, sep } from 'node:path';
import { withEditLock } from '../state/edit-lock.js';
import type { Refusal } from '../../core/outcome.js';
import { CONFIG_FILE, type Resolution, type ResolutionSlug } from '../project/resolve.js';
import { errorCode, writeFileAtomic } from '../state/atomic-write.js';
import { faultRequested } from '../faults.js';

export interface ConfigLocation {
  root: string;
  /** Absolute path of discern.toml (it may not exist). */
  path: string;
  /** The git common dir: where the lock that orders every discern.toml edit of the repository lives. */
  commonDir: string;
}

/** The refusals a resolution gives before it has found a checkout: no discern.toml can be located then. */
export type LocateSlug = 'no_repository' | 'invalid_arguments' | 'precondition_failed';

export type Located = { ok: true; location: ConfigLocation } | { ok: false; refusal: Refusal<LocateSlug> };

export function locateConfigFile(resolution: Resolution): Located {
  if (resolution.ok)
    return {
      ok: true,
      location: {
        root: resolution.project.root,
        path: resolution.project.configPath,
        commonDir: resolution.project.commonDir,
      },
    };
  const checkout = resolution.partial.checkout;
  if (checkout)
    return {
      ok: true,
      location: {
        root: checkout.root,
        path: resolution.partial.configPath ?? join(checkout.root, CONFIG_FILE),
        commonDir: checkout.commonDir,
      },
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

/** writeProblem's code for a link that leads out of the project. */
export const OUTSIDE_PROJECT = 'it leads outside the project';

/**
 * undefined when `path` can be written (replaced through a temp file beside it); else the path that cannot, and
 * why. A link that leads out of the project is refused like an unwritable file (docs/decisions/0039).
 */
export async function writeProblem(
  location: Pick<ConfigLocation, 'root' | 'path'>,
  exists: boolean,
): Promise<{ target: string; code: string } | undefined> {
  const { path } = location;
  const target = exists ? await realpath(path).catch(() => path) : path;
  const outside = await outsideProject(location.root, target);
  if (outside) return { target: outside, code: OUTSIDE_PROJECT };
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

/** The real place `target` (or, when absent, its folder) resolves to, when that is outside the project root. */
async function outsideProject(root: string, target: string): Promise<string | undefined> {
  const realRoot = await realpath(root).catch(() => root);
  let real: string;
  try {
    real = await realpath(target);
  } catch {
    real = join(await realpath(dirname(target)).catch(() => dirname(target)), basename(target));
  }
  return real === realRoot || real.startsWith(realRoot + sep) ? undefined : real;
}

/** The file changed between the caller's read and this write: redo the edit from the new bytes. */
export class ConfigChanged extends Error {
  constructor(readonly path: string) {
    super(`${path} changed while it was being edited`);
    this.name = 'ConfigChanged';
  }
}

/** What the caller read: the edit is based on these bytes and lands only while the file still holds them. */
export interface ConfigBase {
  exists: boolean;
  text: string;
  bom: boolean;
  mode: number | undefined;
}

/**
 * Replaces the file's bytes atomically (temp file beside it, then rename), keeping its permission bits. A
 * compare-and-swap: under the project's edit lock (state/edit-lock.ts) the file is read again, and when it no longer holds
 * `base` (another edit landed since the caller read it) nothing is written and ConfigChanged is thrown.
 */
export async function writeConfigText(
  location: ConfigLocation,
  text: string,
  base: ConfigBase,
  env: Readonly<Record<string, string | undefined>> = {},
  fault = 'config:write',
): Promise<void> {
  if (faultRequested(env, fault))
    throw Object.assign(new Error(`fault injected at ${fault} (DISCERN_FAULT)`), { code: 'EACCES' });
  const { path } = location;
  const denied = await writeProblem(location, base.exists);
  if (denied?.code === OUTSIDE_PROJECT)
    throw Object.assign(new Error(`${path} leads outside the project (to ${denied.target})`), { code: 'EOUTSIDE' });
  await withEditLock(location.commonDir, async () => {
    const now = await readConfigText(path);
    const same =
      now.ok && now.exists === base.exists && (!now.exists || (now.text === base.text && now.bom === base.bom));
    if (!same) throw new ConfigChanged(path);
    const target = base.exists ? await realpath(path).catch(() => path) : path;
    const bytes = new TextEncoder().encode(base.bom ? `\uFEFF${text}` : text);
    await writeFileAtomic(target, bytes, base.mode !== undefined ? { mode: base.mode } : {});
  });
}
