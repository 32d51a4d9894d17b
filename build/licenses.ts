// The third-party packages bundled into dist/, from Rollup's own account of what it wrote: every module with
// code in some chunk (a module tree-shaken to nothing does not count) that lives under node_modules belongs to
// the package whose folder holds it. Each package's name, version and license come from its package.json, the
// license text from its LICENSE (or LICENCE, COPYING) file. Written as dist/licenses.json, which
// `discern licenses` reads, and dist/THIRD-PARTY-LICENSES, the texts for people.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OutputAsset, OutputChunk } from 'rollup';

export interface BundledPackage {
  name: string;
  version: string;
  /** The SPDX expression package.json declares; UNKNOWN when it declares none. */
  license: string;
  /** The license file's name in the package, or null when it ships none. */
  license_file: string | null;
  /** The license file's text, or null. */
  text: string | null;
}

export const LICENSES_JSON = 'licenses.json';
export const LICENSES_TEXT = 'THIRD-PARTY-LICENSES';

/** The folder of the package a module id belongs to: up to the last node_modules/<name> (or @scope/<name>). */
export function packageDir(id: string): string | undefined {
  // Plugin-made ids (the CommonJS wrappers) start with \0 and may carry a ?query.
  const path = id.replace(/^\0/, '').replace(/\?.*$/, '').split('\\').join('/');
  const match = /^(.*\/node_modules\/(?:@[^/]+\/)?[^/@][^/]*)\//.exec(path);
  return match?.[1];
}

export function bundledPackages(output: readonly (OutputChunk | OutputAsset)[]): BundledPackage[] {
  const dirs = new Set<string>();
  for (const item of output) {
    if (item.type !== 'chunk') continue;
    for (const [id, rendered] of Object.entries(item.modules)) {
      if (rendered.renderedLength === 0) continue;
      const dir = packageDir(id);
      if (dir !== undefined) dirs.add(dir);
    }
  }
  const packages = [...dirs].map(describe);
  return packages.sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
}

function describe(dir: string): BundledPackage {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    name?: unknown;
    version?: unknown;
    license?: unknown;
    licenses?: unknown;
  };
  if (typeof manifest.name !== 'string' || typeof manifest.version !== 'string')
    throw new Error(`${dir}/package.json has no name or version`);
  const file = readdirSync(dir)
    .filter((f) => /^(licen[cs]e|copying)(\.[a-z]+|-[a-z0-9.-]+)?$/i.test(f))
    .sort()[0];
  return {
    name: manifest.name,
    version: manifest.version,
    license: licenseOf(manifest),
    license_file: file ?? null,
    text: file === undefined ? null : readFileSync(join(dir, file), 'utf8'),
  };
}

/** package.json's `license` (an SPDX expression), or the older `{type}` / `licenses: [{type}]` forms. */
function licenseOf(manifest: { license?: unknown; licenses?: unknown }): string {
  const typeOf = (value: unknown): string | undefined =>
    typeof value === 'string'
      ? value
      : typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string'
        ? (value as { type: string }).type
        : undefined;
  const single = typeOf(manifest.license);
  if (single !== undefined) return single;
  const list = Array.isArray(manifest.licenses)
    ? manifest.licenses.map(typeOf).filter((t): t is string => t !== undefined)
    : [];
  return list.length === 0 ? 'UNKNOWN' : list.length === 1 ? (list[0] ?? 'UNKNOWN') : `(${list.join(' OR ')})`;
}

export function writeLicenses(distDir: string, packages: readonly BundledPackage[]): void {
  writeFileSync(join(distDir, LICENSES_JSON), `${JSON.stringify({ format: 1, packages }, null, 2)}\n`);
  const rule = '-'.repeat(78);
  const sections = packages.map((p) =>
    [
      rule,
      `${p.name} ${p.version}`,
      `License: ${p.license}`,
      '',
      p.text === null ? `(${p.name} ships no license file; its package.json declares ${p.license}.)` : p.text.trimEnd(),
    ].join('\n'),
  );
  const head = `discern bundles the following ${packages.length} third-party packages into dist/. Each one's license follows.`;
  writeFileSync(join(distDir, LICENSES_TEXT), `${[head, ...sections].join('\n\n')}\n`);
}
