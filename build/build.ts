// Builds dist/: one ESM entry (dist/discern.js, the `discern` bin) with code splitting, so each lazy import
// becomes its own chunk — `--version` parses only the entry, the CLI path never loads the MCP SDK, and only
// `discern mcp` does. npm install runs this through `prepare`.
import { chmodSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

export async function buildDist(): Promise<void> {
  rmSync(`${root}dist`, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: { discern: 'src/surfaces/cli/main.ts' },
    outdir: 'dist',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    chunkNames: 'chunks/[name]-[hash]',
    minify: true,
    legalComments: 'linked',
    sourcemap: false,
    logLevel: 'warning',
    // No bundled CommonJS dependency requires a Node built-in at run time, so chunks need no createRequire
    // shim (it cost a fraction of a millisecond per chunk on every start); esbuild would otherwise leave a
    // "Dynamic require" shim behind, which test/cli checks the bundle never contains.
    banner: { js: '#!/usr/bin/env node' },
  });
  chmodSync(`${root}dist/discern.js`, 0o755);
}

await buildDist();
