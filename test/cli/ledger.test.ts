/**
 * The ledger file as users meet it: bad paths give one clear line and exit 1; concurrent writers
 * all succeed; a read-only ledger reads and refuses writes.
 */
import { describe, expect, it } from 'vitest';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import Database from 'better-sqlite3';
import { BIN, sandbox } from '../helpers/cli.js';

describe('opening the ledger', () => {
  const s = sandbox();
  const cases: [string, () => string, RegExp][] = [
    [
      'a directory',
      () => {
        const p = join(s.dir, 'adir');
        mkdirSync(p);
        return p;
      },
      /is a directory/,
    ],
    [
      'not a SQLite file',
      () => {
        const p = join(s.dir, 'notes.txt');
        writeFileSync(p, 'hello, this is text\n'.repeat(100));
        return p;
      },
      /not a SQLite database/,
    ],
    [
      'another program’s SQLite file',
      () => {
        const p = join(s.dir, 'other.db');
        const d = new Database(p);
        d.exec('CREATE TABLE t (a)');
        d.close();
        return p;
      },
      /another program/,
    ],
    [
      'a newer ledger',
      () => {
        const p = join(s.dir, 'newer.db');
        const d = new Database(p);
        d.exec('CREATE TABLE t (a)');
        d.pragma('application_id = 0x54584131');
        d.pragma('user_version = 999');
        d.close();
        return p;
      },
      /newer txa/,
    ],
    ['an unwritable place', () => '/proc/1/txa/ledger.db', /not writable/],
  ];
  it.each(cases)('%s: one error line, exit 1, no stack trace', async (_name, make, message) => {
    // `workspace create` may create a ledger (a read of a missing one is LEDGER_NOT_FOUND): every case gets as far as opening it.
    const r = await s.txa(['--db', make(), 'workspace', 'create', 'Here']);
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
    const runs = await Promise.all(Array.from({ length: 12 }, (_, i) => s.txa(['-w', ws, 'tags', 'create', '--name', `tag ${i}`, '--type', 'neutral'])));
    for (const r of runs) expect(r.stderr).toBe('');
    expect(runs.map((r) => r.exitCode)).toEqual(Array(12).fill(0));
    expect((await s.json(['-w', ws, 'tags', 'list'])).data).toHaveLength(12);
  });
});

/**
 * Root ignores file modes, so as root the CLI runs as `nobody` (setpriv) to meet a file or folder
 * it cannot write; a read-only mount is made with a bind mount in a private mount namespace
 * (unshare, as root), and skipped where that is not allowed.
 */
describe('a read-only ledger (an auditor’s copy)', () => {
  const isRoot = process.getuid?.() === 0;
  const canMount = isRoot && execa('unshare', ['-m', 'true'], { reject: false }).then((r) => r.exitCode === 0);
  const FIXTURE = resolve(import.meta.dirname, '../../fixtures/import/txa-export.csv');

  /** A ledger with a workspace, a wallet and the three rows of the fixture, alone in a fresh folder. */
  async function ledger(): Promise<{ dir: string; db: string; ws: string }> {
    const s = sandbox();
    const ws = (await s.json(['workspace', 'create', 'Audit'])).data.id as string;
    const wal = (await s.json(['-w', ws, 'wallet', 'add', '--address', '0x1234567890abcdef1234567890abcdef12345678', '--chain', 'ethereum', '--label', 'Main']))
      .data.id;
    await s.json(['-w', ws, 'import', FIXTURE, '--wallet', wal]);
    const dir = mkdtempSync(join(tmpdir(), 'txa-ro-'));
    copyFileSync(s.env.TXA_DB!, join(dir, 'ledger.db'));
    chmodSync(dir, 0o755);
    return { dir, db: join(dir, 'ledger.db'), ws };
  }

  const env = { TXA_CONFIG_DIR: '/nonexistent/txa-config', NO_COLOR: '1', TXA_BASE_URL: '', TXA_API_KEY: '', TXA_PROFILE: '' };
  const asUser = (args: string[]) =>
    isRoot
      ? execa('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', BIN, ...args], { env, reject: false })
      : execa(BIN, args, { env, reject: false });
  const onReadOnlyMount = (dir: string, args: string[]) =>
    execa('unshare', ['-m', 'sh', '-c', 'mount --bind "$0" "$0" && mount -o remount,ro,bind "$0" && exec "$@"', dir, BIN, ...args], { env, reject: false });

  async function readsWorkAndWritesFail(run: (args: string[]) => ReturnType<typeof asUser>, l: { db: string; ws: string }): Promise<void> {
    const before = readFileSync(l.db);
    const list = await run(['--db', l.db, '-w', l.ws, 'tx', 'list', '--json']);
    expect(list.stderr).toBe('');
    expect(JSON.parse(list.stdout).data).toHaveLength(3);
    const get = await run(['--db', l.db, '-w', l.ws, 'tx', 'get', JSON.parse(list.stdout).data[0].id, '--json']);
    expect(get.exitCode).toBe(0);
    for (const read of [
      ['tags', 'list'],
      ['wallet', 'list'],
      ['workspace', 'list'],
      ['events', 'list'],
    ]) {
      expect((await run(['--db', l.db, '-w', l.ws, ...read])).exitCode).toBe(0);
    }
    for (const write of [
      ['tags', 'create', '--name', 'New', '--type', 'income'],
      ['export', 'create', '--format', 'csv', '--out', join(tmpdir(), 'never.csv')],
    ]) {
      const r = await run(['--db', l.db, '-w', l.ws, ...write]);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toMatch(
        /^error: LEDGER_ERROR: ledger .*ledger\.db is read-only \(the file or its folder is not writable\) and this command changes it\n/,
      );
    }
    expect(readFileSync(l.db).equals(before)).toBe(true);
  }

  it('a file this user cannot write, in a folder they can: reads work, writes fail clearly, the file is unchanged', async () => {
    const l = await ledger();
    chmodSync(l.dir, 0o777);
    chmodSync(l.db, 0o444);
    await readsWorkAndWritesFail(asUser, l);
  });

  it('a folder this user cannot write (no -wal or -shm can be made): the same', async () => {
    const l = await ledger();
    chmodSync(l.db, 0o444);
    chmodSync(l.dir, 0o555);
    await readsWorkAndWritesFail(asUser, l);
    expect(readdirSync(l.dir)).toEqual(['ledger.db']);
  });

  it('a read-only mount: the same', async (ctx) => {
    if (!(await canMount)) ctx.skip();
    const l = await ledger();
    await readsWorkAndWritesFail((args) => onReadOnlyMount(l.dir, args), l);
  });

  it('a copy whose -wal file came without its -shm file is refused, naming the missing file', async () => {
    const l = await ledger();
    // A copy taken while a writer had commits in the WAL: ledger.db and ledger.db-wal only.
    const writer = new Database(l.db);
    writer.pragma('wal_autocheckpoint = 0');
    writer.prepare("UPDATE workspaces SET name = 'Renamed'").run();
    const copy = mkdtempSync(join(tmpdir(), 'txa-ro-'));
    for (const suffix of ['', '-wal']) copyFileSync(l.db + suffix, join(copy, `ledger.db${suffix}`));
    writer.close();
    chmodSync(copy, 0o555);
    const r = await asUser(['--db', join(copy, 'ledger.db'), 'workspace', 'list']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/its -wal file has no -shm file beside it; copy .*ledger\.db-shm too/);
  });
});
