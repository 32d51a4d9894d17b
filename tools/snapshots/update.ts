// `npm run snapshots:update`: re-records every snapshot from live runs, so a change in what a verb answers shows
// in `git diff` (openapi-typescript's update:examples is the model). Three kinds:
//   - presentation fixtures: the verb tests run with RECORD_PRESENTATIONS naming a staging folder; per verb and
//     mode the first candidate in test-file order becomes the fixture, and its authored Markdown the reviewed
//     snapshot beside it (test/helpers/presentation-fixtures.ts);
//   - the MCP tools/list snapshot and the guide's worked transcript, rewritten by their tests under
//     UPDATE_SNAPSHOTS=1, then the manual regenerated from the guide.
// A failing test stops it before anything is replaced; the fixtures are swapped in whole, never half-written.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DiscernResult } from '../../generated/types.js';
import { renderMarkdown } from '../../src/render/markdown/index.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const fixtures = join(repo, 'test/fixtures/presentations');
const DRIVER = 'helpers/drive.js';

function run(label: string, command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): void {
  process.stdout.write(`\nsnapshots:update: ${label}\n`);
  const result = spawnSync(command, args, { cwd: repo, stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) {
    process.stderr.write(
      `snapshots:update: ${label} failed (exit ${result.status ?? result.signal}); nothing was replaced.\n`,
    );
    process.exit(1);
  }
}

/** The test files that drive verbs through test/helpers/drive.ts, whose results become fixtures. */
function drivingTests(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'fixtures') found.push(...drivingTests(full));
    else if (entry.name.endsWith('.test.ts') && readFileSync(full, 'utf8').includes(DRIVER)) found.push(full);
  }
  return found;
}

/** Per verb and mode, the first candidate in the staging folder's order, with its Markdown beside it. */
function assemble(staging: string, into: string): number {
  let count = 0;
  for (const verb of readdirSync(staging).sort()) {
    for (const mode of readdirSync(join(staging, verb)).sort()) {
      const [first] = readdirSync(join(staging, verb, mode)).sort();
      if (first === undefined) continue;
      const text = readFileSync(join(staging, verb, mode, first), 'utf8');
      mkdirSync(join(into, verb), { recursive: true });
      writeFileSync(join(into, verb, `${mode}.json`), text);
      writeFileSync(join(into, verb, `${mode}.md`), renderMarkdown(JSON.parse(text) as DiscernResult));
      count += 1;
    }
  }
  return count;
}

run('build', 'npm', ['run', 'build']);

const staging = mkdtempSync(join(tmpdir(), 'discern-presentations-'));
try {
  const files = drivingTests(join(repo, 'test')).map((f) => relative(repo, f));
  run(
    `record results from ${files.length} verb test files`,
    process.execPath,
    ['--import', 'tsx', 'test/run.ts', ...files],
    {
      RECORD_PRESENTATIONS: staging,
    },
  );
  // Assembled beside the fixtures (one file system, so the swap is two renames), then swapped in whole.
  const fresh = `${fixtures}.new`;
  const old = `${fixtures}.old`;
  rmSync(fresh, { recursive: true, force: true });
  rmSync(old, { recursive: true, force: true });
  const count = assemble(staging, fresh);
  renameSync(fixtures, old);
  renameSync(fresh, fixtures);
  rmSync(old, { recursive: true, force: true });
  process.stdout.write(`\nsnapshots:update: ${count} presentation fixtures recorded\n`);
} finally {
  rmSync(staging, { recursive: true, force: true });
}

run(
  'the MCP tools/list snapshot and the guide transcript',
  process.execPath,
  ['--import', 'tsx', 'test/run.ts', 'test/mcp/e2e.test.ts', 'test/mcp/golden-config-loop.test.ts'],
  {
    UPDATE_SNAPSHOTS: '1',
  },
);
run('the manual, from the guide', 'npm', ['run', 'generate']);
run('the presentation snapshot test', process.execPath, [
  '--import',
  'tsx',
  'test/run.ts',
  'test/render/presentations.test.ts',
]);
process.stdout.write(
  '\nsnapshots:update: done. Review `git diff test/fixtures docs schema generated` before committing.\n',
);
