// The `discern` executable, dist/discern.js. It loads the CLI (dist/cli.js and the chunks it requires) through
// V8's code cache: the bytecode V8 compiled for each bundle file, kept beside it. Compiling the CLI's modules from
// source was the largest single cost of a short call after Node's own start (docs/decisions/0042). The cache
// comes from one of two places (0056): the build's, in dist/code-cache/, made by running discern on a few
// representative calls, for a Node with the build's V8; or, for any other Node, the user's own, which the first
// call that loads a file writes under the user's cache directory. A cache V8 does not accept (another Node, other
// V8 flags, a damaged file) is ignored, and the file compiles from source as it would anyway. Nothing is ever
// written into dist/ unless the build asks for it with DISCERN_CODE_CACHE_WRITE=1.
//
// CommonJS on purpose: Node 20 has no code cache for ES modules, but a CommonJS module's source can be compiled
// with vm.Script, which takes and produces cached data.
import fs = require('node:fs');
import nodeModule = require('node:module');
import path = require('node:path');
import vm = require('node:vm');

interface BundleModule {
  exports: unknown;
}
type Wrapper = (
  this: unknown,
  exports: unknown,
  require: (id: string) => unknown,
  module: BundleModule,
  filename: string,
  dirname: string,
) => unknown;

const buildCache = path.join(__dirname, 'code-cache');
const training = process.env['DISCERN_CODE_CACHE_WRITE'] === '1';

/**
 * Where this process reads cached bytecode, and whether it writes what is missing: the build's cache when this V8
 * is the one that made it (or the build itself is training it); otherwise the user's, keyed by this V8 and this
 * build, filled as files are first loaded.
 */
const cache = chooseCache();

function chooseCache(): { dir: string; write: 'all' | 'missing' | 'none' } {
  if (training) return { dir: buildCache, write: 'all' };
  let made: { v8_tag?: unknown; build?: unknown } = {};
  try {
    made = JSON.parse(fs.readFileSync(path.join(buildCache, 'build.json'), 'utf8')) as typeof made;
  } catch {
    // A build without its record: no cache is trusted to match it, so every file compiles from source.
    return { dir: buildCache, write: 'none' };
  }
  const tag = String((require('node:v8') as typeof import('node:v8')).cachedDataVersionTag());
  if (made.v8_tag === tag) return { dir: buildCache, write: 'none' };
  const root = userCacheRoot();
  if (root === undefined || typeof made.build !== 'string' || !/^[0-9a-f]{16,64}$/.test(made.build))
    return { dir: buildCache, write: 'none' };
  return { dir: path.join(root, `${tag}-${made.build}`), write: 'missing' };
}

/** DISCERN_CODE_CACHE, else discern/code-cache under the user's cache directory (XDG on every platform). */
function userCacheRoot(): string | undefined {
  const named = process.env['DISCERN_CODE_CACHE'];
  if (named !== undefined && path.isAbsolute(named)) return named;
  const xdg = process.env['XDG_CACHE_HOME'];
  if (xdg !== undefined && path.isAbsolute(xdg)) return path.join(xdg, 'discern', 'code-cache');
  const home = process.env['HOME'] ?? process.env['USERPROFILE'];
  if (home !== undefined && path.isAbsolute(home)) return path.join(home, '.cache', 'discern', 'code-cache');
  return undefined;
}

const compiled: { cacheFile: string; script: vm.Script }[] = [];

// The bundle turns its lazy imports into require(); this keeps a stray import() working all the same where Node
// offers it (20.12 and later).
const mainContextLoader = (vm.constants as typeof vm.constants | undefined)?.USE_MAIN_CONTEXT_DEFAULT_LOADER;
const dynamicImport = mainContextLoader === undefined ? {} : { importModuleDynamically: mainContextLoader };
const wrap = (nodeModule as unknown as { wrap(source: string): string }).wrap;

/**
 * The bundle's own module registry. Its files require each other only by literal relative paths and Node's
 * builtins by name (Rollup writes it so), so a file's path is a join, with none of the lookups Node's loader
 * makes for every module (node_modules paths, package scopes, real paths): those cost about as much as
 * compiling from the cache. Cycles behave as in CommonJS: a file required while it loads gives its exports so far.
 */
const loaded = new Map<string, BundleModule>();

function load(filename: string): unknown {
  const known = loaded.get(filename);
  if (known !== undefined) return known.exports;
  const module: BundleModule = { exports: {} };
  loaded.set(filename, module);
  try {
    evaluate(module, filename);
  } catch (error) {
    // As Node's loader does: a file that failed to load is forgotten, so the next require tries again and
    // fails with the real error, rather than handing out the half-made exports.
    loaded.delete(filename);
    throw error;
  }
  return module.exports;
}

function evaluate(module: BundleModule, filename: string): void {
  const cacheFile = path.join(cache.dir, `${path.relative(__dirname, filename)}.bin`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(wrap(fs.readFileSync(filename, 'utf8')), {
    filename,
    ...(cachedData ? { cachedData } : {}),
    ...dynamicImport,
  });
  if (cache.write === 'all' || (cache.write === 'missing' && (cachedData === undefined || script.cachedDataRejected)))
    compiled.push({ cacheFile, script });
  const wrapper = script.runInThisContext({ displayErrors: true }) as Wrapper;
  const dirname = path.dirname(filename);
  const requireFrom = (id: string): unknown => (id.startsWith('.') ? load(path.join(dirname, id)) : require(id));
  wrapper.call(module.exports, module.exports, requireFrom, module, filename, dirname);
}

// At exit the bytecode holds every function this run compiled, and those it was given from the cache. The build's
// calls run one after another, so each file's cache grows to what all of them used; a user's cache is written
// once per file, by the first call that loads it. Written whole or not at all; a cache that cannot be written
// (a read-only home, a full disk) only means the next call compiles again.
process.on('exit', () => {
  for (const { cacheFile, script } of compiled) {
    const partial = `${cacheFile}.${process.pid}.tmp`;
    try {
      fs.mkdirSync(path.dirname(cacheFile), { recursive: true, mode: 0o700 });
      fs.writeFileSync(partial, script.createCachedData(), { mode: 0o600 });
      fs.renameSync(partial, cacheFile);
    } catch (error) {
      if (training) throw error;
      try {
        fs.rmSync(partial, { force: true });
      } catch {
        // Nothing was left behind to remove.
      }
    }
  }
});

load(path.join(__dirname, 'cli.js'));
