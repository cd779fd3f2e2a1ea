import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb, writeTx, type Db } from '../../src/store/db.js';
import { withIndexesRebuilt, withLargeCache } from '../../src/store/bulk-write.js';
import { tempStoreAtCreate } from '../helpers/temp-store.js';

let db: Db;

beforeEach(() => {
  db = openDb(join(mkdtempSync(join(tmpdir(), 'txa-bulk-')), 'ledger.db'));
  db.prepare(
    "INSERT INTO workspaces (id, name, tier, base_currency, rate_limit, created_at) VALUES ('ws', 'W', 'free', 'USD', NULL, '2024-01-01T00:00:00Z')",
  ).run();
});
afterEach(() => db.close());

/** The secondary indexes of a table with their SQL, and the sqlite_schema rowid each has now. */
const indexesOf = (table: string) =>
  db.prepare("SELECT rowid, name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = ? ORDER BY name").all(table) as {
    rowid: number;
    name: string;
    sql: string | null;
  }[];
const insertEvent = (id: string) => db.prepare("INSERT INTO events (id, workspace_id, type, created_at, payload) VALUES (?, 'ws', 't', 'now', '{}')").run(id);

describe('withIndexesRebuilt', () => {
  it('drops the secondary indexes for the call and creates the same ones after it', () => {
    const before = indexesOf('events');
    expect(before.filter((i) => i.sql !== null).map((i) => i.name)).toEqual(['events_by_subject', 'events_by_workspace']);
    const during = writeTx(db, () =>
      withIndexesRebuilt(db, ['events'], () => {
        for (let i = 0; i < 100; i++) insertEvent(`evt_${i}`);
        return indexesOf('events');
      }),
    );
    // Only the UNIQUE constraint's index stays during the call.
    expect(during.map((i) => i.sql)).toEqual([null]);
    const after = indexesOf('events');
    expect(after.map(({ name, sql }) => ({ name, sql }))).toEqual(before.map(({ name, sql }) => ({ name, sql })));
    expect(after.find((i) => i.name === 'events_by_workspace')!.rowid).toBeGreaterThan(before.find((i) => i.name === 'events_by_workspace')!.rowid);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const plan = db.prepare("EXPLAIN QUERY PLAN SELECT * FROM events WHERE workspace_id = 'ws' ORDER BY seq DESC LIMIT 5").all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toContain('events_by_workspace');
  });

  it('still refuses duplicates through the constraint indexes it keeps', () => {
    expect(() =>
      writeTx(db, () =>
        withIndexesRebuilt(db, ['events'], () => {
          insertEvent('evt_same');
          insertEvent('evt_same');
        }),
      ),
    ).toThrow(/UNIQUE constraint failed: events.id/);
  });

  it('a failure inside leaves the indexes as they were, through the rollback of the transaction', () => {
    const before = indexesOf('transactions');
    expect(() =>
      writeTx(db, () =>
        withIndexesRebuilt(db, ['transactions', 'events'], () => {
          throw new Error('boom');
        }),
      ),
    ).toThrow('boom');
    expect(indexesOf('transactions')).toEqual(before);
  });

  it('sorts the new indexes with temporary files on disk, then puts the connection back to memory', () => {
    const seen = tempStoreAtCreate(db);
    writeTx(db, () => withIndexesRebuilt(db, ['events'], () => insertEvent('evt_1')));
    expect(seen).toEqual([1, 1]);
    expect(db.pragma('temp_store', { simple: true })).toBe(2);
  });

  it('sorts in memory when a temporary table is open in the transaction, which SQLite would not let go', () => {
    const seen = tempStoreAtCreate(db);
    writeTx(db, () => {
      db.exec("CREATE TEMP TABLE scope (id TEXT PRIMARY KEY); INSERT INTO temp.scope VALUES ('kept')");
      withIndexesRebuilt(db, ['events'], () => insertEvent('evt_1'));
    });
    expect(seen).toEqual([2, 2]);
    expect(db.prepare('SELECT id FROM temp.scope').pluck().all()).toEqual(['kept']);
    expect(
      indexesOf('events')
        .filter((i) => i.sql !== null)
        .map((i) => i.name),
    ).toEqual(['events_by_subject', 'events_by_workspace']);
  });

  it('runs only inside a write transaction', () => {
    expect(() => withIndexesRebuilt(db, ['events'], () => 1)).toThrow(/inside a write transaction/);
  });
});

describe('withLargeCache', () => {
  it('raises the page cache for the call and restores it, even when the call throws', () => {
    const before = db.pragma('cache_size', { simple: true });
    expect(withLargeCache(db, () => db.pragma('cache_size', { simple: true }))).toBe(-256 * 1024);
    expect(() =>
      withLargeCache(db, () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(db.pragma('cache_size', { simple: true })).toBe(before);
  });
});
