// A defect in spec/ stops generation with a message naming the file and the JSON pointer.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSpec } from '../../codegen/spec/load.js';
import { SpecError } from '../../codegen/spec/errors.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/scratch-repo.js';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A copy of spec/ (and package.json) with one file changed by `edit`. */
function specWith(file: string, edit: (text: string) => string): string {
  const root = tempDir('discern-spec-');
  dirs.push(root);
  cpSync(join(REPO_ROOT, 'spec'), join(root, 'spec'), { recursive: true });
  cpSync(join(REPO_ROOT, 'package.json'), join(root, 'package.json'));
  const path = join(root, file);
  writeFileSync(path, edit(readFileSync(path, 'utf8')));
  return root;
}

function problemsOf(root: string): string[] {
  try {
    loadSpec({ root });
  } catch (error) {
    if (error instanceof SpecError) return error.problems.map((p) => `${p.file}#${p.pointer}: ${p.message}`);
    throw error;
  }
  return [];
}

const cases: { name: string; file: string; edit: (t: string) => string; expect: RegExp }[] = [
  {
    name: 'an unknown vocabulary mark',
    file: 'spec/common.schema.json',
    edit: (t) => t.replace('"x-discern-vocabulary": "doctor_check_status"', '"x-discern-vocabulary": "check_status"'),
    expect:
      /^spec\/common\.schema\.json#\/\$defs\/DoctorCheck\/properties\/status: x-discern-vocabulary "check_status"/,
  },
  {
    name: 'an object without additionalProperties',
    file: 'spec/verbs/docs/data.schema.json',
    edit: (t) =>
      t.replace(
        '"title": "DocRegion",\n      "description": "A top-level section of the manual.",\n      "additionalProperties": false,',
        '"title": "DocRegion",\n      "description": "A top-level section of the manual.",',
      ),
    expect: /^spec\/verbs\/docs\/data\.schema\.json#\/\$defs\/DocRegion: an object type must say additionalProperties/,
  },
  {
    name: 'an error slug that is not registered',
    file: 'spec/verbs/docs/verb.yaml',
    edit: (t) =>
      t.replace('errors: [unknown_target, ambiguous, no_docs]', 'errors: [unknown_target, page_missing, no_docs]'),
    expect: /^spec\/verbs\/docs\/verb\.yaml#\/errors\/1: "page_missing" is not a registered error slug/,
  },
  {
    name: 'a CLI flag for an input key that does not exist',
    file: 'spec/verbs/docs/verb.yaml',
    edit: (t) =>
      t.replace(
        '{input: search, spellings: [--search], value_name: query}',
        '{input: query, spellings: [--search], value_name: query}',
      ),
    expect: /spec\/verbs\/docs\/verb\.yaml#\/cli\/flags\/0: input key "query" is not in input\.schema\.json/,
  },
  {
    name: 'a fixed CLI value its input does not accept',
    file: 'spec/verbs/standards/verb.yaml',
    edit: (t) => t.replace('fixed: {action: measure}', 'fixed: {action: tally}'),
    expect:
      /spec\/verbs\/standards\/verb\.yaml#\/cli\/fixed\/action: the fixed value "tally" is not one input\.schema\.json accepts for "action"/,
  },
  {
    name: 'an MCP-only input that is also a flag',
    file: 'spec/verbs/standards/verb.yaml',
    edit: (t) => t.replace('mcp_only: [proposals]', 'mcp_only: [proposals, pin]'),
    expect:
      /spec\/verbs\/standards\/verb\.yaml#\/cli\/mcp_only\/1: input key "pin" is already covered by \/cli\/flags\/0/,
  },
  {
    name: 'an input key the CLI cannot reach',
    file: 'spec/verbs/doctor/verb.yaml',
    edit: (t) => t.replace('  flags:\n    - {input: verbose, spellings: [--verbose]}\n', ''),
    expect: /spec\/verbs\/doctor\/verb\.yaml#\/cli: input key "verbose" has no CLI flag or positional/,
  },
  {
    name: 'a verb.yaml key the meta-schema does not know',
    file: 'spec/verbs/help/verb.yaml',
    edit: (t) => `${t}colour: blue\n`,
    expect: /^spec\/verbs\/help\/verb\.yaml#: must NOT have additional properties \("colour"\)/,
  },
  {
    name: 'YAML that does not parse',
    file: 'spec/mcp.yaml',
    edit: (t) => t.replace('server:\n', 'server: [\n'),
    expect: /^spec\/mcp\.yaml#: not valid YAML/,
  },
  {
    name: 'a schema Ajv strict mode rejects',
    file: 'spec/config.schema.json',
    edit: (t) => t.replace('"maxLength": 200', '"maxLenght": 200'),
    expect:
      /^spec\/config\.schema\.json#: does not compile under Ajv 2020 strict: strict mode: unknown keyword: "maxLenght"/,
  },
  {
    name: 'an MCP tool missing from tool_order',
    file: 'spec/mcp.yaml',
    edit: (t) => t.replace(', verify, docs]', ', verify]'),
    expect: /^spec\/mcp\.yaml#\/tool_order: verb "docs" has an MCP tool but is not in tool_order/,
  },
  {
    name: 'a prompt missing from prompt_order',
    file: 'spec/mcp.yaml',
    edit: (t) => t.replace(', land_change, diagnose_failure]', ', land_change]'),
    expect:
      /^spec\/mcp\.yaml#\/prompt_order: prompt "diagnose_failure" \(spec\/prompts\/diagnose_failure\.yaml\) is not in prompt_order/,
  },
  {
    name: 'a prompt argument without its form',
    file: 'spec/prompts/refine_config.yaml',
    edit: (t) => t.replace('    form: text\n', ''),
    expect: /^spec\/prompts\/refine_config\.yaml#\/arguments\/0: must have required property 'form'/,
  },
  {
    name: 'a worked example the config schema refuses',
    file: 'spec/prompts/draft_config.example.toml',
    edit: (t) => t.replace('timeout = 600 ', 'timeout = "600"'),
    expect:
      /^spec\/prompts\/draft_config\.example\.toml#\/gate\/timeout: the worked example is not a valid discern\.toml: must be integer/,
  },
  {
    name: 'a family-less error slug',
    file: 'spec/vocabularies.yaml',
    edit: (t) => t.replace('ambiguous: {family: arguments,', 'ambiguous: {family: confusion,'),
    expect: /^spec\/vocabularies\.yaml#\/error_slugs\/ambiguous\/family: unknown family "confusion"/,
  },
  {
    name: "package.json's version without a release entry",
    file: 'spec/releases.yaml',
    edit: (t) => t.replace('  - version: 0.1.0\n', '  - version: 0.0.9\n'),
    expect: /^spec\/releases\.yaml#\/releases: package\.json's version \d+\.\d+\.\d+\S* has no entry/,
  },
  {
    name: 'a release channel that is not one',
    file: 'spec/releases.yaml',
    edit: (t) => t.replace('    channel: prerelease\n', '    channel: beta\n'),
    expect: /^spec\/releases\.yaml#\/releases\/0\/channel: must be equal to one of the allowed values/,
  },
  {
    name: 'a release list out of order',
    file: 'spec/releases.yaml',
    edit: (t) =>
      `${t}  - version: 9.0.0\n    date: "2026-01-01"\n    channel: stable\n    summary: A version from the future.\n    changes:\n      - {kind: added, text: Everything.}\n`,
    expect: /^spec\/releases\.yaml#\/releases\/\d+: releases run newest first: .* is listed before 9\.0\.0/,
  },
  {
    name: 'the release shape discern releases returns drifting from the published one',
    file: 'spec/verbs/releases/data.schema.json',
    edit: (t) => t.replace('"maxLength": 600', '"maxLength": 700'),
    expect:
      /^spec\/verbs\/releases\/data\.schema\.json#\/\$defs\/Release: must equal spec\/releases\.schema\.json#\/\$defs\/Release/,
  },
];

describe('spec problems name the file and JSON pointer', () => {
  it('the real spec has none', () => assert.deepEqual(problemsOf(REPO_ROOT), []));
  for (const c of cases) {
    it(c.name, () => {
      const problems = problemsOf(specWith(c.file, c.edit));
      assert.ok(
        problems.some((p) => c.expect.test(p)),
        `expected ${String(c.expect)} among:\n${problems.join('\n')}`,
      );
    });
  }
});
