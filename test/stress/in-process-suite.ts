// Property-based hostile input over the CLI, in process: for every command of the published grammar, RUNS
// generated calls (well-formed and mutated argv, hostile values, a broken discern.toml now and then) through
// the CLI's own entry. Each answer must be one schema-valid JSON line with the exit status the reference's
// table gives it (or, for two result formats at once, a one-line grammar error with exit 2), never an internal
// error or a stack trace; nothing outside the project may change and no injected shell command may run.
// The seed is printed; DISCERN_FUZZ_SEED reproduces a failure, DISCERN_FUZZ_RUNS changes the count,
// DISCERN_FUZZ_COMMANDS narrows the run to some commands. The commands are dealt over three test files
// (hostile-cli*.test.ts, see cli-shards.ts); the same calls as real child processes: hostile-cli-spawned*.test.ts.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { checkArgv } from '../../src/surfaces/cli/argv-check.js';
import { commandArgv, publishedCommands, type GrammarCommand } from './cli-argv.js';
import { shard } from './cli-shards.js';
import { NEEDS_EFFORT, PROTOCOL_COMMANDS, tuningFor } from './cli-tuning.js';
import { judge } from './cli-judge.js';
import { BAD_CONFIGS, GOOD_CONFIG, makeSandbox, RUNS, sandboxEnv, SEED, type Sandbox } from './cli-sandbox.js';
import { runInProcess } from './in-process-cli.js';

/** Which discern.toml a call finds: mostly the good one, sometimes one of the broken ones. */
const configChoice = fc.oneof(
  { arbitrary: fc.constant('good'), weight: 6 },
  { arbitrary: fc.constantFrom(...Object.keys(BAD_CONFIGS)), weight: 1 },
);

function writeConfig(root: string, choice: string): void {
  writeFileSync(join(root, 'discern.toml'), choice === 'good' ? GOOD_CONFIG : (BAD_CONFIGS[choice] ?? ''));
}

/** Registers the property test for shard `index` of `count` (one call per test file). */
export function hostileCliInProcess(index: number, count: number): void {
  let sandbox: Sandbox;
  const savedEnv = { ...process.env };
  const savedCwd = process.cwd();

  before(() => {
    sandbox = makeSandbox();
    // The in-process CLI reads process.env as a spawned one reads its environment.
    for (const key of Object.keys(process.env)) delete process.env[key];
    Object.assign(process.env, sandboxEnv(sandbox, savedEnv));
  });

  after(() => {
    process.chdir(savedCwd);
    for (const key of Object.keys(process.env)) delete process.env[key];
    Object.assign(process.env, savedEnv);
  });

  const commands = shard(publishedCommands(), index, count);
  test(`hostile argv in process, shard ${index + 1} of ${count}: a valid envelope or a clean grammar error (seed ${SEED}, ${RUNS} per command)`, async (t) => {
    t.diagnostic(
      `seed ${SEED} (DISCERN_FUZZ_SEED), ${RUNS} calls per command (DISCERN_FUZZ_RUNS), ${commands.length} commands: ${commands.map((c) => c.path.join(' ')).join(', ')}`,
    );
    const lines: string[] = [];
    let total = 0;
    const started = performance.now();
    for (const command of commands) {
      const name = command.path.join(' ');
      const project = sandbox.project(name);
      process.chdir(project.root);
      await prepare(command, project.root);
      let ran = 0;
      let deferred = 0;
      const t0 = performance.now();
      await fc.assert(
        fc.asyncProperty(commandArgv(command, sandbox.hostile, tuningFor(name)), configChoice, async (call, config) => {
          const check = checkArgv(call.argv);
          // A protocol command the grammar accepts serves stdio or hands the terminal to a program: it runs only
          // as a real child (hostile-cli-spawned.test.ts).
          if (PROTOCOL_COMMANDS.has(name) && check.kind !== 'error') {
            deferred++;
            fc.pre(false);
          }
          // A guard, not a filter of interest: an accepted await without its budget flag would wait for minutes.
          if (name === 'await' && check.kind === 'command' && !check.present.has('--timeout')) fc.pre(false);
          writeConfig(project.root, config);
          const r = await runInProcess(call.argv);
          ran++;
          judge(call, r);
          sandbox.assertIntact();
        }),
        { seed: SEED, numRuns: RUNS, maxSkipsPerRun: 1000, includeErrorInReport: true },
      );
      total += ran;
      lines.push(
        `${name.padEnd(20)} ${String(ran).padStart(4)} in-process${deferred > 0 ? ` (${deferred} protocol calls left to the spawned test)` : ''} ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      );
    }
    process.chdir(sandbox.root);
    sandbox.assertIntact(true);
    for (const line of lines) t.diagnostic(line);
    t.diagnostic(`${total} calls in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  });
}

/** Commands that act on an effort get one to act on, so their targets can name something real. */
async function prepare(command: GrammarCommand, root: string): Promise<void> {
  if (!NEEDS_EFFORT.includes(command.path[0] ?? '')) return;
  const r = await runInProcess(['start', 'fz1', '--json']);
  assert.equal(r.code, 0, `start fz1 in ${root}: ${r.stdout}`);
}
