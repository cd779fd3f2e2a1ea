/**
 * docs/index.md is how a clone finds its way: every command of `txa --help` and every environment
 * variable the code reads must be named there, and every page it links must exist. A command or
 * variable added without a line there, or a page renamed, fails here rather than going unnoticed.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/program.js';

const ROOT = join(import.meta.dirname, '../..');
const INDEX = readFileSync(join(ROOT, 'docs/index.md'), 'utf8');
const LINES = INDEX.split('\n');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? sources(path) : e.name.endsWith('.ts') ? [path] : [];
  });
}

/** Variable names the code reads: `process.env.X`, `env.X`, and `'TXA_…'` names handed to a reader (a prefix keeps its `_`). */
function envNames(): string[] {
  const names = new Set<string>();
  for (const file of sources(join(ROOT, 'src'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\benv(?:\.|\[')([A-Z][A-Z0-9_]+)/g)) names.add(m[1]!);
    for (const m of text.matchAll(/['`](TXA_[A-Z0-9_]+)/g)) names.add(m[1]!);
  }
  // An error code of the SSRF guard that looks like a variable; PATH is where `txa` looks for itself.
  for (const notAVariable of ['TXA_PRIVATE_TARGET', 'PATH']) names.delete(notAVariable);
  return [...names].sort();
}

describe('docs/index.md', () => {
  it('names every command and verb of txa --help', async () => {
    const program = await buildProgram(['--help']);
    const missing: string[] = [];
    for (const noun of program.commands) {
      if (noun.name() === 'help') continue;
      const rows = LINES.filter((l) => l.includes(`\`txa ${noun.name()}`));
      if (rows.length === 0) missing.push(`txa ${noun.name()}`);
      for (const verb of noun.commands as Command[]) {
        const named = rows.some((l) => l.includes(`\`${verb.name()}\``) || l.includes(`\`txa ${noun.name()} ${verb.name()}\``));
        if (!named) missing.push(`txa ${noun.name()} ${verb.name()}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('documents every environment variable the code reads', () => {
    const names = envNames();
    expect(names).toContain('TXA_DB');
    expect(names).toContain('TXA_BLOCKSCOUT_URL_');
    // A prefix (`TXA_BLOCKSCOUT_URL_`) is named with its suffix (`<CHAIN>`); a whole name must end there.
    const named = (n: string) => new RegExp(`\`${n}${n.endsWith('_') ? '' : '(?![A-Z0-9_])'}`).test(INDEX);
    expect(names.filter((n) => !named(n))).toEqual([]);
  });

  it('links only pages that exist, and links every page of docs/', () => {
    const links = [...INDEX.matchAll(/\]\(([^)#]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(20);
    expect(links.filter((l) => !existsSync(join(ROOT, 'docs', l)))).toEqual([]);
    const pages = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md') && f !== 'index.md');
    const linked = new Set(links.map((l) => join(dirname(join('docs', l)), l.split('/').pop()!)));
    expect(pages.filter((p) => !linked.has(join('docs', p)))).toEqual([]);
  });
});
