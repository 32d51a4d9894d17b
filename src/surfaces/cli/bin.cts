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

interface LoadingModule {
  exports: unknown;
  require(id: string): unknown;
}
type Compile = (this: LoadingModule, content: string, filename: string) => unknown;
type Wrapper = (this: unknown, exports: unknown, require: unknown, module: LoadingModule, filename: string, dirname: string) => unknown;

const bundleDir = __dirname + path.sep;
const cacheDir = path.join(__dirname, 'code-cache');
const training = process.env['DISCERN_CODE_CACHE_WRITE'] === '1';
const compiled: { cacheFile: string; script: vm.Script }[] = [];

// The bundle turns its lazy imports into require(); this keeps a stray import() working all the same where Node
// offers it (20.12 and later).
const mainContextLoader = (vm.constants as typeof vm.constants | undefined)?.USE_MAIN_CONTEXT_DEFAULT_LOADER;
const dynamicImport = mainContextLoader === undefined ? {} : { importModuleDynamically: mainContextLoader };

const loader = nodeModule as unknown as { prototype: { _compile: Compile }; wrap(source: string): string };
const compileFromSource = loader.prototype._compile;

loader.prototype._compile = function compileWithCache(this: LoadingModule, content: string, filename: string): unknown {
  // Only the bundle's own files: anything else (a preload, a user's --require) compiles as Node would.
  if (!filename.startsWith(bundleDir)) return compileFromSource.call(this, content, filename);
  const cacheFile = path.join(cacheDir, `${path.relative(__dirname, filename)}.bin`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(loader.wrap(content), { filename, ...(cachedData ? { cachedData } : {}), ...dynamicImport });
  if (training) compiled.push({ cacheFile, script });
  const wrapper = script.runInThisContext({ displayErrors: true }) as Wrapper;
  const module = this;
  const require = (id: string): unknown => module.require(id);
  return wrapper.call(module.exports, module.exports, require, module, filename, path.dirname(filename));
};

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

require(path.join(__dirname, 'cli.js'));
