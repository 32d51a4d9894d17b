// tidy: normalises discern's own files — discern.toml (toml) and the Markdown it owns (md) — writing each
// changed file atomically with its mode kept. A second run changes nothing.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { TidyOutcome } from '../../generated/handlers.js';
import type { DiscernStep, DiscernTidyInput } from '../../generated/types.js';
import { EditLockBusy, withEditLock } from '../engine/state/edit-lock.js';
import { ConfigChanged, locateConfigFile, readConfigText, writeConfigText } from '../engine/config-file/file.js';
import { CONFIG_FILE } from '../engine/project/resolve.js';
import { errorCode, writeFileAtomic } from '../engine/state/atomic-write.js';
import { faultRequested } from '../engine/faults.js';
import { tidyMarkdown } from '../engine/tidy/markdown.js';
import { ownedMarkdown } from '../engine/tidy/owned-files.js';
import { tidyToml } from '../engine/tidy/toml.js';
import { TomlEditError } from '../engine/toml-edit/errors.js';
import { parseTree, type Tree } from '../engine/toml-edit/values.js';
import type { InspectVerbContext } from './context.js';

const RETRY = 'fix what the message names, then run `discern tidy` again';

export async function tidy(input: DiscernTidyInput, ctx: InspectVerbContext): Promise<TidyOutcome> {
  const located = locateConfigFile(ctx.resolution);
  if (!located.ok) return { refusal: located.refusal };
  const { root, path: configPath } = located.location;
  const config = await readConfigText(configPath);
  if (!config.ok && config.reason === 'unreadable')
    return {
      refusal: {
        error: 'read_failed',
        message: `${configPath} cannot be read (${config.code}).`,
        next: { target: configPath, access: 'readable' },
      },
    };
  if (!config.ok)
    return {
      refusal: {
        error: 'tidy_parse_failed',
        message: `${CONFIG_FILE} is not UTF-8 text, so it cannot be tidied; nothing was changed.`,
        next: { recovery: RETRY },
      },
    };
  if (!config.exists)
    return {
      refusal: {
        error: 'no_project',
        message: `${root} has no ${CONFIG_FILE}, so discern owns no files here to tidy.`,
        next: { root },
      },
    };
  let tree: Tree;
  try {
    tree = parseTree(config.text);
  } catch (error) {
    if (!(error instanceof TomlEditError)) throw error;
    return {
      refusal: {
        error: 'tidy_parse_failed',
        message: `${CONFIG_FILE} is ${error.message}, so discern cannot tidy it or tell which files it owns; nothing was changed.`,
        next: { recovery: 'fix discern.toml (`discern doctor` points at the problem), then run `discern tidy` again' },
      },
    };
  }

  const files: { path: string; changed: boolean }[] = [];
  const steps: DiscernStep[] = [];
  const outcome = (refusal?: NonNullable<TidyOutcome['refusal']>): TidyOutcome => ({
    data: { files, changed: files.filter((f) => f.changed).map((f) => f.path) },
    ...(steps.length > 0 ? { steps } : {}),
    ...(refusal
      ? { refusal }
      : {
          hints: [
            files.some((f) => f.changed)
              ? `Tidied ${files.filter((f) => f.changed).length} of ${files.length} file${files.length === 1 ? '' : 's'}.`
              : 'Everything was tidy already; nothing was written.',
          ],
        }),
  });

  if (input.target !== 'md') {
    let tidied: string;
    try {
      tidied = tidyToml(config.text);
    } catch (error) {
      if (!(error instanceof TomlEditError)) throw error;
      return outcome({
        error: 'tidy_parse_failed',
        message: `${CONFIG_FILE} could not be tidied: ${error.message}; it is as it was.`,
        next: { recovery: RETRY },
      });
    }
    const changed = tidied !== config.text;
    if (changed) {
      try {
        await writeConfigText(located.location, tidied, config, ctx.env, 'tidy:write');
      } catch (error) {
        steps.push(step(CONFIG_FILE, 'failed'));
        return outcome({
          error: 'tidy_write_failed',
          message:
            error instanceof ConfigChanged
              ? `${configPath} changed while it was being tidied; it holds the other edit, untidied.`
              : errorCode(error) === 'EOUTSIDE'
                ? `${error instanceof Error ? error.message : configPath}; discern writes only inside it, and nothing was changed.`
                : `${configPath} could not be written (${errorCode(error) ?? 'error'}); it is as it was.`,
          next: { recovery: RETRY },
        });
      }
      steps.push(step(CONFIG_FILE, 'ok'));
    }
    files.push({ path: CONFIG_FILE, changed });
  }

  if (input.target !== 'toml') {
    // Read, tidy and write under the edit lock: no other discern edit of a page lands in between and is lost.
    const stopped = await withEditLock(located.location.commonDir, async (): Promise<TidyOutcome | undefined> => {
      for (const rel of await ownedMarkdown(root, tree, ctx.env)) {
        const full = join(root, rel);
        let text: string;
        try {
          text = await readFile(full, 'utf8');
        } catch (error) {
          return outcome({
            error: 'read_failed',
            message: `${full} cannot be read (${errorCode(error) ?? 'error'}).`,
            next: { target: full, access: 'readable' },
          });
        }
        const tidied = tidyMarkdown(text);
        const changed = tidied !== text;
        if (changed) {
          try {
            if (faultRequested(ctx.env, 'tidy:write'))
              throw Object.assign(new Error('fault injected at tidy:write (DISCERN_FAULT)'), { code: 'EACCES' });
            const mode = (await stat(full)).mode & 0o7777;
            await writeFileAtomic(full, tidied, { mode });
          } catch (error) {
            steps.push(step(rel, 'failed'));
            return outcome({
              error: 'tidy_write_failed',
              message: `${full} could not be written (${errorCode(error) ?? 'error'}); it is as it was, and the files before it are tidied.`,
              next: { recovery: RETRY },
            });
          }
          steps.push(step(rel, 'ok'));
        }
        files.push({ path: rel, changed });
      }
      return undefined;
    }).catch((error: unknown) => {
      if (!(error instanceof EditLockBusy)) throw error;
      return outcome({
        error: 'tidy_write_failed',
        message: `${error.message}; nothing more was tidied.`,
        next: { recovery: RETRY },
      });
    });
    if (stopped !== undefined) return stopped;
  }
  return outcome();
}

function step(path: string, outcome: 'ok' | 'failed'): DiscernStep {
  return { kind: 'tidy', label: `tidy ${path}`, disposition: 'run', note: path, outcome, duration_s: 0 };
}
