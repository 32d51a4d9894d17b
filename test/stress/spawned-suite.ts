// The hostile-input CLI property as real child processes of the built CLI (dist/): the first SPAWNED calls the
// in-process test (in-process-suite.ts) draws for each command from the same seed, plus the protocol calls only
// a real process can take (`discern mcp` with stdin closed, `discern queue -- <program>`), a few at a time.
// DISCERN_FUZZ_SPAWNED changes the count; the commands are dealt over two files like the in-process ones.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { checkArgv } from '../../src/surfaces/cli/argv-check.js';
import { runCli } from '../helpers/cli.js';
import { commandArgv, publishedCommands } from './cli-argv.js';
import { judge } from './cli-judge.js';
import { assertNoStack, GOOD_CONFIG, makeSandbox, sandboxEnv, SEED, type Sandbox } from './cli-sandbox.js';
import { shard } from './cli-shards.js';
import { NEEDS_EFFORT, PROTOCOL_COMMANDS, tuningFor } from './cli-tuning.js';
import { sized } from '../helpers/test-size.js';

/** Spawned calls per command: 1 bounded, 10 full (test/helpers/test-size.ts); DISCERN_FUZZ_SPAWNED overrides. */
const SPAWNED = sized('DISCERN_FUZZ_SPAWNED', { bounded: 1, full: 10 });
const PARALLEL = 3;

async function pool<T>(items: readonly T[], width: number, each: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await each(items[next++] as T);
    }),
  );
}

export function hostileCliSpawned(index: number, count: number): void {
  let sandbox: Sandbox;
  before(() => {
    sandbox = makeSandbox();
  });
  after(() => sandbox.assertIntact());
  const commands = shard(publishedCommands(), index, count);
  test(`hostile argv as real processes, shard ${index + 1} of ${count} (seed ${SEED}, ${SPAWNED} per command)`, async (t) => {
    const env = sandboxEnv(sandbox);
    const counts: string[] = [];
    const started = performance.now();
    let total = 0;
    for (const command of commands) {
      const name = command.path.join(' ');
      const root = sandbox.project(name).root;
      if (NEEDS_EFFORT.includes(command.path[0] ?? '')) {
        assert.equal((await runCli(['start', 'fz1', '--json'], { cwd: root, env })).code, 0);
      }
      // Oversampled, then the first SPAWNED usable ones: the same filter the in-process test applies to await.
      const calls = fc
        .sample(commandArgv(command, sandbox.hostile, tuningFor(name)), { seed: SEED, numRuns: SPAWNED * 4 })
        .filter((call) => {
          const check = checkArgv(call.argv);
          return !(name === 'await' && check.kind === 'command' && !check.present.has('--timeout'));
        });
      const chosen = calls.slice(0, SPAWNED);
      // The protocol commands' accepted calls run here only: a few of them on top.
      if (PROTOCOL_COMMANDS.has(name))
        chosen.push(...calls.filter((c) => checkArgv(c.argv).kind !== 'error').slice(0, 5));
      const t0 = performance.now();
      await pool(chosen, PARALLEL, async (call) => {
        writeFileSync(join(root, 'discern.toml'), GOOD_CONFIG);
        const r = await runCli(call.argv, { cwd: root, env });
        if (PROTOCOL_COMMANDS.has(name) && checkArgv(call.argv).kind !== 'error') {
          // `mcp` serves until stdin closes (at once here); `queue` exits with its program's status (127: not found).
          assertNoStack(r.stdout, 'stdout');
          assertNoStack(r.stderr, 'stderr');
          assert.ok([0, 1, 127].includes(r.code ?? -1), `${JSON.stringify(call.argv)} exited ${r.code}: ${r.stderr}`);
        } else {
          try {
            judge(call, r);
          } catch (error) {
            throw new Error(
              `spawned ${JSON.stringify(call.argv).slice(0, 500)} (seed ${SEED}): ${error instanceof Error ? error.message : String(error)}`,
              { cause: error },
            );
          }
        }
        sandbox.assertIntact();
      });
      total += chosen.length;
      counts.push(
        `${name.padEnd(20)} ${String(chosen.length).padStart(3)} spawned ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      );
    }
    for (const line of counts) t.diagnostic(line);
    t.diagnostic(`${total} processes in ${((performance.now() - started) / 1000).toFixed(1)} s, ${PARALLEL} at a time`);
  });
}
