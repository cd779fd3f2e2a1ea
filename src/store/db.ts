/**
 * Opening a ledger: a SQLite file in WAL mode with a busy timeout, so several txa processes
 * can share it, upgraded in place by the versioned migrations. A path that is not a txa ledger
 * gets a clear LEDGER_ERROR instead of a driver stack trace.
 */
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readFileSync, statSync, accessSync, constants } from 'node:fs';
import { dirname } from 'node:path';
import { TxaError } from '../core/errors.js';
import { MIGRATIONS } from './migrations.js';

export type Db = Database.Database;

/** Where SQLite keeps temporary files on txa's connections (openDb); a bulk index rebuild sets it back (store/bulk-write.ts). */
export const TEMP_STORE = 'MEMORY';

/**
 * Closes the connection's temporary database (dropping any temporary table), which the first
 * statements opened. A changed `temp_store` closes it; an unchanged one is a no-op, hence two.
 * While it is open SQLite refuses `temp_store` inside a transaction, and a bulk import's index
 * rebuild needs to change it there (store/bulk-write.ts withSortOnDisk).
 */
function closeTempDatabase(db: Db): void {
  db.pragma('temp_store = FILE');
  db.pragma(`temp_store = ${TEMP_STORE}`);
}

/** `PRAGMA application_id` of txa ledgers ('TXA1'), to tell them from other SQLite files. */
const APPLICATION_ID = 0x54584131;
const BUSY_TIMEOUT_MS = 15_000;
const MMAP_BYTES = 1 << 30;

export const SCHEMA_VERSION = MIGRATIONS.length;

/** The ledger path of each read-only connection (an in-memory copy's own name is `:memory:`). */
const readOnlyPaths = new WeakMap<Db, string>();

function readOnlyError(db: Db): TxaError {
  return new TxaError(
    'LEDGER_ERROR',
    `ledger ${readOnlyPaths.get(db) ?? db.name} is read-only (the file or its folder is not writable) and this command changes it`,
    {
      hint: 'Reads work on a read-only ledger; to change it, copy it somewhere writable and pass --db COPY.',
    },
  );
}

function ledgerError(path: string, message: string, cause?: unknown): TxaError {
  return new TxaError('LEDGER_ERROR', `cannot open ledger ${path}: ${message}`, {
    cause,
    hint: 'Pass another file with --db PATH or TXA_DB.',
  });
}

/** mkdir -p, one level at a time: Node's recursive mkdir never returns on some paths (e.g. under /proc). */
function ensureDir(dir: string): void {
  if (existsSync(dir)) return;
  const parent = dirname(dir);
  if (parent !== dir) ensureDir(parent);
  mkdirSync(dir);
}

/**
 * Whether the ledger must be opened read-only: an existing file that is not writable, or in a
 * directory that is not (SQLite creates its -wal and -shm files beside it), e.g. an auditor's
 * copy on a read-only mount. A new file needs a writable directory.
 */
function checkPath(path: string): { readOnly: boolean } {
  let isNew = false;
  try {
    if (statSync(path).isDirectory()) throw ledgerError(path, 'it is a directory');
  } catch (err) {
    if (err instanceof TxaError) throw err;
    isNew = true;
  }
  const dir = dirname(path);
  try {
    ensureDir(dir);
    accessSync(isNew ? dir : path, constants.R_OK | (isNew ? constants.W_OK : 0));
  } catch (err) {
    const what = isNew ? 'its directory is not writable' : 'the file is not readable';
    throw ledgerError(path, `${what} (${(err as NodeJS.ErrnoException).code ?? 'error'})`, err);
  }
  return { readOnly: !isNew && !(writable(path) && writable(dir)) };
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

export function openDb(path: string): Db {
  const readOnly = path !== ':memory:' && checkPath(path).readOnly;
  let db: Db;
  try {
    db = readOnly ? openReadOnly(path) : new Database(path, { timeout: BUSY_TIMEOUT_MS });
    if (readOnly) readOnlyPaths.set(db, path);
  } catch (err) {
    throw asLedgerError(path, err);
  }
  try {
    // The first statement that reads the header tells a non-SQLite file apart.
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (path !== ':memory:' && !readOnly) enableWal(db);
    db.pragma('synchronous = NORMAL');
    // Reads through the OS page cache instead of copying pages into SQLite's own: large scans
    // (amount ranges, exports) run about twice as fast (bench/RESULTS.md).
    db.pragma(`mmap_size = ${MMAP_BYTES}`);
    db.pragma('foreign_keys = ON');
    // A write that may abort midway (one with triggers) keeps a statement journal, and SQLite
    // spills one above 64 KiB to a temporary file: every row of an import did, a file created and
    // written per statement. In memory, an import runs about 1.4× as fast (bench/RESULTS.md
    // "Session 14"); temporary tables (a rule's scope) live in memory too.
    db.pragma(`temp_store = ${TEMP_STORE}`);
    migrate(db, path);
    closeTempDatabase(db);
  } catch (err) {
    db.close();
    throw asLedgerError(path, err);
  }
  return db;
}

function asLedgerError(path: string, err: unknown): TxaError {
  if (err instanceof TxaError) return err;
  const code = (err as { code?: string }).code;
  if (code === 'SQLITE_NOTADB') return ledgerError(path, 'it is not a SQLite database', err);
  if (code === 'SQLITE_READONLY' || code === 'SQLITE_CANTOPEN') return ledgerError(path, 'the file is not writable', err);
  return ledgerError(path, (err as Error).message, err);
}

/**
 * WAL mode, which a ledger keeps once set. A file still in rollback mode (a new one) switches by
 * upgrading a read lock to a write lock, which SQLite does without waiting on the busy timeout
 * (two upgraders would deadlock), so two processes opening a new ledger at once can get
 * SQLITE_BUSY: the loser retries until the busy timeout.
 */
function enableWal(db: Db): void {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw err;
      Atomics.wait(RETRY_SLEEP, 0, 0, 2 + Math.random() * 8);
    }
  }
}

