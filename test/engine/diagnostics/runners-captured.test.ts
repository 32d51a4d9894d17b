// Every runner and linter of runner-cases.ts, over the output captured from the real tool
// (test/fixtures/diagnostics/runners, tool and version in VERSIONS.md there): each failure at the failing
// assertion's own file and line, named, with a command that reruns just it. The captures were made in a scratch
// copy written `/repo`, which is the job's directory here.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { diagnoseText } from '../../../src/engine/diagnostics/index.js';
import { readProjectFacts } from '../../../src/engine/diagnostics/project-facts.js';
import { PROJECTS } from '../../helpers/runner-projects.js';
import { resultValidator } from '../../helpers/published-schema.js';
import { assertDiagnostics } from './runner-check.js';
import { RUNNER_CASES } from './runner-cases.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/diagnostics/runners/', import.meta.url));
const validDiagnostic = resultValidator('DiscernDiagnostic');

describe('runner and linter output captured from the real tools', () => {
  const versions = readFileSync(join(FIXTURES, 'VERSIONS.md'), 'utf8');
  for (const runnerCase of RUNNER_CASES) {
    const version = new RegExp(`^\\| \`${runnerCase.id}\\.txt\` \\| ([^|]+) \\|`, 'm').exec(versions)?.[1]?.trim();
    it(`${runnerCase.id} (${version ?? 'version not recorded'})`, async () => {
      assert.ok(version !== undefined, `VERSIONS.md records the tool and version of ${runnerCase.id}.txt`);
      const text = readFileSync(join(FIXTURES, `${runnerCase.id}.txt`), 'utf8');
      const diagnosis = diagnoseText(
        text,
        { tool: runnerCase.id, reproduce_cmd: runnerCase.command, output_path: '/logs/job.log', cwd: '/repo' },
        // The project's own go.mod and package.json, as diagnoseOutput reads them from the job's directory.
        { project: await readProjectFacts(join(PROJECTS, runnerCase.project)) },
      );
      for (const diagnostic of diagnosis.diagnostics)
        assert.ok(validDiagnostic(diagnostic), JSON.stringify(validDiagnostic.errors));
      assertDiagnostics(diagnosis.diagnostics, runnerCase, true);
    });
  }
});
