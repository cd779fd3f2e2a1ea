/**
 * Bundles the CLI out of tsc's output (dist/) into dist/bundle/, which bin/txa loads while it is
 * up to date: a few files per command instead of ~40 project modules plus commander's 8 to
 * resolve and compile (bench/RESULTS.md, "Session 2" and "Session 5: start-up").
 *
 * - CommonJS: `require` skips the ESM loader (resolve, link, a facade per builtin), about 30 ms
 *   of every command. Packages that only ship ESM (conf, ora, @inquirer/prompts) are loaded with
 *   `import()` where they are used, which CommonJS has too.
 * - Only commander is bundled. Every other package stays external and loads from node_modules
 *   as without the bundle (the native and heavy ones, and zod, which fastify's type provider
 *   must share: both take their CommonJS build).
 * - Each bundled module keeps its own `import.meta.url` (its file under dist/), so relative URLs
 *   (package.json, fixtures/, a worker file beside the module) resolve as without the bundle;
 *   worker threads run tsc's modules.
 * - Chunks follow the lazy imports: the entry (enough for `--version`), the CLI with commander,
 *   the local backend (when a ledger is opened), and one chunk per command noun or lazy module.
 * - A warning (an unresolved import, say) fails the build rather than leave a broken bundle.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'rolldown';

const BUNDLE_DIR = fileURLToPath(new URL('./dist/bundle/', import.meta.url));
const BUNDLED_PACKAGES = new Set(['commander']);

const packageOf = (id) =>
  id
    .split('/')
    .slice(0, id.startsWith('@') ? 2 : 1)
    .join('/');
const isBare = (id) => !/^(\.|\/|\0|[a-zA-Z]:)/.test(id);

function external(id) {
  if (id.startsWith('node:')) return true;
  if (id === LOADER) return false;
  return isBare(id) && !BUNDLED_PACKAGES.has(packageOf(id));
}

/**
 * commander requires node:child_process (and with it net and dgram, ≈ 3 ms) only to spawn
 * executable subcommands, which txa has none of: it loads on the first spawn instead.
 */
function lazyChildProcess() {
  const eager = "const childProcess = require('node:child_process');";
  return {
    name: 'txa:lazy-child-process',
    transform(code, id) {
      if (!/[\\/]commander[\\/]lib[\\/]command\.js$/.test(id)) return null;
      if (!code.includes(eager)) this.error(`${id}: commander no longer requires node:child_process as expected; update lazyChildProcess()`);
      const lazy = "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };";
      return { code: code.replace(eager, lazy), map: null };
    },
  };
}

/**
 * `import('pkg')` of a package (conf, ora and @inquirer/prompts ship only ESM) becomes
 * `importPackage('pkg')` of bin/bundle-loader.cjs. The loader compiles the chunks with a V8 code
 * cache, and on Node 20 such code cannot run `import()` (no host callback survives the cache);
 * code Node compiled itself can. `import('./x.js')` of the project's own modules is left to the
 * bundler, which makes it a `require` of the chunk.
 */
const LOADER = 'txa:bundle-loader';
const LOADER_FILE = fileURLToPath(new URL('./bin/bundle-loader.cjs', import.meta.url));

function packageImports() {
  return {
    name: 'txa:package-imports',
    resolveId: (id) => (id === LOADER ? { id: LOADER_FILE, external: 'relative' } : null),
    transform(code, id) {
      if (id.startsWith('\0') || id.includes(`${sep}node_modules${sep}`)) return null;
      const out = code.replace(/\bimport\((['"])([^'"./][^'"]*)\1\)/g, (_, quote, specifier) => `importPackage(${quote}${specifier}${quote})`);
      return out === code ? null : { code: `import { importPackage } from '${LOADER}';\n${out}`, map: null };
    },
  };
}

/** `import.meta.url` in a project module → the URL of its file under dist/, from the bundle's. */
function moduleUrls() {
  return {
    name: 'txa:module-urls',
    transform(code, id) {
      if (id.startsWith('\0') || id.includes(`${sep}node_modules${sep}`) || !code.includes('import.meta')) return null;
      if (/import\.meta(?!\.url\b)/.test(code)) this.error(`${id}: only import.meta.url can be kept per module in the bundle`);
      const own = JSON.stringify(relative(BUNDLE_DIR, id).split(sep).join('/'));
      return { code: code.replaceAll('import.meta.url', `new URL(${own}, import.meta.url).href`), map: null };
    },
  };
}

/**
 * Other txa processes may run from dist/bundle/ while it is rebuilt, so files are published
 * whole (written aside, then renamed), chunks already there with the same content are left
 * alone, and the entry, which bin/txa checks, comes last: it never names a chunk not yet there.
 * Files of earlier builds go once they are an hour old, when no command still loading is using them.
 */
const OLD_FILE_MS = 60 * 60 * 1000;

function publishSafely() {
  return {
    name: 'txa:publish-safely',
    generateBundle(options, bundle) {
      const files = Object.values(bundle).sort((a, b) => Number(Boolean(a.isEntry)) - Number(Boolean(b.isEntry)));
      mkdirSync(options.dir, { recursive: true });
      for (const file of files) {
        delete bundle[file.fileName];
        const path = join(options.dir, file.fileName);
        const text = file.type === 'chunk' ? file.code : file.source;
        if (!file.isEntry && existsSync(path) && readFileSync(path, 'utf8') === text) continue;
        writeFileSync(`${path}.${process.pid}.tmp`, text);
        renameSync(`${path}.${process.pid}.tmp`, path);
      }
      const current = new Set(files.map((file) => file.fileName));
      for (const name of readdirSync(options.dir)) {
        const path = join(options.dir, name);
        if (!current.has(name) && Date.now() - statSync(path).mtimeMs > OLD_FILE_MS) rmSync(path, { force: true });
      }
    },
  };
}

export default defineConfig({
  input: { txa: 'dist/cli/main.js' },
  platform: 'node',
  external,
  plugins: [lazyChildProcess(), packageImports(), moduleUrls(), publishSafely()],
  onLog(level, log, handler) {
    handler(level === 'warn' ? 'error' : level, log);
  },
  output: {
    dir: BUNDLE_DIR,
    format: 'cjs',
    entryFileNames: '[name].cjs',
    chunkFileNames: '[name]-[hash].cjs',
    codeSplitting: {
      groups: [
        { name: 'version', test: /[\\/]dist[\\/]cli[\\/]version\.js$/, priority: 3 },
        // Every command loads this chunk, so it leaves out completion.js, which `txa completion` alone
        // imports: its value sets would bring zod (export-schema) and the engine's modules along.
        { name: 'cli', test: /[\\/]dist[\\/]cli[\\/](?!main\.|completion\.)[^\\/]+\.js$/, priority: 2 },
        { name: 'local', test: /[\\/]dist[\\/]engine[\\/]local-backend\.js$/, priority: 1 },
      ],
    },
  },
});