/** Waited on (never notified) for a synchronous pause between retries. */
const RETRY_SLEEP = new Int32Array(new SharedArrayBuffer(4));

/**
 * A read-only connection. SQLite reads a WAL ledger in place when it can create (or finds) the
 * -wal and -shm files beside it; on a read-only mount without them it cannot, so the ledger is
 * read into memory instead (docs/storage.md) — unless a -wal file holds commits the copy would miss.
 */
function openReadOnly(path: string): Db {
  const db = new Database(path, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  try {
    db.pragma('user_version');
    return db;
  } catch (err) {
    db.close();
    // CANTOPEN on a read-only mount, READONLY_DIRECTORY in a folder this user cannot write.
    const code = (err as { code?: string }).code;
    if (code !== 'SQLITE_CANTOPEN' && code !== 'SQLITE_READONLY_DIRECTORY') throw err;
  }
  if (existsSync(`${path}-wal`)) {
    throw ledgerError(path, `it is read-only and its -wal file has no -shm file beside it; copy ${path}-shm too, or open the ledger once where it is writable`);
  }
  const image = readFileSync(path);
  // Header bytes 18-19 are 2 in WAL mode, which an in-memory database cannot use; 1 is the
  // rollback journal, and the pages are the same.
  if (image[18] === 2) image[18] = image[19] = 1;
  return new Database(image, { readonly: true });
}

/** The header values that tell a txa ledger, its schema and a foreign SQLite file apart. */
interface Header {
  appId: number;
  version: number;
  tables: number;
}

function readHeader(db: Db): Header {
  return {
    appId: db.pragma('application_id', { simple: true }) as number,
    version: db.pragma('user_version', { simple: true }) as number,
    tables: (db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number }).n,
  };
}

function checkHeader(h: Header, path: string): void {
  if (h.appId !== APPLICATION_ID && h.tables > 0) {
    throw ledgerError(path, 'it is a SQLite database of another program, not a txa ledger');
  }
  if (h.version > SCHEMA_VERSION) {
    throw ledgerError(path, `it was written by a newer txa (schema ${h.version}, this txa knows ${SCHEMA_VERSION}); upgrade txa`);
  }
}

function migrate(db: Db, path: string): void {
  // One read transaction: the header values come from one snapshot. Read one by one, a peer's
  // migration committing in between looked like tables without txa's application_id.
  const header = db.transaction(() => readHeader(db))();
  checkHeader(header, path);
  if (header.version === SCHEMA_VERSION) return;
  if (db.readonly) {
    throw ledgerError(path, `it is read-only and needs an upgrade to schema ${SCHEMA_VERSION} (it has ${header.version}); open it once where it is writable`);
  }
  // IMMEDIATE, and the header read again inside: a peer may have created or migrated it meanwhile.
  const upgrade = db.transaction(() => {
    const current = readHeader(db);
    checkHeader(current, path);
    // A migration may rewrite rows of any date: the closed-period guard (store/periods.ts) steps
    // aside for it, and comes back as it was.
    const guard = db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND name LIKE 'period\\_guard\\_%' ESCAPE '\\'").all() as {
      name: string;
      sql: string;
    }[];
    for (const { name } of guard) db.exec(`DROP TRIGGER "${name}"`);
    for (let v = current.version; v < SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v]!);
    for (const { sql } of guard) db.exec(sql);
    db.pragma(`application_id = ${APPLICATION_ID}`);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  });
  upgrade.immediate();
}

