// The setup recipe's schema borrows discern.toml's sections: the published schema carries the borrowed
// definitions (and those they use) so it stands alone, and the TypeScript form names the config's own types.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { setupConfigForTypes, standaloneSetupConfig } from '../../codegen/schemas/setup-config.js';
import { readPublished } from '../helpers/published-schema.js';

const config = {
  $defs: {
    Command: { type: 'string' },
    CommandList: { anyOf: [{ $ref: '#/$defs/Command' }, { type: 'array', items: { $ref: '#/$defs/Command' } }] },
    Jobs: { type: 'object', additionalProperties: { $ref: '#/$defs/CommandList' } },
    Unused: { type: 'number' },
  },
};

describe('standaloneSetupConfig', () => {
  it('copies each borrowed definition and those it refers to, and points the references at them', () => {
    const setup = {
      type: 'object',
      additionalProperties: false,
      properties: { jobs: { $ref: 'config.schema.json#/$defs/Jobs', description: 'all of them' } },
    };
    assert.deepEqual(standaloneSetupConfig(setup, config), {
      type: 'object',
      additionalProperties: false,
      properties: { jobs: { $ref: '#/$defs/Jobs', description: 'all of them' } },
      $defs: { Command: config.$defs.Command, CommandList: config.$defs.CommandList, Jobs: config.$defs.Jobs },
    });
  });
  it('refuses a borrowed name that does not exist, or that the recipe also defines', () => {
    assert.throws(
      () => standaloneSetupConfig({ properties: { x: { $ref: 'config.schema.json#/$defs/Nope' } } }, config),
      /does not exist/,
    );
    assert.throws(
      () =>
        standaloneSetupConfig(
          { properties: { x: { $ref: 'config.schema.json#/$defs/Jobs' } }, $defs: { Command: {} } },
          config,
        ),
      /has the name of a borrowed/,
    );
  });
  it('for the types, a borrowed reference names the config type and nothing else', () => {
    const typed = setupConfigForTypes({
      $schema: 's',
      $id: 'i',
      properties: { jobs: { $ref: 'config.schema.json#/$defs/JobsSection', description: 'd' } },
    });
    assert.deepEqual(typed, {
      properties: { jobs: { $ref: '#/$defs/DiscernConfigJobsSection' } },
      title: 'DiscernSetupConfig',
    });
  });
});

describe('schema/discern-setup-config.schema.json', () => {
  const schema = readPublished('discern-setup-config.schema.json');
  // Alone in a fresh validator: every reference resolves inside the file.
  const validate = new Ajv2020({ strict: false, allErrors: true }).compile(schema);
  it('accepts a recipe of every section', () => {
    const recipe = {
      $schema: 'https://discern.sh/schema/v1/discern-setup-config.schema.json',
      project: { name: 'Acme', slug: 'acme', agents: ['claude_code', 'cursor'] },
      repository: { trunk: 'develop', ensure: ['npm ci'] },
      jobs: {
        test: 'npm test',
        lint: ['a', 'b'],
        build: { run: 'make', timeout: 60 },
        e2e: { stage: 'test', run: 'x' },
      },
      scopes: { docs: { paths: ['docs/**'], neutral: true } },
    };
    assert.ok(validate(recipe), JSON.stringify(validate.errors));
  });
  it('refuses what discern.toml refuses, and sections a recipe does not take', () => {
    for (const recipe of [
      { jobs: { test: 5 } },
      { jobs: { e2e: 'x' } },
      { project: { agents: ['emacs'] } },
      { repository: { trunk: 'a..b' } },
      { standards: {} },
      { gate: { timeout: 1 } },
    ]) {
      assert.equal(validate(recipe), false, JSON.stringify(recipe));
    }
  });
});
