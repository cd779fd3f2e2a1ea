/**
 * Resolving a tag flag on a read command stays on the read path: `tx list --tag-ids` lists the
 * workspace's tags to resolve names, and that list must not load zod (the tag writers' module),
 * which costs ~100 ms of compile per start (bench/RESULTS.md, session 6, target 1).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sandbox } from '../helpers/cli.js';

const RIG = resolve(import.meta.dirname, '../helpers/loaded-modules.cjs');

describe('tx list --tag-ids', () => {
  it('resolves a tag by name without loading zod', async () => {
    const s = sandbox();
    const ws = (await s.json(['workspace', 'create', 'Books'])).data.id as string;
    await s.json(['tags', 'create', '--name', 'Payroll', '--type', 'expense', '-w', ws]);
    const loaded = join(s.dir, 'loaded.txt');
    const env = { NODE_OPTIONS: `--require=${RIG}`, TXA_TEST_LOADED: loaded };
    const listed = await s.txa(['tx', 'list', '-w', ws, '--tag-ids', 'payroll', '--json'], { env });
    expect(listed.exitCode, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).pagination.total).toBe(0);
    const modules = readFileSync(loaded, 'utf8').split('\n');
    expect(
      modules.some((m) => m.includes('better-sqlite3')),
      'the rig sees packages',
    ).toBe(true);
    expect(modules.filter((m) => m.includes('/node_modules/zod/'))).toEqual([]);
  });
});
