// Records results driven in the verb tests as presentation fixtures: one envelope per verb and mode (ok, dry
// run, each error slug), made the same from run to run (neutral-result.ts). The snapshot test
// (test/render/presentations.test.ts) renders each and compares it with its reviewed Markdown beside it.
//
// Recording is what `npm run snapshots:update` asks for (tools/snapshots/update.ts): with RECORD_PRESENTATIONS
// naming a staging folder, every result a test drives is written there as a candidate, named by its test file
// and its place in that file's calls; the update then keeps, per verb and mode, the first candidate in that
// order. Test files run side by side, so "the first one written" would depend on timing; this order does not.
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DiscernResult } from '../../generated/types.js';
import { neutralText } from './neutral-result.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');

export const FIXTURES = fileURLToPath(new URL('../fixtures/presentations/', import.meta.url));

export function presentationMode(result: DiscernResult): string {
  if (!result.ok) return `error-${String(result.error)}`;
  if (result.dry_run) return 'dry-run';
  // A page read (docs and map with a target) presents the page itself, unlike a listing or a search.
  const data = result.data as { doc?: unknown } | undefined;
  return typeof data?.doc === 'object' && data.doc !== null ? 'ok-page' : 'ok';
}

export function fixtureName(verb: string): string {
  return verb.replace(/ /g, '-');
}

/** This process's test file, as a name that sorts as its path does. */
function testFileKey(): string {
  const file = process.argv[1] ?? 'unknown';
  return relative(REPO, file).replace(/[^A-Za-z0-9._-]/g, '~');
}

let sequence = 0;
/** The earliest call of each verb and mode so far: only it can be chosen, so later ones are not written. */
const earliest = new Map<string, number>();

/** A call's place in its file's order, taken when it starts: calls made at once finish in any order. */
export function recordingSequence(): number {
  sequence += 1;
  return sequence;
}

export function recordPresentation(result: DiscernResult, target: string, started: number): void {
  const staging = process.env['RECORD_PRESENTATIONS'];
  if (!staging) return;
  const kind = `${fixtureName(result.verb)}/${presentationMode(result)}`;
  if ((earliest.get(kind) ?? Infinity) < started) return;
  earliest.set(kind, started);
  const dir = join(staging, kind);
  mkdirSync(dir, { recursive: true });
  const roots = [target];
  try {
    roots.push(realpathSync(target));
  } catch {
    // a removed checkout keeps its given path
  }
  const text = neutralText(JSON.stringify(result), { roots, repo: REPO });
  const name = `${testFileKey()}#${String(started).padStart(6, '0')}.json`;
  writeFileSync(join(dir, name), `${JSON.stringify(JSON.parse(text), null, 2)}\n`);
}
