// scripts: the project's own scripts, the regular files directly in [scripts] dir. With no name it lists them;
// with a name it checks that one — a file directly in the directory (no `/`, no `..`, not a dot-file), resolving
// inside it once symbolic links are followed, regular, executable — and returns the command a bare CLI call
// then runs (src/surfaces/cli/run.ts, verb.yaml `bare.run`). The handler itself never runs anything.
import { constants } from 'node:fs';
import { access, readdir, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, posix, relative, sep } from 'node:path';
import type { ScriptsOutcome } from '../../generated/handlers.js';
import type { DiscernScriptsData, DiscernScriptsInput, DiscernScriptsScript } from '../../generated/types.js';
import { DEFAULT_SCRIPTS_DIR } from '../engine/config/defaults.js';
import { shellQuote } from '../engine/process/shell-quote.js';
import type { ProjectVerbContext } from './context.js';

export async function scripts(input: DiscernScriptsInput, ctx: ProjectVerbContext): Promise<ScriptsOutcome> {
  const { project } = ctx;
  const dir = project.config.scripts?.dir ?? DEFAULT_SCRIPTS_DIR;
  const shown = posix.normalize(dir).replace(/\/+$/, '');
  const realDir = await realpath(join(project.root, dir)).catch(() => undefined);
  // A scripts directory reached through a link that leads out of the project is not the project's: nothing in
  // it is listed or run (docs/decisions/0039-confinement-and-redaction.md).
  const realRoot = await realpath(project.root).catch(() => project.root);
  const escapes = realDir !== undefined && realDir !== realRoot && !inside(realDir, realRoot);
  const dirIsFolder =
    realDir !== undefined &&
    !escapes &&
    (await stat(realDir).then(
      (s) => s.isDirectory(),
      () => false,
    ));
  const listed = dirIsFolder ? await listScripts(realDir, shown) : [];
  const data: DiscernScriptsData = { dir: shown, exists: dirIsFolder, scripts: listed };
  if (input.name === undefined) return { data };

  const name = input.name;
  const available =
    listed.length === 0
      ? `${shown} has no scripts${dirIsFolder ? '' : ' (it does not exist)'}`
      : `the scripts are ${listed.map((s) => s.name).join(', ')}`;
  const notACommand = (why: string): ScriptsOutcome => ({
    data,
    refusal: { error: 'script_not_a_command', message: `${why}; ${available}.`, next: { dir: shown } },
  });
  if (nameLeaves(name))
    return notACommand(
      `"${name}" is not a script name: a script is a file directly in ${shown}, named without \`/\` or \`..\``,
    );
  if (name.startsWith('.')) return notACommand(`"${name}" is not a script: names starting with "." are not scripts`);
  if (escapes) return notACommand(`"${name}" is not a script: ${shown} leads outside the project (to ${realDir})`);
  if (!dirIsFolder || realDir === undefined) return notACommand(`"${name}" is not a script`);
  const entry = listed.find((s) => s.name === name);
  if (entry === undefined) {
    const why = await whyNotListed(join(realDir, name), realDir);
    return notACommand(`"${name}" is not a script: ${why}`);
  }
  if (!entry.executable) {
    return {
      data,
      refusal: {
        error: 'script_not_executable',
        message: `${entry.path} is not executable.`,
        next: { path: shellQuote(join(project.root, entry.path)), rerun: `discern scripts ${shellQuote(name)}` },
      },
    };
  }
  // The path in the scripts directory, not the link's target: a script that reads $0 sees its own name.
  return {
    data: {
      ...data,
      run: { name, program: join(project.root, shown, name), args: input.args ?? [], cwd: project.root },
    },
  };
}

/** A name that is not a plain file name: a path, `.`/`..`, or anything absolute. */
function nameLeaves(name: string): boolean {
  return (
    name.includes('/') ||
    name.includes('\\') ||
    name.includes('\0') ||
    name === '.' ||
    name === '..' ||
    isAbsolute(name)
  );
}

function inside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

/** Every regular file directly in the directory (links followed, but only to files inside it), by name. */
async function listScripts(realDir: string, shown: string): Promise<DiscernScriptsScript[]> {
  const names = await readdir(realDir).catch(() => [] as string[]);
  const found: DiscernScriptsScript[] = [];
  for (const name of names.sort()) {
    if (name.startsWith('.')) continue;
    const target = await realpath(join(realDir, name)).catch(() => undefined);
    if (target === undefined || !inside(target, realDir)) continue;
    const info = await stat(target).catch(() => undefined);
    if (!info?.isFile()) continue;
    const executable = await access(target, constants.X_OK).then(
      () => true,
      () => false,
    );
    found.push({ name, path: `${shown}/${name}`, executable });
  }
  return found;
}

/** Why a name the listing does not hold is not a script, for the message. */
async function whyNotListed(path: string, realDir: string): Promise<string> {
  const target = await realpath(path).catch(() => undefined);
  if (target === undefined) return 'no such file';
  if (!inside(target, realDir)) return 'it is a symbolic link that leads out of the scripts directory';
  const info = await stat(target).catch(() => undefined);
  if (info?.isDirectory()) return 'it is a directory';
  return 'it is not a regular file';
}
