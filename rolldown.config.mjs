/**
 * Bundles the CLI out of tsc's output (dist/) into dist/bundle/, which bin/txa loads while it is
 * up to date: a few files per command instead of ~40 project modules plus commander's 8 to
 * resolve and compile, about 20 ms less on every command (bench/RESULTS.md, "Session 2").
 *
 * - Only commander is bundled. Every other package stays external and loads from node_modules
 *   as without the bundle (the native and heavy ones, and zod, which fastify's type provider
 *   must share).
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

/** CommonJS packages loaded with `require`, which skips ESM's CommonJS translation (~3 ms). */
const REQUIRED_PACKAGES = new Set(['better-sqlite3']);
const REQUIRE_PREFIX = '\0require:';

const packageOf = (id) => id.split('/').slice(0, id.startsWith('@') ? 2 : 1).join('/');
const isBare = (id) => !/^(\.|\/|\0|[a-zA-Z]:)/.test(id);

function external(id) {
  if (id.startsWith('node:')) return true;
  return isBare(id) && !BUNDLED_PACKAGES.has(packageOf(id)) && !REQUIRED_PACKAGES.has(id);
}

/** `import X from 'pkg'` becomes `X = createRequire(import.meta.url)('pkg')`, the same value. */
function requirePackages() {
  return {
    name: 'txa:require-packages',
    resolveId: (id) => (REQUIRED_PACKAGES.has(id) ? REQUIRE_PREFIX + id : null),
    load: (id) =>
      id.startsWith(REQUIRE_PREFIX)
        ? `import { createRequire } from 'node:module';\nexport default createRequire(import.meta.url)(${JSON.stringify(id.slice(REQUIRE_PREFIX.length))});\n`
        : null,
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
  plugins: [requirePackages(), moduleUrls(), publishSafely()],
  onLog(level, log, handler) {
    handler(level === 'warn' ? 'error' : level, log);
  },
  output: {
    dir: BUNDLE_DIR,
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: '[name]-[hash].js',
    codeSplitting: {
      groups: [
        { name: 'version', test: /[\\/]dist[\\/]cli[\\/]version\.js$/, priority: 3 },
        { name: 'cli', test: /[\\/]dist[\\/]cli[\\/](?!main\.)[^\\/]+\.js$/, priority: 2 },
        { name: 'local', test: /[\\/]dist[\\/]engine[\\/]local-backend\.js$/, priority: 1 },
      ],
    },
  },
});
