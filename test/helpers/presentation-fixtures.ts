// Records results driven in the verb tests as presentation fixtures: one envelope per verb and mode (ok, dry run,
// each error slug), the first one seen, with the scratch paths and clock times made neutral. The snapshot test
// (test/render/presentations.test.ts) renders each and compares it with its reviewed Markdown beside it.
// Recording is opt-in: RECORD_PRESENTATIONS=1 while running the verb tests; existing fixtures are kept.
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DiscernResult } from '../../generated/types.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');

export const FIXTURES = fileURLToPath(new URL('../fixtures/presentations/', import.meta.url));

export function presentationMode(result: DiscernResult): string {
  if (!result.ok) return `error-${String(result.error)}`;
  return result.dry_run ? 'dry-run' : 'ok';
}

export function fixtureName(verb: string): string {
  return verb.replace(/ /g, '-');
}

export function recordPresentation(result: DiscernResult, target: string): void {
  if (!process.env['RECORD_PRESENTATIONS']) return;
  const dir = join(FIXTURES, fixtureName(result.verb));
  const file = join(dir, `${presentationMode(result)}.json`);
  if (existsSync(file)) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, `${JSON.stringify(neutral(result, target), null, 2)}\n`);
}

function neutral(result: DiscernResult, target: string): unknown {
  let text = JSON.stringify(result);
  const roots = new Set([target]);
  try {
    roots.add(realpathSync(target));
  } catch {
    // a removed checkout keeps its given path
  }
  for (const root of [...roots].sort((a, b) => b.length - a.length)) text = text.split(root).join('/repo');
  // discern's own checkout (licenses, the manual) would name this machine's folder.
  text = text.split(REPO).join('/discern');
  text = text.replace(/\/tmp\/[A-Za-z0-9._-]+/g, '/scratch');
  text = text.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '2026-01-01T00:00:00.000Z');
  return JSON.parse(text);
}
