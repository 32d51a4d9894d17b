// A handler refuses only with the slugs its verb registers, each with its own next action's values: the
// generated outcome types say so, and nothing in src/ casts an outcome to get round them (npm run
// house:measure counts such casts). The lines marked @ts-expect-error below are checked by `npm test`'s type
// check, which fails if one of them compiles; the test then compiles the same lines without the marks and reads
// the compiler's refusal of each.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { EnterOutcome, StatusOutcome } from '../../generated/handlers.js';
import type { Refusal } from '../../generated/outcome.js';
import type { DiscernErrorSlug } from '../../generated/types.js';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const outcomeModule = fileURLToPath(new URL('../../generated/handlers.js', import.meta.url));

// The compile-time checks. `enter` registers invalid_arguments, invalid_value and unknown_target.
export const registered: EnterOutcome = {
  refusal: { error: 'unknown_target', message: 'no such effort', next: { list: 'discern status' } },
};
export const unregistered: EnterOutcome = {
  // @ts-expect-error `conflict` is not a slug `enter` registers.
  refusal: { error: 'conflict', message: 'it conflicted', next: {} },
};
export const wrongNext: EnterOutcome = {
  // @ts-expect-error unknown_target's next action names a list, not a help page.
  refusal: { error: 'unknown_target', message: 'no such effort', next: { help: '`discern help enter`' } },
};
export function widened(any: Refusal<DiscernErrorSlug>): EnterOutcome {
  // @ts-expect-error a refusal of any slug is not one of enter's.
  return { refusal: any };
}
// `status` registers no slug of its own: it refuses with none.
// @ts-expect-error `invalid_value` is not a slug `status` registers.
export const none: StatusOutcome = { refusal: { error: 'invalid_value', message: 'x', next: { help: 'h' } } };

/** The same assignments, unmarked, compiled on their own: each must be refused where it stands. */
const UNMARKED = `import type { EnterOutcome, StatusOutcome } from ${JSON.stringify(outcomeModule)};
import type { Refusal } from ${JSON.stringify(outcomeModule.replace(/handlers\.js$/, 'outcome.js'))};
import type { DiscernErrorSlug } from ${JSON.stringify(outcomeModule.replace(/handlers\.js$/, 'types.js'))};
export const registered: EnterOutcome = { refusal: { error: 'unknown_target', message: 'm', next: { list: 'discern status' } } };
export const unregistered: EnterOutcome = { refusal: { error: 'conflict', message: 'm', next: {} } };
export const wrongNext: EnterOutcome = { refusal: { error: 'unknown_target', message: 'm', next: { help: 'h' } } };
export function widened(any: Refusal<DiscernErrorSlug>): EnterOutcome { return { refusal: any }; }
export const none: StatusOutcome = { refusal: { error: 'invalid_value', message: 'x', next: { help: 'h' } } };
`;

describe('refusals the compiler checks', () => {
  it('an unregistered slug, a wrong next action and a widened refusal do not compile; a registered one does', () => {
    const dir = mkdtempSync(join(tmpdir(), 'discern-refusals-'));
    try {
      writeFileSync(join(dir, 'refusals.ts'), UNMARKED);
      const run = spawnSync(
        process.execPath,
        [tsc, '--ignoreConfig', '--strict', '--exactOptionalPropertyTypes', '--noEmit', '--skipLibCheck'].concat(
          ['--target', 'ES2022', '--module', 'NodeNext', '--moduleResolution', 'NodeNext', 'refusals.ts'],
        ),
        { cwd: dir, encoding: 'utf8' },
      );
      const refused = [...run.stdout.matchAll(/^refusals\.ts\((\d+),\d+\): error (TS\d+)/gm)].map((m) => Number(m[1]));
      assert.equal(run.status, 2, `tsc exits 2 on type errors:\n${run.stdout}${run.stderr}`);
      assert.deepEqual([...new Set(refused)], [5, 6, 7, 8], `the unmarked lines tsc refused:\n${run.stdout}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
