/**
 * Settings for writing many rows in one transaction (an import). Each is undone before it
 * returns; the index DDL is part of the caller's transaction, so a failed or rolled-back write
 * leaves the schema exactly as it was, and other connections only see it change (and re-prepare
 * their statements) if the transaction commits.
 */
import { TEMP_STORE, type Db } from './db.js';

/** Page cache for the write's duration (KiB): a large import dirties hundreds of MB of pages. */
const BULK_CACHE_KIB = 256 * 1024;

/**
 * Runs `fn` with the connection's page cache raised, then restores it: with the default 2 MB,
 * SQLite spills dirty pages to the WAL mid-transaction and writes many of them again later.
 * A streamed import, whose memory is bounded, asks for less (`kib`; engine/imports.ts).
 */
export function withLargeCache<T>(db: Db, fn: () => T, kib = BULK_CACHE_KIB): T {
  const before = db.pragma('cache_size', { simple: true }) as number;
  db.pragma(`cache_size = ${-Math.trunc(kib)}`);
  try {
    return fn();
  } finally {
    db.pragma(`cache_size = ${before}`);
  }
}

/**
 * Runs `fn` with the secondary indexes of `tables` dropped, and creates them again from their
 * stored SQL after it: CREATE INDEX sorts the keys once instead of inserting into every index
 * at a random place per row. Pays when `fn` adds at least as many rows as the tables held.
 * Constraint indexes (PRIMARY KEY, UNIQUE) have no SQL of their own and stay, so duplicates are
 * still refused row by row. Must run inside a write transaction with no statement in progress.
 */
export function withIndexesRebuilt<T>(db: Db, tables: string[], fn: () => T): T {
  if (!db.inTransaction) throw new Error('indexes are only rebuilt inside a write transaction');
  const indexes = db
    .prepare(`SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${tables.map(() => '?').join(', ')})`)
    .all(...tables) as { name: string; sql: string }[];
  for (const { name } of indexes) db.exec(`DROP INDEX "${name.replaceAll('"', '""')}"`);
  const result = fn();
  withSortOnDisk(db, () => {
    for (const { sql } of indexes) db.exec(sql);
  });
  return result;
}

/**
 * Runs `fn` with SQLite's temporary files on disk. CREATE INDEX sorts its keys with SQLite's
 * sorter, which never spills while temporary storage is in memory (store/db.ts `openDb`): the keys
 * of every row at once, 385 MB for a 2M-line import against 215 MB with the sort spilled
 * (bench/RESULTS.md "Session 15"). SQLite refuses the change inside a transaction once the
 * connection's temporary database is open: openDb closes it after its migrations, and an import
 * opens none, but a rule's scope (a temporary table) earlier on the same connection would; the
 * sort then stays in memory.
 */
function withSortOnDisk(db: Db, fn: () => void): void {
  let switched = false;
  try {
    db.pragma('temp_store = FILE');
    switched = true;
  } catch (err) {
    // Sorted in memory then; any other failure is one.
    if (!(err instanceof Error && err.message.includes('temporary storage cannot be changed'))) throw err;
  }
  try {
    fn();
  } finally {
    if (switched) db.pragma(`temp_store = ${TEMP_STORE}`);
  }
}
