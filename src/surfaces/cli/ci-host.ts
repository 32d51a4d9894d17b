// What `discern done` leaves for a CI host beside its result: the SARIF file `--sarif <file>` asks for, and on
// GitHub Actions (GITHUB_ACTIONS=true) an annotation per diagnostic and the result's Markdown appended to the
// job's step summary. All are built from the final result, so they say what it says. The annotations go to
// stderr, which the runner reads for workflow commands too, so stdout stays the one result the format asked for.
import { appendFile, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { DiscernResult } from '../../../generated/types.js';
import { git } from '../../engine/git/git.js';
import { annotationsOf, sarifOf, sarifTargetProblem } from '../../engine/gate/sarif.js';
import { exitCodeFor } from './exit-codes.js';
import { present } from './present.js';

/** What went wrong writing a report, for stderr; undefined when everything asked for was written. */
export async function ciReports(
  result: DiscernResult,
  input: Record<string, unknown>,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<string | undefined> {
  const sarifPath = typeof input['sarif'] === 'string' ? resolve(cwd, input['sarif']) : undefined;
  const github = env['GITHUB_ACTIONS'] === 'true';
  if (sarifPath === undefined && !github) return undefined;
  const top = await git(['rev-parse', '--show-toplevel', 'HEAD'], { cwd, env });
  const [root = cwd, head] = top.code === 0 ? top.stdout.trim().split('\n') : [];
  const problems: string[] = [];
  // A target done refused before it ran (sarifTargetProblem) is left alone: that refusal is the result.
  if (sarifPath !== undefined && (await sarifTargetProblem(sarifPath)) === undefined) {
    const temporary = `${sarifPath}.${process.pid}.tmp`;
    try {
      // Written whole or not at all: a reader never finds half a document.
      await mkdir(dirname(sarifPath), { recursive: true });
      await writeFile(temporary, `${JSON.stringify(sarifOf(result, root, head, exitCodeFor(result)), null, 2)}\n`);
      await rename(temporary, sarifPath);
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => undefined);
      problems.push(
        `the SARIF file ${sarifPath} could not be written (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      );
    }
  }
  if (github) {
    const lines = annotationsOf(result, root);
    if (lines.length > 0) process.stderr.write(`${lines.join('\n')}\n`);
    const summary = env['GITHUB_STEP_SUMMARY'];
    if (summary !== undefined && summary !== '')
      await appendFile(summary, `${await present(result, 'markdown')}\n`).catch((error: NodeJS.ErrnoException) => {
        problems.push(`the step summary ${summary} could not be written (${error.code ?? String(error)})`);
      });
  }
  return problems.length > 0 ? problems.join('; ') : undefined;
}
