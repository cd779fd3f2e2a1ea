/**
 * Opening a ledger: a SQLite file in WAL mode with a busy timeout, so several txa processes
 * can share it, upgraded in place by the versioned migrations. A path that is not a txa ledger
 * gets a clear LEDGER_ERROR instead of a driver stack trace.
 */
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, statSync, accessSync, constants } from 'node:fs';
import { dirname } from 'node:path';
import { TxaError } from '../core/errors.js';
import { MIGRATIONS } from './migrations.js';

export type Db = Database.Database;

/** `PRAGMA application_id` of txa ledgers ('TXA1'), to tell them from other SQLite files. */
const APPLICATION_ID = 0x54584131;
const BUSY_TIMEOUT_MS = 15_000;
const MMAP_BYTES = 1 << 30;

export const SCHEMA_VERSION = MIGRATIONS.length;

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

function checkPath(path: string): void {
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
    accessSync(isNew ? dir : path, constants.R_OK | constants.W_OK);
  } catch (err) {
    throw ledgerError(path, `${isNew ? 'its directory' : 'the file'} is not writable (${(err as NodeJS.ErrnoException).code ?? 'error'})`, err);
  }
}

export function openDb(path: string, opts: { readonly?: boolean } = {}): Db {
  if (path !== ':memory:') checkPath(path);
  let db: Db;
  try {
    db = new Database(path, { readonly: opts.readonly ?? false, timeout: BUSY_TIMEOUT_MS });
  } catch (err) {
    throw ledgerError(path, (err as Error).message, err);
  }
  try {
    // The first statement that reads the header tells a non-SQLite file apart.
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (path !== ':memory:') db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    // Reads through the OS page cache instead of copying pages into SQLite's own: large scans
    // (amount ranges, exports) run about twice as fast (bench/RESULTS.md).
    db.pragma(`mmap_size = ${MMAP_BYTES}`);
    db.pragma('foreign_keys = ON');
    migrate(db, path);
  } catch (err) {
    db.close();
    if (err instanceof TxaError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'SQLITE_NOTADB') throw ledgerError(path, 'it is not a SQLite database', err);
    if (code === 'SQLITE_READONLY' || code === 'SQLITE_CANTOPEN') throw ledgerError(path, 'the file is not writable', err);
    throw ledgerError(path, (err as Error).message, err);
  }
  return db;
}

function migrate(db: Db, path: string): void {
  const appId = db.pragma('application_id', { simple: true }) as number;
  const version = db.pragma('user_version', { simple: true }) as number;
  const tableCount = (db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number }).n;
  if (appId !== APPLICATION_ID && tableCount > 0) {
    throw ledgerError(path, 'it is a SQLite database of another program, not a txa ledger');
  }
  if (version > SCHEMA_VERSION) {
    throw ledgerError(path, `it was written by a newer txa (schema ${version}, this txa knows ${SCHEMA_VERSION}); upgrade txa`);
  }
  if (version === SCHEMA_VERSION) return;
  // IMMEDIATE: two processes opening a new ledger at once must not both migrate it.
  const upgrade = db.transaction(() => {
    const current = db.pragma('user_version', { simple: true }) as number;
    for (let v = current; v < SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v]!);
    db.pragma(`application_id = ${APPLICATION_ID}`);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  });
  upgrade.immediate();
}

/**
 * A read-only connection in a read transaction, for a second reader of a ledger (an export's
 * worker thread): its snapshot is taken here. Pages are read, not mapped, to keep RSS flat.
 */
export function openSnapshotReader(path: string): Db {
  const db = new Database(path, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  db.pragma('mmap_size = 0');
  db.exec('BEGIN');
  db.prepare('SELECT 1 FROM sqlite_master LIMIT 1').get();
  return db;
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
  return db.transaction(fn).immediate();
}
