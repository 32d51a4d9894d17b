// The skills refresh materialises: discern's built-in ones (generated/agent-assets.ts, loaded
// through builtin-assets.ts) and the project's own
// from `[skills] dir` (one folder per skill holding SKILL.md with `name` and `description` front matter), minus
// `[skills] exclude`. A project skill with a built-in's name replaces it (that is what `skills eject` makes).
//
// Each copy refresh writes carries a marker line right after its front matter. The marker is how discern knows
// a SKILL.md is its own: only a marked file is ever replaced or pruned, never a skill someone put there.
import { DEFAULT_SKILLS_DIR } from '../config/defaults.js';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { frontMatterReader, type FrontMatterReader } from '../corpus/front-matter.js';
import { splitFrontMatter } from '../search/index.js';
import { builtinAssets } from './builtin-assets.js';
import { FOLDER, readProjectFile } from './files.js';

export const SKILL_FILE = 'SKILL.md';
const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export interface Skill {
  name: string;
  description: string;
  source: 'builtin' | 'authored';
  /** The SKILL.md an authored skill comes from (project-relative). */
  path?: string;
  content: string;
  /** An authored skill with a built-in's name. */
  replaces_builtin?: boolean;
  excluded: boolean;
}

export interface SkillProblem {
  path: string;
  where: string;
  message: string;
}

export interface SkillCatalogue {
  dir: string;
  skills: Skill[];
  problems: SkillProblem[];
  /** Folders under `[skills] dir` that hold no SKILL.md: not skills, left alone. */
  ignored: string[];
}

export function skillsDir(setting: string | undefined): string {
  return (setting ?? DEFAULT_SKILLS_DIR).replace(/^(\.\/)+/, '').replace(/\/+$/, '');
}

export async function skillCatalogue(
  root: string,
  settings: { dir?: string; exclude?: readonly string[] } | undefined,
): Promise<SkillCatalogue> {
  const dir = skillsDir(settings?.dir);
  const exclude = new Set(settings?.exclude ?? []);
  const problems: SkillProblem[] = [];
  const ignored: string[] = [];
  const authored: Skill[] = [];
  let names: string[] = [];
  // The folder's path is checked like a file's: it must not lead outside the project. A missing one holds no skills.
  const folder = await readProjectFile(root, dir);
  if (folder.ok && folder.file.text !== null)
    problems.push({ path: dir, where: '[skills] dir', message: `[skills] dir ${dir} is a file, not a folder` });
  else if (!folder.ok && folder.reason !== FOLDER)
    problems.push({ path: dir, where: '[skills] dir', message: `[skills] dir ${dir} ${folder.reason}` });
  else if (!folder.ok) {
    try {
      names = (await readdir(join(root, dir))).filter((n) => !n.startsWith('.')).sort();
    } catch (error) {
      problems.push({
        path: dir,
        where: '[skills] dir',
        message: `[skills] dir ${dir} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      });
    }
  }
  for (const name of names) {
    const rel = `${dir}/${name}`;
    const info = await lstat(join(root, rel)).catch(() => undefined);
    if (!info?.isDirectory()) continue;
    const file = await readProjectFile(root, `${rel}/${SKILL_FILE}`);
    if (!file.ok) {
      problems.push({
        path: `${rel}/${SKILL_FILE}`,
        where: 'the file',
        message: `${rel}/${SKILL_FILE} ${file.reason}`,
      });
      continue;
    }
    if (file.file.text === null) {
      ignored.push(rel);
      continue;
    }
    const read = readSkill(name, file.file.text, await frontMatterReader());
    if (!read.ok) {
      problems.push({
        path: `${rel}/${SKILL_FILE}`,
        where: read.where,
        message: `${rel}/${SKILL_FILE}: ${read.reason}`,
      });
      continue;
    }
    authored.push({
      name,
      description: read.description,
      source: 'authored',
      path: `${rel}/${SKILL_FILE}`,
      content: file.file.text,
      excluded: exclude.has(name),
    });
  }
  const authoredNames = new Set(authored.map((s) => s.name));
  const builtin = (await builtinAssets()).skills;
  const skills: Skill[] = [
    ...builtin
      .filter((s) => !authoredNames.has(s.name))
      .map((s) => ({
        name: s.name,
        description: s.description,
        source: 'builtin' as const,
        content: s.content,
        excluded: exclude.has(s.name),
      })),
    ...authored.map((s) => (builtin.some((b) => b.name === s.name) ? { ...s, replaces_builtin: true } : s)),
  ].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { dir, skills, problems, ignored };
}

type SkillRead = { ok: true; description: string } | { ok: false; where: string; reason: string };

/** A project's SKILL.md: front matter first, `name` equal to its folder, and a `description`. */
export function readSkill(folder: string, text: string, readFrontMatter: FrontMatterReader): SkillRead {
  const split = splitFrontMatter(text);
  if (split.frontMatter === null)
    return {
      ok: false,
      where: 'line 1',
      reason: 'it must start with front matter between --- lines, with name and description',
    };
  const read = readFrontMatter(split.frontMatter);
  if (!read.ok)
    return { ok: false, where: `line ${read.line + 1}`, reason: `its front matter cannot be read: ${read.reason}` };
  const name = read.data['name'];
  const description = read.data['description'];
  if (typeof name !== 'string' || name === '')
    return { ok: false, where: 'the front matter', reason: 'the front matter has no name' };
  if (name !== folder)
    return { ok: false, where: 'the front matter', reason: `its name "${name}" differs from its folder "${folder}"` };
  if (!SKILL_NAME.test(name) || name.length > 64)
    return {
      ok: false,
      where: 'the front matter',
      reason: `its name "${name}" must be lowercase letters, digits and single hyphens, at most 64 characters`,
    };
  if (typeof description !== 'string' || description.trim() === '')
    return { ok: false, where: 'the front matter', reason: 'the front matter has no description' };
  if (description.length > 1024)
    return {
      ok: false,
      where: 'the front matter',
      reason: `its description has ${description.length} characters; at most 1024`,
    };
  return { ok: true, description: description.trim() };
}

const MARKER = /^<!-- discern:materialised\b/;

/** The copy refresh writes: the skill's own text with the marker line after its front matter. */
export function materialisedText(skill: Skill): string {
  const from =
    skill.source === 'builtin'
      ? `discern's built-in skill ${skill.name} (\`discern skills eject ${skill.name}\` makes a copy to edit)`
      : (skill.path ?? skill.name);
  const marker = `<!-- discern:materialised from ${from}; written by discern refresh, edit the source instead -->`;
  const match = /^(\uFEFF?---[ \t]*\r?\n[\s\S]*?\r?\n---[ \t]*)(\r?\n|$)/.exec(skill.content);
  const eol = skill.content.includes('\r\n') ? '\r\n' : '\n';
  if (!match) return `${marker}${eol}${skill.content}`;
  const head = match[1] ?? '';
  return `${head}${eol}${marker}${eol}${skill.content.slice(head.length + (match[2] ?? '').length)}`;
}

/** Whether a SKILL.md is a copy refresh wrote: the marker is the first line after its front matter. */
export function isMaterialised(text: string): boolean {
  const split = splitFrontMatter(text);
  const first = split.body.split(/\r?\n/, 1)[0] ?? '';
  return MARKER.test(first);
}
