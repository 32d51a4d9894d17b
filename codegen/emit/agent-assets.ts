// The built-in text discern writes into projects for their coding agents: the instructions `refresh` compiles
// into CLAUDE.md, AGENTS.md and GEMINI.md, and the skills it materialises. Both are authored as Markdown in
// spec/agents/ and emitted as string constants into generated/agent-assets.ts, so run-time code reads no files
// and the MCP server can serve the same text as resources. Each skill's front matter (name, description) is
// checked here, at generation time: a malformed built-in skill never ships.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ProblemList } from '../spec/errors.js';
import { withCodeHeader } from './provenance.js';

export const AGENTS_DIR = 'spec/agents';
/** The Agent Skills naming rule: lowercase letters, digits and single hyphens, at most 64 characters. */
export const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const NAME_MAX = 64;
const DESCRIPTION_MAX = 1024;
/** The keys the Agent Skills format defines; anything else in a built-in skill is a typo. */
const SKILL_KEYS = new Set(['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools']);
/** Lines that open or close a region discern owns; built-in text must never contain one. */
const REGION_MARKER = /^\s*(?:<!--|#)\s*discern:(?:begin|end)\b/m;

export interface BuiltinSkill {
  name: string;
  description: string;
  content: string;
}

export function emitAgentAssets(root: string): Map<string, string> {
  const problems = new ProblemList();
  const instructionsRel = `${AGENTS_DIR}/instructions.md`;
  const instructionsPath = join(root, instructionsRel);
  let instructions = '';
  if (!existsSync(instructionsPath)) problems.add(instructionsRel, '', 'missing: the built-in agent instructions');
  else {
    instructions = readFileSync(instructionsPath, 'utf8');
    if (instructions.trim() === '')
      problems.add(instructionsRel, '', 'empty: the built-in agent instructions need text');
    if (REGION_MARKER.test(instructions))
      problems.add(
        instructionsRel,
        '',
        'contains a discern:begin/discern:end marker line, which would break the region refresh writes',
      );
  }
  const skills = readSkills(root, problems);
  problems.throwIfAny();
  const body = [
    "/** The built-in agent instructions (Markdown): refresh compiles them, before the project's own, into each agent's instruction file. */",
    `export const BUILTIN_INSTRUCTIONS: string = ${JSON.stringify(instructions)};`,
    '',
    '/** The built-in skills, by name: each `content` is the whole SKILL.md, front matter included. */',
    'export const BUILTIN_SKILLS: readonly { name: string; description: string; content: string }[] = [',
    ...skills.map(
      (s) =>
        `  { name: ${JSON.stringify(s.name)}, description: ${JSON.stringify(s.description)}, content: ${JSON.stringify(s.content)} },`,
    ),
    '];',
    '',
  ].join('\n');
  return new Map([
    [
      'generated/agent-assets.ts',
      withCodeHeader([`${AGENTS_DIR}/instructions.md`, `${AGENTS_DIR}/skills/*/SKILL.md`], body),
    ],
  ]);
}

function readSkills(root: string, problems: ProblemList): BuiltinSkill[] {
  const dir = join(root, AGENTS_DIR, 'skills');
  if (!existsSync(dir)) return [];
  const skills: BuiltinSkill[] = [];
  for (const name of readdirSync(dir).sort()) {
    const rel = `${AGENTS_DIR}/skills/${name}`;
    if (!statSync(join(dir, name)).isDirectory()) {
      problems.add(rel, '', 'spec/agents/skills/ holds one folder per skill');
      continue;
    }
    const fileRel = `${rel}/SKILL.md`;
    if (!existsSync(join(root, fileRel))) {
      problems.add(fileRel, '', 'missing: every skill folder holds a SKILL.md');
      continue;
    }
    const extra = readdirSync(join(dir, name)).filter((f) => f !== 'SKILL.md');
    if (extra.length > 0)
      problems.add(
        rel,
        '',
        `holds ${extra.join(', ')}: a built-in skill is its SKILL.md alone (refresh materialises only that file)`,
      );
    const content = readFileSync(join(root, fileRel), 'utf8');
    const checked = checkSkill(name, content);
    if (!checked.ok) {
      for (const p of checked.problems) problems.add(fileRel, p.pointer, p.message);
      continue;
    }
    skills.push({ name, description: checked.description, content });
  }
  if (skills.length === 0 && problems.items.length === 0)
    problems.add(`${AGENTS_DIR}/skills`, '', 'no built-in skills');
  return skills;
}

type SkillCheck = { ok: true; description: string } | { ok: false; problems: { pointer: string; message: string }[] };

/** A built-in SKILL.md: YAML front matter first, with a name equal to its folder and a description. */
export function checkSkill(folder: string, content: string): SkillCheck {
  const problems: { pointer: string; message: string }[] = [];
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/.exec(content);
  if (!match)
    return { ok: false, problems: [{ pointer: '', message: 'must start with YAML front matter between --- lines' }] };
  let meta: unknown;
  try {
    meta = parseYaml(match[1] ?? '');
  } catch (error) {
    return {
      ok: false,
      problems: [{ pointer: '', message: `front matter is not valid YAML: ${(error as Error).message}` }],
    };
  }
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta))
    return { ok: false, problems: [{ pointer: '', message: 'front matter must be a mapping' }] };
  const record = meta as Record<string, unknown>;
  for (const key of Object.keys(record))
    if (!SKILL_KEYS.has(key))
      problems.push({
        pointer: `/${key}`,
        message: `"${key}" is not a key of the Agent Skills format (${[...SKILL_KEYS].join(', ')})`,
      });
  const name = record['name'];
  if (typeof name !== 'string') problems.push({ pointer: '/name', message: 'name is required and must be text' });
  else {
    if (name !== folder)
      problems.push({ pointer: '/name', message: `name "${name}" must equal the folder name "${folder}"` });
    if (!SKILL_NAME.test(name) || name.length > NAME_MAX)
      problems.push({
        pointer: '/name',
        message: `name "${name}" must be lowercase letters, digits and single hyphens, at most ${NAME_MAX} characters`,
      });
  }
  const description = record['description'];
  if (typeof description !== 'string' || description.trim() === '')
    problems.push({ pointer: '/description', message: 'description is required and must be text' });
  else if (description.length > DESCRIPTION_MAX)
    problems.push({
      pointer: '/description',
      message: `description is ${description.length} characters; at most ${DESCRIPTION_MAX}`,
    });
  if (REGION_MARKER.test(content))
    problems.push({ pointer: '', message: 'contains a discern:begin/discern:end marker line' });
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, description: String(description).trim() };
}

/** The built-in skills' names, as the skills resource template lists them (the folders of spec/agents/skills). */
export function builtinSkillNames(root: string): string[] {
  const dir = join(root, AGENTS_DIR, 'skills');
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => existsSync(join(dir, name, 'SKILL.md')))
        .sort()
    : [];
}
