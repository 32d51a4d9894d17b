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
import userCodeCache = require('./user-code-cache.cjs');

const { readChecked, safeDirectory, userCacheRoot, writeChecked } = userCodeCache;

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
 * Where this process finds cached bytecode: the build's cache when this V8 is the one that made it (the build
 * itself writes it while training); and the user's own, keyed by this V8 and this build, for every file the build's
 * cache does not hold for this V8 — all of them on another Node line. Neither when the build left no record.
 */
const cache = chooseCaches();

function chooseCaches(): { build: boolean; user: string | undefined } {
  if (training) return { build: true, user: undefined };
  let made: { v8_tag?: unknown; build?: unknown };
  try {
    made = JSON.parse(fs.readFileSync(path.join(buildCache, 'build.json'), 'utf8')) as typeof made;
  } catch {
    // A build without its record: no cache is known to match it, so every file compiles from source.
    return { build: false, user: undefined };
  }
  const tag = String((require('node:v8') as typeof import('node:v8')).cachedDataVersionTag());
  const root = userCacheRoot(process.env);
  const user =
    root !== undefined && typeof made.build === 'string' && /^[0-9a-f]{16,64}$/.test(made.build)
      ? path.join(root, `${tag}-${made.build}`)
      : undefined;
  return { build: made.v8_tag === tag, user: user !== undefined && safeDirectory(user) ? user : undefined };
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
  const name = `${path.relative(__dirname, filename)}.bin`;
  let cachedData: Buffer | undefined;
  if (cache.build) {
    try {
      cachedData = fs.readFileSync(path.join(buildCache, name));
    } catch {
      cachedData = undefined;
    }
  }
  const fromUser = cachedData === undefined && cache.user !== undefined;
  if (fromUser && cache.user !== undefined) cachedData = readChecked(path.join(cache.user, name));
  const script = new vm.Script(wrap(fs.readFileSync(filename, 'utf8')), {
    filename,
    ...(cachedData ? { cachedData } : {}),
    ...dynamicImport,
  });
  if (training) compiled.push({ cacheFile: path.join(buildCache, name), script });
  else if (fromUser && cache.user !== undefined && (cachedData === undefined || script.cachedDataRejected))
    compiled.push({ cacheFile: path.join(cache.user, name), script });
  const wrapper = script.runInThisContext({ displayErrors: true }) as Wrapper;
  const dirname = path.dirname(filename);
  const requireFrom = (id: string): unknown => (id.startsWith('.') ? load(path.join(dirname, id)) : require(id));
  wrapper.call(module.exports, module.exports, requireFrom, module, filename, dirname);
}

// At exit the bytecode holds every function this run compiled, and those it was given from the cache. The build's
// calls run one after another, so each file's cache grows to what all of them used; a user's cache file is written
// once, by the first call that loads the file, whole or not at all (user-code-cache.cts).
process.on('exit', () => {
  for (const { cacheFile, script } of compiled) {
    if (!training) {
      // Never at the cost of the call: its answer is written and its exit status chosen already.
      try {
        if (cache.user !== undefined) writeChecked(cache.user, cacheFile, script.createCachedData());
      } catch {
        // No cache this time; the next call compiles again.
      }
      continue;
    }
    fs.mkdirSync(path.dirname(cacheFile), { recursive: true });
    const partial = `${cacheFile}.${process.pid}.tmp`;
    fs.writeFileSync(partial, script.createCachedData());
    fs.renameSync(partial, cacheFile);
  }
});

load(path.join(__dirname, 'cli.js'));
