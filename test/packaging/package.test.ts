// The published package, as a user gets it (docs/decisions/0040): `npm pack` from the built checkout, the tarball
// installed into an empty directory that cannot see the repository, and then the bin (`npx discern --version`,
// `discern mcp` with the SDK's client and a real tool call), the types and the schemas through `exports` — under
// tsc with nodenext and bundler resolution, with a deliberately wrong consumer that must fail — and node
// importing a schema through `exports` with import attributes. Needs dist/: `npm test` builds first.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { REPO_ROOT } from '../helpers/cli.js';
import { npmEnv } from '../helpers/npm-env.js';
import { cleanEnv, scratchRepo, tempDir } from '../helpers/scratch-repo.js';

const tsc = createRequire(join(REPO_ROOT, 'package.json')).resolve('typescript/bin/tsc');
const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };

interface PackedFile {
  path: string;
  size: number;
}
interface Packed {
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: PackedFile[];
}

function run(command: string, args: readonly string[], cwd: string): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd, env: npmEnv(), encoding: 'utf8', timeout: 90_000 });
}

function ok(result: SpawnSyncReturns<string>, what: string): string {
  assert.equal(
    result.status,
    0,
    `${what} failed (${String(result.error ?? result.signal ?? result.status)}):\n${result.stdout}${result.stderr}`,
  );
  return result.stdout;
}

let work: string;
let consumer: string;
let packed: Packed;
let installMs = 0;

before(() => {
  assert.ok(
    existsSync(join(REPO_ROOT, 'dist/discern.js')),
    'dist/ is missing: run `npm run build` (npm test builds first)',
  );
  work = tempDir('discern-pack-');
  // --ignore-scripts: `prepack` would rebuild dist/; this test packs the build that is there (the README's own
  // install, below, runs it).
  const out = ok(run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], REPO_ROOT), 'npm pack');
  packed = (JSON.parse(out) as Packed[])[0] as Packed;
  consumer = join(work, 'consumer');
  // An empty project of its own in the temp dir: nothing of the repository (no node_modules) is reachable from it.
  ok(run('mkdir', ['-p', consumer], work), 'mkdir');
  writeFileSync(join(consumer, 'package.json'), '{ "name": "discern-consumer", "private": true, "type": "module" }\n');
  const started = performance.now();
  // Installed as users install it, scripts included: nothing of the package's runs at install.
  // --prefer-offline: the package has no dependencies, so nothing is fetched; the flag keeps it so if one is added.
  ok(
    run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(work, packed.filename)], consumer),
    'npm install <tarball>',
  );
  installMs = performance.now() - started;
});

