// The `discern` executable, dist/discern.js. It loads the CLI (dist/cli.js and the chunks it requires) through
// V8's code cache: the build ran discern on a few representative calls and stored, beside each bundle file, the
// bytecode V8 compiled for it (dist/code-cache/). Compiling the CLI's modules from source was the largest single
// cost of a short call after Node's own start (docs/decisions/0042). A cache V8 does not accept (another Node,
// other V8 flags, a file that changed) is ignored and the file compiles from source as it would anyway; nothing
// here writes a file unless the build asks for it with DISCERN_CODE_CACHE_WRITE=1.
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

const cacheDir = path.join(__dirname, 'code-cache');
const training = process.env['DISCERN_CODE_CACHE_WRITE'] === '1';
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
  const cacheFile = path.join(cacheDir, `${path.relative(__dirname, filename)}.bin`);
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
  if (training) compiled.push({ cacheFile, script });
  const wrapper = script.runInThisContext({ displayErrors: true }) as Wrapper;
  const dirname = path.dirname(filename);
  const requireFrom = (id: string): unknown => (id.startsWith('.') ? load(path.join(dirname, id)) : require(id));
  wrapper.call(module.exports, module.exports, requireFrom, module, filename, dirname);
}

if (training) {
  // At exit the bytecode holds every function this run compiled, and those it was given from the cache: the
  // build's calls run one after another, so each file's cache grows to what all of them used.
  process.on('exit', () => {
    for (const { cacheFile, script } of compiled) {
      fs.mkdirSync(path.dirname(cacheFile), { recursive: true });
      const partial = `${cacheFile}.${process.pid}.tmp`;
      fs.writeFileSync(partial, script.createCachedData());
      fs.renameSync(partial, cacheFile);
    }
  });
}

/**
 * Which loader: the build's cache is V8's bytecode for one V8 version and set of flags, recorded as its tag in
 * code-cache/v8-tag. With that V8 (the Node line the build ran on), the registry above loads through it. Any
 * other Node would refuse it and compile every file from source on every call: one that has Node's own
 * compile cache (`module.enableCompileCache`, 22.8 and later) loads the bundle through Node's loader with that
 * cache turned on, which keeps the bytecode per Node outside dist/ (NODE_COMPILE_CACHE, else the system's
 * temporary directory), so only the first call compiles
 * (docs/decisions/0055). A Node with neither compiles from source through the registry.
 */
function buildCacheFits(): boolean {
  try {
    const tag = fs.readFileSync(path.join(cacheDir, 'v8-tag'), 'utf8').trim();
    return tag === String((require('node:v8') as typeof import('node:v8')).cachedDataVersionTag());
  } catch {
    return false;
  }
}

const enableCompileCache = (nodeModule as { enableCompileCache?: (dir?: string) => unknown }).enableCompileCache;
if (!training && enableCompileCache !== undefined && !buildCacheFits()) {
  enableCompileCache();
  require(path.join(__dirname, 'cli.js'));
} else {
  load(path.join(__dirname, 'cli.js'));
}
