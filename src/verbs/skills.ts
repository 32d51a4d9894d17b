// skills list: every built-in and authored skill, excluded or not, and each copy refresh materialises for the
// configured agents with whether it is current. skills eject: copy a built-in skill into [skills] dir, where
// the project can edit it, creating the file only if nothing is there. Both read the built-in skill templates from
// the install: a missing one answers templates_not_found.
import { join } from 'node:path';
import type { SkillsEjectOutcome, SkillsListOutcome } from '../../generated/handlers.js';
import { VERBS } from '../../generated/registry.js';
import type { DiscernSkillsEjectInput, DiscernSkillsListInput } from '../../generated/types.js';
import { builtinAssets } from '../engine/refresh/builtin-assets.js';
import { planRefresh, type RefreshPlan } from '../engine/refresh/index.js';
import { readProjectFile, writeDenied } from '../engine/refresh/files.js';
import { SKILL_FILE, skillsDir } from '../engine/refresh/skills.js';
import { createFileExclusive, errorCode } from '../engine/state/atomic-write.js';
import type { ProjectVerbContext } from './context.js';
import { damagedInstall } from './damaged-install.js';

export async function skillsList(_input: DiscernSkillsListInput, ctx: ProjectVerbContext): Promise<SkillsListOutcome> {
  let plan: RefreshPlan;
  try {
    plan = await planRefresh(ctx.project, { env: ctx.env });
  } catch (error) {
    const damaged = damagedInstall(error, ctx, 'discern skills list', 'discern skills list');
    if (damaged === undefined) throw error;
    return { refusal: { error: 'templates_not_found', ...damaged } };
  }
  const skills = plan.skills.map((s) => ({
    name: s.name,
    description: s.description,
    source: s.source,
    ...(s.path ? { path: s.path } : {}),
    ...(s.replaces_builtin ? { replaces_builtin: true } : {}),
    excluded: s.excluded,
    copies: s.copies,
  }));
  const outOfDate = skills.some((s) => s.copies.some((c) => c.state === 'missing' || c.state === 'stale'));
  const hints = [VERBS.skillsList.hints.eject, ...(outOfDate ? [VERBS.skillsList.hints.stale] : [])];
  return {
    data: {
      skills_dir: plan.skillsDir,
      agents: plan.agents,
      folders: plan.skillFolders,
      skills,
      ignored: plan.ignoredSkillFolders,
      problems: plan.skillProblems,
    },
    hints,
  };
}

export async function skillsEject(
  input: DiscernSkillsEjectInput,
  ctx: ProjectVerbContext,
): Promise<SkillsEjectOutcome> {
  const { project } = ctx;
  const rel = `${skillsDir(project.config.skills?.dir)}/${input.name}/${SKILL_FILE}`;
  let templates: Awaited<ReturnType<typeof builtinAssets>>['skills'];
  try {
    templates = (await builtinAssets()).skills;
  } catch (error) {
    const cli = `discern skills eject ${input.name}`;
    const damaged = damagedInstall(error, ctx, cli, cli);
    if (damaged === undefined) throw error;
    return { data: { name: input.name, path: rel }, refusal: { error: 'templates_not_found', ...damaged } };
  }
  const builtin = templates.find((s) => s.name === input.name);
  if (!builtin) {
    const names = templates.map((s) => s.name);
    return {
      data: { name: input.name, path: rel, suggestions: names },
      refusal: {
        error: 'unknown_target',
        message: `"${input.name}" is not a built-in skill; the built-in skills are ${names.join(', ')}.`,
        next: { list: 'discern skills list' },
      },
    };
  }
  const recovery = (why: string): SkillsEjectOutcome => ({
    data: { name: input.name, path: rel },
    refusal: {
      error: 'skills_eject_failed',
      message: why,
      next: {
        recovery: `edit ${rel}, which is the project's copy already, or remove it and run \`discern skills eject ${input.name}\` again`,
      },
    },
  });
  const read = await readProjectFile(project.root, rel);
  if (!read.ok)
    return {
      data: { name: input.name, path: rel },
      refusal: {
        error: 'write_denied',
        message: `${rel} ${read.reason}; nothing was written.`,
        next: { target: rel, access: 'writable without leaving the project (a link on its way leads outside)' },
      },
    };
  if (read.file.text !== null) return recovery(`${rel} already exists; skills eject never overwrites a file.`);
  const denied = await writeDenied(project.root, read.file.real);
  if (denied !== undefined)
    return {
      data: { name: input.name, path: rel },
      refusal: {
        error: 'write_denied',
        message: `${denied}; nothing was written.`,
        next: { target: rel, access: 'writable' },
      },
    };
  let created: boolean;
  try {
    created = await createFileExclusive(join(project.root, read.file.real), builtin.content);
  } catch (error) {
    return {
      data: { name: input.name, path: rel },
      steps: [{ kind: 'refresh', label: `create ${rel}`, disposition: 'run', outcome: 'failed' }],
      refusal: {
        error: 'skills_eject_failed',
        message: `${rel} could not be created: ${errorCode(error) ?? String(error)}.`,
        next: { recovery: `fix the cause, then run \`discern skills eject ${input.name}\` again` },
      },
    };
  }
  if (!created) return recovery(`${rel} appeared while it was being created; skills eject never overwrites a file.`);
  return {
    steps: [
      { kind: 'refresh', label: `create ${rel} from the built-in skill`, disposition: 'run', outcome: 'ok', note: rel },
    ],
    data: { name: input.name, path: rel },
    held: ['skill-materialization'],
    hints: [VERBS.skillsEject.hints.ejected.replace('{path}', rel)],
  };
}
