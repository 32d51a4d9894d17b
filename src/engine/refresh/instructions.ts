// The instruction text refresh compiles into each agent's instruction file: discern's built-in instructions,
// then each of the project's `[instructions] sources` in order (a glob's matches sorted by path), each headed
// by a comment naming its file. The default source (discern/instructions.md) is skipped when it does not exist;
// a file named in discern.toml that does not exist is an error, and so is a glob that leads outside the project.
import { git } from '../git/git.js';
import { compilePattern } from '../scopes/index.js';
import { MARKDOWN_REGION } from '../wiring/regions.js';
import { INSTRUCTION_FILES } from './agents.js';
import { readProjectFile } from './files.js';
import { builtinAssets } from './builtin-assets.js';

export const DEFAULT_INSTRUCTION_SOURCES: readonly string[] = ['discern/instructions.md'];
const GLOB = /[*?[{]/;

export interface InstructionProblem {
  path: string;
  slug: 'invalid_config' | 'invalid_settings_file' | 'read_failed';
  where: string;
  message: string;
}

export interface CompiledInstructions {
  body: string;
  sources: string[];
  problems: InstructionProblem[];
}

/** The project's own pages the instructions point to: [project] todo and gotchas_doc, when the file sets them. */
export interface ProjectPages {
  todo?: string;
  gotchasDoc?: string;
}

export async function compileInstructions(
  root: string,
  sources: readonly string[] | undefined,
  env: Readonly<Record<string, string | undefined>>,
  pages?: ProjectPages,
): Promise<CompiledInstructions> {
  const named = sources !== undefined;
  const problems: InstructionProblem[] = [];
  const files: string[] = [];
  let listed: string[] | undefined;
  for (const source of sources ?? DEFAULT_INSTRUCTION_SOURCES) {
    const pattern = source.replace(/^(\.\/)+/, '');
    if (!GLOB.test(pattern)) {
      if (!files.includes(pattern)) files.push(pattern);
      continue;
    }
    const compiled = compilePattern(pattern);
    if (!compiled.ok) {
      problems.push({
        path: 'discern.toml',
        slug: 'invalid_config',
        where: '[instructions] sources',
        message: `[instructions] sources: "${source}" ${compiled.reason}.`,
      });
      continue;
    }
    listed ??= await projectFiles(root, env);
    for (const path of listed.filter((p) => compiled.test(p)).sort()) if (!files.includes(path)) files.push(path);
  }
  const { instructions } = await builtinAssets();
  const parts: string[] = [instructions.replace(/\r\n/g, '\n').trim()];
  const pointers = pages === undefined ? '' : projectPagePointers(pages);
  if (pointers !== '') parts.push(pointers);
  const used: string[] = [];
  for (const path of files) {
    if ((INSTRUCTION_FILES as readonly string[]).includes(path)) {
      problems.push({
        path: 'discern.toml',
        slug: 'invalid_config',
        where: '[instructions] sources',
        message: `[instructions] sources names ${path}, a file refresh writes; name the file its text comes from instead.`,
      });
      continue;
    }
    const read = await readProjectFile(root, path);
    if (!read.ok) {
      problems.push({
        path,
        slug: 'read_failed',
        where: path,
        message: `The instruction source ${path} ${read.reason}.`,
      });
      continue;
    }
    if (read.file.text === null) {
      if (named)
        problems.push({
          path: 'discern.toml',
          slug: 'invalid_config',
          where: '[instructions] sources',
          message: `[instructions] sources names ${path}, which does not exist.`,
        });
      continue;
    }
    const text = read.file.text
      .replace(/^\uFEFF/, '')
      .replace(/\r\n/g, '\n')
      .trim();
    const marker = text.split('\n').findIndex((line) => MARKDOWN_REGION.isBegin(line) || MARKDOWN_REGION.isEnd(line));
    if (marker !== -1) {
      problems.push({
        path,
        slug: 'invalid_settings_file',
        where: `line ${marker + 1}`,
        message: `The instruction source ${path} holds a discern:begin or discern:end line (line ${marker + 1}), which would break the region it is compiled into.`,
      });
      continue;
    }
    used.push(path);
    if (text !== '') parts.push(`<!-- from ${path} -->\n\n${text}`);
  }
  return { body: parts.join('\n\n'), sources: used, problems };
}

/** Tracked and untracked files that are not ignored: what a glob in `[instructions] sources` can match. */
async function projectFiles(root: string, env: Readonly<Record<string, string | undefined>>): Promise<string[]> {
  const listed = await git(['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, env });
  if (listed.code !== 0) return [];
  return [...new Set(listed.stdout.split('\0').filter(Boolean))];
}

/**
 * Where this project keeps its known traps and its open work, for the agent to read: the pages discern.toml
 * names. The text depends on the configuration alone, never on whether a file exists, so an effort that adds or
 * removes the page does not make the instructions stale (doctor says when gotchas_doc names no file).
 */
function projectPagePointers(pages: ProjectPages): string {
  const lines: string[] = [];
  if (pages.gotchasDoc !== undefined)
    lines.push(`- Read \`${pages.gotchasDoc}\` before you change code: it records this project's known traps.`);
  if (pages.todo !== undefined)
    lines.push(
      `- Open work is listed in \`${pages.todo}\`: add what you leave unfinished, and remove what you finish.`,
    );
  return lines.length === 0 ? '' : `## This project's own pages\n\n${lines.join('\n')}`;
}