/**
 * A read-only connection in a read transaction, for a second reader of a ledger (an export's
 * worker thread): its snapshot is taken here.
 */
export function openSnapshotReader(path: string): Db {
  const db = new Database(path, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  beginSnapshot(db);
  return db;
}

/**
 * Starts a read transaction and takes its snapshot (the first read does), for an export's reader.
 * Pages are read once through SQLite's small page cache: a mapped ledger would add every page an
 * export touches to the process's RSS (a 1M-row export then peaks near the file's size), for the
 * same CPU time (bench/RESULTS.md).
 */
export function beginSnapshot(db: Db): void {
  db.pragma('mmap_size = 0');
  db.exec('BEGIN');
  db.prepare('SELECT 1 FROM sqlite_master LIMIT 1').get();
}

/**
 * A connection of a worker thread that reads the ledger and may keep a cache in it (the rows'
 * digest hashes, migration 32): writable where the file is, else read-only (the cache is then
 * not kept). No migrations: the opening thread ran them.
 */
export function openCacheWriter(path: string): Db {
  try {
    const db = new Database(path, { fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
    db.pragma('synchronous = NORMAL');
    return db;
  } catch {
    return new Database(path, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  }
}

/**
 * `read`, then `keep` what it read, in one deferred transaction: what `keep` writes comes from the
 * same snapshot, so it cannot be stale. Where the connection is read-only, already in a
 * transaction, or another writer committed in between (SQLite then refuses the upgrade to a
 * write), nothing is kept and the read's result stands: for caches that a later call fills in.
 */
export function readThenKeep<T>(db: Db, read: () => T, keep: (result: T) => void): T {
  if (db.inTransaction || db.readonly) return read();
  db.exec('BEGIN');
  try {
    const result = read();
    try {
      keep(result);
      db.exec('COMMIT');
    } catch (err) {
      const code = String((err as { code?: string }).code);
      if (!code.startsWith('SQLITE_BUSY') && !code.startsWith('SQLITE_READONLY')) throw err;
    }
    return result;
  } finally {
    if (db.inTransaction) db.exec('ROLLBACK');
  }
}

/** Ends the read transaction of beginSnapshot, if still open. */
export function endSnapshot(db: Db): void {
  if (db.inTransaction) db.exec('COMMIT');
}

/** How long a statement of this connection waits for a lock another holds (`openDb` sets 15 s). */
export function setBusyTimeout(db: Db, ms: number): void {
  db.pragma(`busy_timeout = ${ms}`);
}

/**
 * Notices commits to a ledger by any connection (PRAGMA data_version; this one never writes).
 * Two read transactions both begun while `unchanged()` stays true read the same snapshot.
 */
export interface CommitWatch {
  unchanged(): boolean;
  close(): void;
}

export function watchCommits(path: string): CommitWatch {
  const db = new Database(path, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  const version = () => db.pragma('data_version', { simple: true }) as number;
  const start = version();
  return { unchanged: () => version() === start, close: () => db.close() };
}

/**
 * Runs `fn` in a write transaction taken at once (BEGIN IMMEDIATE), so a concurrent writer
 * waits on the busy timeout instead of failing with SQLITE_BUSY halfway through.
 */
export function writeTx<T>(db: Db, fn: () => T): T {
  if (db.readonly) throw readOnlyError(db);
  try {
    return db.transaction(fn).immediate();
  } catch (err) {
    throw periodClosedError(err) ?? err;
  }
}

/** The message the closed-period guard's triggers abort with: `PERIOD_CLOSED|<row id>|<closed day>` (store/periods.ts). */
export const PERIOD_CLOSED_MESSAGE = 'PERIOD_CLOSED|';

/**
 * The guard's abort as a PERIOD_CLOSED error (docs/periods.md): the row it names is the field.
 * Also what a caller writing outside writeTx uses.
 */
export function periodClosedError(err: unknown): TxaError | undefined {
  if (!(err instanceof Database.SqliteError) || !err.message.startsWith(PERIOD_CLOSED_MESSAGE)) return undefined;
  const [rowId = '', through = ''] = err.message.slice(PERIOD_CLOSED_MESSAGE.length).split('|');
  return new TxaError('PERIOD_CLOSED', `transaction ${rowId} is dated on or before ${through}, a closed period; nothing was written`, {
    field: rowId,
    extra: { closed_through: through },
    hint: `Reopen the period first: txa period reopen --through ${through} --reason TEXT`,
    cause: err,
  });
}
