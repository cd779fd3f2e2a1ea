/** The ledger file as users meet it: bad paths give one clear line and exit 1; concurrent writers all succeed. */
import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sandbox } from '../helpers/cli.js';

describe('opening the ledger', () => {
  const s = sandbox();
  const cases: [string, () => string, RegExp][] = [
    ['a directory', () => { const p = join(s.dir, 'adir'); mkdirSync(p); return p; }, /is a directory/],
    ['not a SQLite file', () => { const p = join(s.dir, 'notes.txt'); writeFileSync(p, 'hello, this is text\n'.repeat(100)); return p; }, /not a SQLite database/],
    ['another program’s SQLite file', () => { const p = join(s.dir, 'other.db'); const d = new Database(p); d.exec('CREATE TABLE t (a)'); d.close(); return p; }, /another program/],
    ['a newer ledger', () => { const p = join(s.dir, 'newer.db'); const d = new Database(p); d.exec('CREATE TABLE t (a)'); d.pragma('application_id = 0x54584131'); d.pragma('user_version = 999'); d.close(); return p; }, /newer txa/],
    ['an unwritable place', () => '/proc/1/txa/ledger.db', /not writable/],
  ];
  it.each(cases)('%s: one error line, exit 1, no stack trace', async (_name, make, message) => {
    const r = await s.txa(['--db', make(), 'workspace', 'list']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^error: LEDGER_ERROR: cannot open ledger /);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe('');
  });
});

describe('several processes on one ledger', () => {
  it('writes from parallel processes all land (no SQLITE_BUSY reaches the user)', async () => {
    const s = sandbox();
    const ws = (await s.json(['workspace', 'create', 'Shared', '--tier', 'pro'])).data.id as string;
    const runs = await Promise.all(
      Array.from({ length: 12 }, (_, i) => s.txa(['-w', ws, 'tags', 'create', '--name', `tag ${i}`, '--type', 'neutral'])),
    );
    for (const r of runs) expect(r.stderr).toBe('');
    expect(runs.map((r) => r.exitCode)).toEqual(Array(12).fill(0));
    expect((await s.json(['-w', ws, 'tags', 'list'])).data).toHaveLength(12);
  });
});
