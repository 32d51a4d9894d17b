// licenses: the third-party packages bundled into dist/, read from dist/licenses.json, which the build writes
// from Rollup's module list (build/licenses.ts). The file is found beside the discern that runs: the nearest
// folder above this module with a dist/licenses.json is the package (dist/ has a package.json of its own, which
// only says its files are CommonJS).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LicensesOutcome } from '../../generated/handlers.js';
import type { DiscernLicensesPackage } from '../../generated/types.js';

export const LICENSES_FILE = 'licenses.json';

export async function licenses(): Promise<LicensesOutcome> {
  const path = join(packageRoot(dirname(fileURLToPath(import.meta.url))), 'dist', LICENSES_FILE);
  const refuse = (why: string): LicensesOutcome => ({
    refusal: {
      error: 'read_failed',
      message: `The list of bundled licenses cannot be read: ${why}. The build writes it; this discern's dist/ is incomplete.`,
      next: { target: path, access: 'exist (rebuild discern with `npm run build`, or reinstall it) and readable' },
    },
  });
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return refuse(code === 'ENOENT' ? `${path} does not exist` : `${path}: ${code ?? String(error)}`);
  }
  const packages = parse(text);
  if (packages === undefined) return refuse(`${path} is not the license list the build writes`);
  return { data: { packages, count: packages.length, path } };
}

/** The packages of dist/licenses.json (name, version, license), or undefined when it has another shape. */
function parse(text: string): DiscernLicensesPackage[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const list = typeof value === 'object' && value !== null ? (value as { packages?: unknown }).packages : undefined;
  if (!Array.isArray(list)) return undefined;
  const packages: DiscernLicensesPackage[] = [];
  for (const item of list) {
    if (typeof item !== 'object' || item === null) return undefined;
    const { name, version, license } = item as Record<string, unknown>;
    if (typeof name !== 'string' || typeof version !== 'string' || typeof license !== 'string') return undefined;
    packages.push({ name, version, license });
  }
  return packages;
}

function packageRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'dist', LICENSES_FILE))) return dir;
    if (dirname(dir) === dir) return dirname(start);
  }
}
