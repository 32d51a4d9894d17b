// The skills category: the project writes down at least one of its own procedures as a skill, every SKILL.md
// can be read, every skill is materialised where the configured agents look, and exclusions name real skills
// and leave nothing behind.
import type { Category, Rule } from '../types.js';
import { blocked, count, listed, verdict } from '../verdict.js';

const authored: Rule = {
  id: 'skills.authored',
  title: 'The project has skills of its own',
  severity: 2,
  kind: 'decide',
  evaluate(facts) {
    const r = facts.refresh;
    const own = r.skills.filter((s) => s.source === 'authored');
    const read = [`${r.skillsDir}/`];
    const counts = { authored: own.length, builtin: r.skills.length - own.length };
    const fix = `Write ${r.skillsDir}/<name>/SKILL.md for a procedure agents repeat here (release, migration, debugging a subsystem): front matter with name and description, then the steps.`;
    if (own.length > 0)
      return verdict(
        'pass',
        `${count(own.length, 'authored skill')}: ${listed(
          own.map((s) => s.name),
          4,
        )}.`,
        { read, counts },
      );
    if (r.skillsDirExists || r.skillProblems.length > 0)
      return verdict(
        'partial',
        `${r.skillsDir}/ exists but holds no readable skill; agents get only discern's ${count(counts.builtin, 'built-in skill')}.`,
        { read, counts, fix, against: `${r.skillsDir}/` },
      );
    return verdict(
      'fail',
      `${r.skillsDir}/ does not exist; agents get only discern's ${count(counts.builtin, 'built-in skill')}.`,
      { read, counts, fix, against: `${r.skillsDir}/` },
    );
  },
};

const frontMatter: Rule = {
  id: 'skills.front-matter',
  title: 'Every authored SKILL.md has valid front matter (name, description)',
  severity: 2,
  kind: 'fix',
  evaluate(facts) {
    const r = facts.refresh;
    const read = [`${r.skillsDir}/*/SKILL.md`];
    const own = r.skills.filter((s) => s.source === 'authored');
    if (own.length === 0 && r.skillProblems.length === 0 && r.ignoredSkillFolders.length === 0)
      return blocked('skills.authored', 'There are no authored skills to check.', read);
    const counts = {
      readable: own.length,
      problems: r.skillProblems.length,
      without_skill_file: r.ignoredSkillFolders.length,
    };
    if (r.skillProblems.length > 0) {
      const first = r.skillProblems[0];
      return verdict(
        'fail',
        `${count(r.skillProblems.length, 'skill')} cannot be read: ${listed(
          r.skillProblems.map((p) => p.message),
          2,
        )}.`,
        {
          read,
          counts,
          fix: `Fix ${first?.path ?? ''}: start it with front matter between --- lines holding \`name\` (its folder's name) and \`description\`. \`discern done\` fails on it (skill_frontmatter).`,
          against: first?.path ?? '',
        },
      );
    }
    if (r.ignoredSkillFolders.length > 0) {
      return verdict(
        'partial',
        `${listed(r.ignoredSkillFolders)} hold${r.ignoredSkillFolders.length === 1 ? 's' : ''} no SKILL.md, so ${r.ignoredSkillFolders.length === 1 ? 'it is' : 'they are'} not a skill.`,
        {
          read,
          counts,
          fix: `Add ${r.ignoredSkillFolders[0] ?? ''}/SKILL.md with name and description front matter, or move the folder out of ${r.skillsDir}/.`,
          against: r.ignoredSkillFolders[0] ?? '',
        },
      );
    }
    return verdict('pass', `${count(own.length, 'authored SKILL.md')} with name and description.`, { read, counts });
  },
};

const materialised: Rule = {
  id: 'skills.materialised',
  title: 'Every skill is materialised where the configured agents read skills',
  severity: 2,
  kind: 'fix',
  evaluate(facts) {
    const r = facts.refresh;
    const read = ["refresh plan (agents' skill folders)"];
    if (r.failed !== undefined)
      return verdict('fail', `Refresh cannot plan the skills: ${r.failed}.`, {
        read,
        fix: 'Run `discern refresh --dry-run` and fix the file it names.',
      });
    const copies = r.skills.filter((s) => !s.excluded).flatMap((s) => s.copies);
    const lagging = copies.filter((c) => c.state === 'missing' || c.state === 'stale');
    const blockedCopies = copies.filter((c) => c.state === 'blocked');
    const counts = {
      copies: copies.length,
      missing: copies.filter((c) => c.state === 'missing').length,
      stale: copies.filter((c) => c.state === 'stale').length,
      blocked: blockedCopies.length,
    };
    if (lagging.length === 0 && blockedCopies.length === 0)
      return verdict(
        'pass',
        `All ${count(copies.length, 'skill copy', 'skill copies')} current for ${r.agents.join(', ')}.`,
        { read, counts },
      );
    if (lagging.length === 0) {
      return verdict(
        'partial',
        `${listed(blockedCopies.map((c) => c.path))}: a file discern did not write sits where refresh would put the skill.`,
        {
          read,
          counts,
          fix: `Rename the skill, or move ${blockedCopies[0]?.path ?? 'that file'} away, then run \`discern refresh\`.`,
          against: blockedCopies[0]?.path ?? '',
        },
      );
    }
    return verdict(
      lagging.length === copies.length ? 'fail' : 'partial',
      `${lagging.length} of ${count(copies.length, 'skill copy', 'skill copies')} missing or out of date: ${listed(lagging.map((c) => c.path))}.`,
      {
        read,
        counts,
        fix: 'Run `discern refresh` and commit what it writes.',
        against: lagging[0]?.path ?? '',
      },
    );
  },
};

const exclusions: Rule = {
  id: 'skills.exclusions',
  title: '[skills] exclude names real skills and leaves none behind',
  severity: 1,
  kind: 'fix',
  evaluate(facts) {
    const r = facts.refresh;
    const excluded = facts.config.skills?.exclude ?? [];
    const read = [`${facts.configFile} [skills] exclude`, "agents' skill folders"];
    const known = new Set(r.skills.map((s) => s.name));
    const unknown = excluded.filter((n) => !known.has(n));
    const lingering = r.targets.filter((t) => t.kind === 'skill' && t.removes);
    const counts = { excluded: excluded.length, unknown: unknown.length, lingering: lingering.length };
    if (unknown.length === 0 && lingering.length === 0)
      return verdict(
        'pass',
        excluded.length === 0
          ? 'No skill is excluded and no stale copy lingers.'
          : `${count(excluded.length, 'excluded skill')}, each a real skill, none left in an agent's folder.`,
        { read, counts },
      );
    if (lingering.length > 0) {
      return verdict(
        'fail',
        `${count(lingering.length, 'copy', 'copies')} of skills no longer wanted remain${lingering.length === 1 ? 's' : ''}: ${listed(lingering.map((t) => t.path))}.`,
        {
          read,
          counts,
          fix: 'Run `discern refresh`: it prunes the copies it wrote.',
          against: lingering[0]?.path ?? '',
        },
      );
    }
    return verdict(
      'partial',
      `[skills] exclude names ${listed(unknown)}, which ${unknown.length === 1 ? 'is' : 'are'} not a skill (a typo excludes nothing).`,
      {
        read,
        counts,
        fix: `Correct or remove ${unknown[0] ?? ''} in [skills] exclude; \`discern skills list\` names the skills there are.`,
        against: facts.configFile,
      },
    );
  },
};

export const SKILLS: Category = {
  name: 'skills',
  title: 'Skills',
  weight: 1,
  rules: [authored, frontMatter, materialised, exclusions],
};
