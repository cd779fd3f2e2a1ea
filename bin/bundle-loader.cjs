/**
 * Loads the CommonJS bundle (dist/bundle/) with a V8 code cache, so a command does not compile
 * the same chunks again on every start (about 15 ms of `txa tx list`, bench/RESULTS.md). Node
 * ≥ 22.1 does this itself (module.enableCompileCache); Node 20 does not, so here the chunks load
 * through a small module table of their own: a chunk's `require('./x.cjs')` of a sibling chunk
 * comes back here, anything else (packages, builtins) goes to Node's require.
 *
 * The cache is one file per chunk in $XDG_CACHE_HOME/txa/code-cache (~/.cache/txa/code-cache),
 * named after the chunk's path, size and mtime, so a rebuilt chunk never meets the cache of its
 * old text; V8 itself rejects a cache of another Node version or other flags. A chunk without a
 * usable cache is compiled as usual and its cache written at exit, with every function the
 * command compiled. Failing to read or write the cache only costs the compile it would have saved.
 * NODE_DISABLE_COMPILE_CACHE=1 turns it off, as on Node 22.
 */
'use strict';
const { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const { homedir } = require('node:os');
const { basename, dirname, isAbsolute, join } = require('node:path');
const vm = require('node:vm');

/** Cache files untouched this long (caches of old builds) go when a new one is written. */
const OLD_CACHE_MS = 7 * 24 * 60 * 60 * 1000;

function cacheDir() {
  const xdg = process.env.XDG_CACHE_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.cache'), 'txa', 'code-cache');
}

/** FNV-1a of the chunk's folder, so two checkouts' chunks of one name keep apart. */
function fnv1a(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16);
}

function cacheName(file, stat) {
  return `${fnv1a(dirname(file))}-${basename(file)}-${stat.size}-${Math.trunc(stat.mtimeMs)}-${process.versions.v8}.v8`;
}

function createLoader(dir) {
  const modules = new Map();
  const toWrite = [];

  function load(file) {
    const loaded = modules.get(file);
    if (loaded) return loaded.exports;
    const module = { exports: {}, filename: file };
    modules.set(file, module);
    const source = readFileSync(file, 'utf8');
    const cacheFile = join(dir, cacheName(file, statSync(file)));
    let cachedData;
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      cachedData = undefined;
    }
    const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
      filename: file,
      cachedData,
      importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    });
    if (cachedData === undefined || script.cachedDataRejected) toWrite.push({ script, cacheFile });
    // Builtins need no resolution; a require function of Node's for this file only for packages.
    let nodeRequire;
    const chunkRequire = (id) => {
      if (id.startsWith('./') && id.endsWith('.cjs')) return load(join(dirname(file), id));
      if (id.startsWith('node:')) return process.getBuiltinModule(id);
      nodeRequire ??= Module.createRequire(file);
      return nodeRequire(id);
    };
    script.runInThisContext()(module.exports, chunkRequire, module, file, dirname(file));
    return module.exports;
  }

  function writeCaches() {
    if (toWrite.length === 0) return;
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (Date.now() - statSync(path).mtimeMs > OLD_CACHE_MS) unlinkSync(path);
      }
      for (const { script, cacheFile } of toWrite) {
        // Written aside and renamed: a txa starting meanwhile reads a whole cache or none.
        const tmp = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
        renameSync(tmp, cacheFile);
      }
    } catch {
      // A read-only or full disk: the next start compiles again.
    }
  }

  return { load, writeCaches };
}

/** The bundle's entry module (its exports), loaded with the code cache where it applies. */
function loadBundle(entry) {
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return require(entry);
  if (typeof Module.enableCompileCache === 'function') {
    Module.enableCompileCache();
    return require(entry);
  }
  const loader = createLoader(cacheDir());
  process.once('exit', loader.writeCaches);
  return loader.load(entry);
}

/** `import()` for the bundle's chunks (see rolldown.config.mjs, packageImports): packages only. */
const importPackage = (specifier) => import(specifier);

module.exports = { loadBundle, importPackage };
