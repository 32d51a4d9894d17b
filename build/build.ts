// Builds dist/: the CLI as CommonJS (dist/cli.js) with code splitting, so each lazy import becomes its own chunk —
// `--version` parses only the entry, the CLI path never loads the MCP SDK, and only `discern mcp` does — and the
// `discern` bin (dist/discern.js), which loads it through V8's code cache (docs/decisions/0042). The cache is made
// last, by running the built CLI (build/code-cache.ts). npm install runs this through `prepare`. The licenses of
// the bundled packages are written beside it (build/licenses.ts).
//
// Rollup does the chunking (docs/decisions/0016): a module already loaded by everything that imports a lazy
// chunk stays where it is, so a CLI call reads four files instead of two dozen small ones. esbuild only strips
// the types and minifies.
import { chmodSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import commonjsModule from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import { build, transform } from 'esbuild';
import { rollup, type OutputAsset, type OutputChunk, type Plugin, type RollupLog } from 'rollup';
import { trainCodeCache } from './code-cache.js';
import { bundledPackages, writeLicenses } from './licenses.js';

// The plugin's types are written for CommonJS callers: under NodeNext its default import types as the module.
const commonjs = commonjsModule as unknown as (typeof commonjsModule)['default'];
const root = fileURLToPath(new URL('..', import.meta.url));

/** Sources import each other as `./x.js` (what tsc emits); the file on disk is `x.ts`, or a generated `x.js`. */
const typescript: Plugin = {
  name: 'discern-typescript',
  resolveId(source, importer) {
    if (importer === undefined || !source.startsWith('.') || !source.endsWith('.js')) return null;
    const file = join(dirname(importer), source);
    const ts = file.replace(/\.js$/, '.ts');
    if (existsSync(ts)) return ts;
    return existsSync(file) ? file : null;
  },
  async transform(code, id) {
    if (!id.endsWith('.ts')) return null;
    const result = await transform(code, { loader: 'ts', format: 'esm', target: 'node20', sourcefile: id });
    return { code: result.code, map: null };
  },
  async renderChunk(code) {
    // 'cjs' tells esbuild the chunk is a module of its own, so its top-level names are minified too.
    const result = await transform(code, { minify: true, format: 'cjs', target: 'node20', legalComments: 'eof' });
    return { code: result.code, map: null };
  },
};

/** Warnings that are about the dependencies' own source, not about how they are bundled here. */
const EXPECTED_WARNINGS = new Set(['CIRCULAR_DEPENDENCY', 'INVALID_ANNOTATION', 'THIS_IS_UNDEFINED']);

/**
 * The short coupling path (src/surfaces/cli/coupling-fast.ts) is a bundle of its own, dist/coupling-fast.js with
 * its chunks under dist/coupling-fast/: it shares modules with the CLI (project discovery, the envelope), and
 * in one bundle Rollup would split those out of the CLI's core chunk into files every call then reads
 * (docs/decisions/0016, 0025). The entry imports it as an external file; its few kilobytes are duplicated.
 */
const SHORT_PATH = `${root}src/surfaces/cli/coupling-fast.ts`;

async function bundleInto(
  input: Record<string, string>,
  chunkDir: string,
  external: (id: string) => boolean,
  problems: string[],
): Promise<(OutputChunk | OutputAsset)[]> {
  const bundle = await rollup({
    input,
    plugins: [
      typescript,
      nodeResolve({ preferBuiltins: true, exportConditions: ['node'] }), // A CommonJS module's default import is its module.exports, as under Node itself (the generated validators
      // and sade rely on it).
      commonjs({ defaultIsModuleExports: true }),
    ],
    external,
    onwarn: (warning: RollupLog) => {
      if (!EXPECTED_WARNINGS.has(warning.code ?? '')) problems.push(`${warning.code ?? 'WARNING'}: ${warning.message}`);
    },
  });
  const { output } = await bundle.write({
    dir: `${root}dist`,
    // CommonJS, so the bin can compile each file with a code cache (0042); lazy imports become require() calls
    // made when they run, so what a call does not need is still never read.
    format: 'cjs',
    dynamicImportInCjs: false,
    entryFileNames: '[name].js',
    chunkFileNames: `${chunkDir}/[name]-[hash].js`,
    // The entry's import of the short path names the file the second bundle writes.
    paths: (id) => (id === SHORT_PATH ? './coupling-fast.js' : id),
  });
  await bundle.close();
  return output;
}

export async function buildDist(): Promise<void> {
  rmSync(`${root}dist`, { recursive: true, force: true });
  const problems: string[] = [];
  const builtin = (id: string): boolean => id.startsWith('node:');
  const main = await bundleInto(
    { cli: `${root}src/surfaces/cli/main.ts` },
    'chunks',
    (id) => builtin(id) || id === SHORT_PATH,
    problems,
  );
  const short = await bundleInto({ 'coupling-fast': SHORT_PATH }, 'coupling-fast', builtin, problems);
  if (problems.length > 0) throw new Error(`the bundle has problems:\n${problems.join('\n')}`);
  // package.json says "module" for the sources; dist/ holds CommonJS.
  writeFileSync(`${root}dist/package.json`, `${JSON.stringify({ type: 'commonjs' })}\n`);
  await build({
    entryPoints: [`${root}src/surfaces/cli/bin.cts`],
    outfile: `${root}dist/discern.js`,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minify: true,
    banner: { js: '#!/usr/bin/env node' },
    logLevel: 'silent',
  });
  chmodSync(`${root}dist/discern.js`, 0o755);
  // Only what the bundles hold: dist/licenses.json for `discern licenses`, dist/THIRD-PARTY-LICENSES for people.
  writeLicenses(`${root}dist`, bundledPackages([...main, ...short]));
  trainCodeCache(`${root}dist`);
}

await buildDist();
