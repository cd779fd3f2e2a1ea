/**
 * The layer rules of docs/architecture.md ("Layers"), checked on the import graph of src/: what
 * the lower modules may import (core nothing of the project, accounting and store only core, …),
 * and that no two modules (top folders under src/, src/exporters/pdf its own) or files import
 * each other, directly or round a longer loop. Type-only and dynamic imports count: they tie the
 * layers together just the same.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** What each of these modules may import besides itself; the modules above them are held only to "no cycle". */
const ONLY: Record<string, string[]> = {
  'src/core': [],
  'src/accounting': ['src/core'],
  'src/store': ['src/core'],
  'src/net': ['src/core'],
  'src/files': ['src/core'],
  'src/importers': ['src/core', 'src/store', 'src/accounting'],
  'src/exporters': ['src/core', 'src/store', 'src/accounting', 'src/net'],
  'src/exporters/pdf': ['src/core', 'src/store', 'src/accounting', 'src/net', 'src/exporters'],
  'src/sync': ['src/core', 'src/store', 'src/engine', 'src/importers'],
  'src/prices': ['src/core', 'src/store', 'src/engine', 'src/importers', 'src/sync'],
  'src/rules': ['src/core', 'src/store', 'src/engine', 'src/importers'],
  'src/checks': ['src/core', 'src/store', 'src/engine', 'src/accounting'],
  'src/local': ['src/core', 'src/store', 'src/engine', 'src/sync', 'src/prices', 'src/rules', 'src/checks', 'src/server', 'src/fixtures'],
};

/**
 * The seams of the CLI (src/cli/commands/index.ts): a command reaches the layers below only through
 * the Backend and the local services, whose types it may name (src/local/services.ts).
 */
const BELOW_COMMANDS = ['src/engine', 'src/sync', 'src/prices', 'src/rules', 'src/checks', 'src/store', 'src/server', 'src/local'];

type Graph = Map<string, Set<string>>;

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = posix.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** Each file of src/ and the files of src/ it imports (`./x.js` names `./x.ts`). */
function fileGraph(): Graph {
  const files = sourceFiles('src');
  const known = new Set(files);
  const graph: Graph = new Map();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true);
    const deps = importedFiles
      .map((i) => i.fileName)
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => posix.join(posix.dirname(file), spec.replace(/\.js$/, '.ts')))
      .filter((path) => known.has(path) && path !== file);
    graph.set(file, new Set(deps));
  }
  return graph;
}

function moduleOf(file: string): string {
  return file
    .split('/')
    .slice(0, file.startsWith('src/exporters/pdf/') ? 3 : 2)
    .join('/');
}

function moduleGraph(files: Graph): Graph {
  const graph: Graph = new Map();
  for (const [file, deps] of files) {
    const from = moduleOf(file);
    if (!graph.has(from)) graph.set(from, new Set());
    for (const dep of deps) if (moduleOf(dep) !== from) graph.get(from)!.add(moduleOf(dep));
  }
  return graph;
}

/** The strongly connected components with more than one node (Tarjan): each one a cycle. */
function cycles(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** A cycle as its imports, `a -> b`, for a failure message that says which lines to look at. */
function importsWithin(graph: Graph, cycle: string[]): string[] {
  return cycle.flatMap((node) => [...graph.get(node)!].filter((dep) => cycle.includes(dep)).map((dep) => `${node} -> ${dep}`));
}

const files = fileGraph();
const modules = moduleGraph(files);

describe('layers', () => {
  it('reads the import graph of src/', () => {
    expect(files.size).toBeGreaterThan(50);
    expect(files.get('src/engine/engine.ts')).toContain('src/store/db.ts');
    expect(modules.get('src/cli')).toContain('src/core');
    expect(Object.keys(ONLY).filter((m) => !modules.has(m))).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    const graph: Graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a', 'd'])],
      ['d', new Set()],
    ]);
    expect(cycles(graph)).toEqual([['a', 'b', 'c']]);
    expect(
      cycles(
        new Map([
          ['a', new Set(['b'])],
          ['b', new Set()],
        ]),
      ),
    ).toEqual([]);
  });

  for (const [module, allowed] of Object.entries(ONLY)) {
    it(`${module} imports ${allowed.length ? `only ${allowed.join(', ')}` : 'nothing of the project'}`, () => {
      const outside = [...files]
        .filter(([file]) => moduleOf(file) === module)
        .flatMap(([file, deps]) => [...deps].filter((d) => moduleOf(d) !== module && !allowed.includes(moduleOf(d))).map((d) => `${file} -> ${d}`));
      expect(outside).toEqual([]);
    });
  }

  it('commands import nothing below them but src/local/services.ts', () => {
    const crossing = [...files]
      .filter(([file]) => file.startsWith('src/cli/commands/'))
      .flatMap(([file, deps]) => [...deps].filter((d) => BELOW_COMMANDS.includes(moduleOf(d)) && d !== 'src/local/services.ts').map((d) => `${file} -> ${d}`));
    expect(crossing).toEqual([]);
  });

  it('no two modules import each other', () => {
    expect(cycles(modules).map((c) => importsWithin(modules, c))).toEqual([]);
  });

  it('no two files import each other', () => {
    expect(cycles(files).map((c) => importsWithin(files, c))).toEqual([]);
  });
});

/**
 * Every SQL statement is in src/store (docs/architecture.md, Layers): no `prepare(`, `pragma(` or
 * `exec(…)` of SQL text outside it. (A RegExp's `exec(text)` is not matched.)
 */
describe('SQL lives in src/store', () => {
  it('no statement is prepared or executed outside src/store', () => {
    const sql =
      /\.(prepare|pragma)\(|\.exec\(\s*(['"]|`\s*$|`\s*(CREATE|DROP|ALTER|INSERT|UPDATE|DELETE|SELECT|BEGIN|COMMIT|ROLLBACK|PRAGMA|SAVEPOINT|RELEASE|WITH|VACUUM|ANALYZE)\b)/i;
    const outside = sourceFiles('src')
      .filter((file) => !file.startsWith('src/store/'))
      .flatMap((file) =>
        readFileSync(join(ROOT, file), 'utf8')
          .split('\n')
          .flatMap((line, i) => (sql.test(line) && !/^\s*(\*|\/\/)/.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(outside).toEqual([]);
  });
});
