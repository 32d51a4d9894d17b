// The built-in agent text: spec/agents/ emits generated/agent-assets.ts with the instructions and every skill
// (name and description from its front matter), and a skill whose front matter is wrong stops generation with
// a message naming the file and the key.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { BUILTIN_INSTRUCTIONS, BUILTIN_SKILLS } from '../../generated/agent-assets.js';
import { emitAgentAssets } from '../../codegen/emit/agent-assets.js';
import { SpecError } from '../../codegen/spec/errors.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/scratch-repo.js';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function copy(): string {
  const root = tempDir('discern-agents-');
  dirs.push(root);
  cpSync(join(REPO_ROOT, 'spec/agents'), join(root, 'spec/agents'), { recursive: true });
  return root;
}

function problems(root: string): string[] {
  try {
    emitAgentAssets(root);
  } catch (error) {
    if (error instanceof SpecError)
      return error.problems.map((p) => `${p.file}${p.pointer === '' ? '' : `#${p.pointer}`}: ${p.message}`);
    throw error;
  }
  return [];
}

describe('agent assets', () => {
  it('carry the instructions and at least the land-change and diagnose-failure skills, as authored', () => {
    assert.equal(BUILTIN_INSTRUCTIONS, readFileSync(join(REPO_ROOT, 'spec/agents/instructions.md'), 'utf8'));
    const names = BUILTIN_SKILLS.map((s) => s.name);
    for (const name of ['discern-land-change', 'discern-diagnose-failure']) assert.ok(names.includes(name), name);
    for (const skill of BUILTIN_SKILLS) {
      const text = readFileSync(join(REPO_ROOT, 'spec/agents/skills', skill.name, 'SKILL.md'), 'utf8');
      assert.equal(skill.content, text);
      const front = parseYaml(/^---\n([\s\S]*?)\n---\n/.exec(text)?.[1] ?? '') as { name: string; description: string };
      assert.deepEqual([front.name, front.description], [skill.name, skill.description]);
    }
  });

  const cases: [string, (root: string) => void, RegExp][] = [
    [
      'a name that differs from its folder',
      (root) =>
        writeFileSync(
          join(root, 'spec/agents/skills/discern-land-change/SKILL.md'),
          '---\nname: land\ndescription: x\n---\nBody.\n',
        ),
      /^spec\/agents\/skills\/discern-land-change\/SKILL\.md#\/name: name "land" must equal the folder name/,
    ],
    [
      'no description',
      (root) =>
        writeFileSync(
          join(root, 'spec/agents/skills/discern-land-change/SKILL.md'),
          '---\nname: discern-land-change\n---\nBody.\n',
        ),
      /#\/description: description is required/,
    ],
    [
      'no front matter',
      (root) => writeFileSync(join(root, 'spec/agents/skills/discern-land-change/SKILL.md'), '# Just text\n'),
      /SKILL\.md: must start with YAML front matter/,
    ],
    [
      'an unknown key',
      (root) =>
        writeFileSync(
          join(root, 'spec/agents/skills/discern-land-change/SKILL.md'),
          '---\nname: discern-land-change\ndescription: x\ntriggers: [a]\n---\n',
        ),
      /#\/triggers: "triggers" is not a key of the Agent Skills format/,
    ],
    [
      'a folder without SKILL.md',
      (root) => mkdirSync(join(root, 'spec/agents/skills/empty')),
      /^spec\/agents\/skills\/empty\/SKILL\.md: missing/,
    ],
    [
      'instructions holding a region marker',
      (root) => writeFileSync(join(root, 'spec/agents/instructions.md'), 'Text\n<!-- discern:end -->\n'),
      /^spec\/agents\/instructions\.md: contains a discern:begin\/discern:end marker line/,
    ],
  ];
  for (const [name, edit, expected] of cases) {
    it(`stops generation on ${name}`, () => {
      const root = copy();
      edit(root);
      const found = problems(root);
      assert.ok(
        found.some((p) => expected.test(p)),
        found.join('\n'),
      );
    });
  }
});