describe('npm pack', () => {
  it('holds dist/, schema/, types/ and the manual, and nothing a user does not need', (t) => {
    t.diagnostic(
      `tarball ${(packed.size / 1024).toFixed(0)} KiB, unpacked ${(packed.unpackedSize / 1024).toFixed(0)} KiB, ${packed.entryCount} files; install ${installMs.toFixed(0)} ms`,
    );
    const paths = packed.files.map((f) => f.path);
    const top: Record<string, number> = {};
    for (const f of packed.files) top[f.path.split('/')[0] ?? ''] = (top[f.path.split('/')[0] ?? ''] ?? 0) + f.size;
    t.diagnostic(`bytes by top-level entry: ${JSON.stringify(top)}`);
    for (const required of [
      'package.json',
      'README.md',
      'LICENSE',
      'dist/discern.js',
      'dist/licenses.json',
      'dist/THIRD-PARTY-LICENSES',
      'types/discern-json.d.ts',
      'docs/00-start/overview.md',
    ]) {
      assert.ok(paths.includes(required), `${required} is in the package`);
    }
    for (const schema of readdirSync(join(REPO_ROOT, 'schema')))
      assert.ok(paths.includes(`schema/${schema}`), `schema/${schema} is in the package`);
    assert.ok(
      paths.some((p) => p.startsWith('dist/chunks/')),
      'the lazily loaded chunks are in the package',
    );
    for (const p of paths) {
      assert.doesNotMatch(
        p,
        /^(test|src|spec|codegen|generated|build|bench|demo|node_modules|\.ci)\//,
        `${p}: not for users`,
      );
      assert.doesNotMatch(p, /^docs\/decisions\//, `${p}: the decision records stay in the repository`);
      assert.doesNotMatch(p, /\.map$/, `${p}: no source maps (dist/ is built without them)`);
      assert.ok(!p.endsWith('.ts') || p.endsWith('.d.ts'), `${p}: no TypeScript sources`);
      assert.match(
        p,
        /^(package\.json|README\.md|LICENSE|dist\/|schema\/|types\/|docs\/)/,
        `${p}: only the listed folders`,
      );
    }
  });

  it('installs on its own: no dependency comes with it, and nothing runs at install', () => {
    const installed = readdirSync(join(consumer, 'node_modules')).filter((n) => !n.startsWith('.'));
    assert.deepEqual(
      installed,
      ['discern-cli'],
      'dist/ bundles everything it runs; a runtime dependency would be a deliberate change (0040)',
    );
    assert.ok(!existsSync(join(consumer, 'node_modules/discern-cli/node_modules')));
  });
});

describe('the installed bin', () => {
  it('npx discern --version prints the package version', () => {
    const out = ok(run('npx', ['--no', '--', 'discern', '--version'], consumer), 'npx discern --version');
    assert.equal(out.trim(), `discern ${manifest.version}`);
  });

  let client: Client | undefined;
  after(async () => {
    await client?.close();
  });

  it('discern mcp answers initialize, tools/list and a tool call in a scratch repository', async () => {
    const repo = scratchRepo();
    const transport = new StdioClientTransport({
      command: join(consumer, 'node_modules/.bin/discern'),
      args: ['mcp'],
      cwd: repo.root,
      env: cleanEnv(),
      stderr: 'pipe',
    });
    client = new Client({ name: 'discern-package-test', version: '0.0.0' });
    await client.connect(transport);
    assert.equal(client.getServerVersion()?.version, manifest.version);
    const { tools } = await client.listTools();
    for (const name of ['discern_docs', 'discern_doctor', 'discern_done', 'discern_status'])
      assert.ok(
        tools.some((tool) => tool.name === name),
        name,
      );
    const result = (await client.callTool({ name: 'discern_docs', arguments: { search: 'proof' } })) as {
      structuredContent?: Record<string, unknown>;
      isError?: boolean;
    };
    assert.equal(result.isError ?? false, false, JSON.stringify(result));
    assert.equal(result.structuredContent?.['ok'], true);
    assert.equal(result.structuredContent?.['verb'], 'docs');
  });
});

describe('exports', () => {
  // A consumer of the types and a schema, through the package name only. The @ts-expect-error lines fail the
  // compile if the types resolve to nothing (any) or stop narrowing.
  const CONSUMER = `import type { DiscernDocsResult, DiscernResult } from 'discern-cli';
import type { DiscernStep } from 'discern-cli/types/discern-json.js';
import results from 'discern-cli/schema/discern-results.schema.json' with { type: 'json' };

export const id: string = results.$id;
export function describe(r: DiscernResult): string {
  return r.ok ? r.verb : \`\${r.verb} \${r.error}: \${r.hints[0]}\`;
}
export const docs: DiscernDocsResult = { ok: true, verb: 'docs' };
// @ts-expect-error ok: true forbids error
export const okWithError: DiscernDocsResult = { ok: true, verb: 'docs', error: 'internal_error' };
// @ts-expect-error the step outcome vocabulary is closed
export const step: DiscernStep = { kind: 'job', label: 'x', disposition: 'run', outcome: 'done' };
`;
  const TYPES_ONLY = CONSUMER.split('\n')
    .filter((line) => !line.includes('results'))
    .join('\n');
  const WRONG = `import type { DiscernDocsResult } from 'discern-cli';
export const wrongVerb: DiscernDocsResult = { ok: true, verb: 'doctor' };
export { main } from 'discern-cli/dist/discern.js';
`;

  function compile(
    name: string,
    options: Record<string, unknown>,
    file: string,
    text: string,
    others: string[] = [],
  ): SpawnSyncReturns<string> {
    writeFileSync(join(consumer, file), text);
    const config = {
      compilerOptions: { strict: true, noEmit: true, target: 'ES2022', types: [], ...options },
      files: [...others, file],
    };
    writeFileSync(join(consumer, `tsconfig.${name}.json`), JSON.stringify(config, null, 2));
    return spawnSync(process.execPath, [tsc, '-p', `tsconfig.${name}.json`], {
      cwd: consumer,
      encoding: 'utf8',
      timeout: 90_000,
    });
  }

  // One compile for both files (tsc parses the 200 KB declaration file once): consumer.ts must be clean (its
  // expected-error directives each needed) and wrong.ts must fail, with exactly the errors it was written to cause.
  it('types and a JSON schema resolve for tsc under nodenext; a wrong use and an unlisted path fail', () => {
    writeFileSync(join(consumer, 'consumer.ts'), CONSUMER);
    const result = compile(
      'nodenext',
      { module: 'NodeNext', moduleResolution: 'NodeNext', resolveJsonModule: true },
      'wrong.ts',
      WRONG,
      ['consumer.ts'],
    );
    const output = `${result.stdout}${result.stderr}`;
    assert.notEqual(result.status, 0, output);
    const errors = output.split('\n').filter((line) => /error TS\d+/.test(line));
    assert.deepEqual(
      errors.map((line) => /^(\S+?)\((\d+),\d+\): error (TS\d+)/.exec(line)?.slice(1).join(' ')),
      ['wrong.ts 2 TS2322', 'wrong.ts 3 TS2307'],
      `only wrong.ts fails: the verb is fixed per result type, and dist/ is not exported\n${output}`,
    );
  });
  it('the types resolve under bundler resolution too', () => {
    ok(
      compile('bundler', { module: 'Preserve', moduleResolution: 'Bundler' }, 'types-only.ts', TYPES_ONLY),
      'tsc (bundler)',
    );
  });

  it('node imports a schema with import attributes, and nothing that exports does not list', () => {
    const script = `
const schema = (await import('discern-cli/schema/discern-results.schema.json', { with: { type: 'json' } })).default;
const code = async (s) => { try { await import(s); return 'imported'; } catch (e) { return e.code; } };
console.log(JSON.stringify({ id: schema.$id, manifest: (await import('discern-cli/package.json', { with: { type: 'json' } })).default.version, root: await code('discern-cli'), deep: await code('discern-cli/dist/discern.js') }));`;
    const result = spawnSync(process.execPath, ['--no-warnings', '--input-type=module', '-e', script], {
      cwd: consumer,
      encoding: 'utf8',
    });
    const out = ok(result, 'node import');
    const published = JSON.parse(readFileSync(join(REPO_ROOT, 'schema/discern-results.schema.json'), 'utf8')) as {
      $id: string;
    };
    assert.deepEqual(JSON.parse(out), {
      id: published.$id,
      manifest: manifest.version,
      root: 'ERR_PACKAGE_PATH_NOT_EXPORTED',
      deep: 'ERR_PACKAGE_PATH_NOT_EXPORTED',
    });
  });
});
