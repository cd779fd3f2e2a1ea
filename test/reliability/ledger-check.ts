/**
 * Integrity checks of a ledger file after fuzzing or a kill -9, read with a plain read-only
 * SQLite connection (not the engine, which would run its own recovery first).
 */
import Database from 'better-sqlite3';

export function withLedger<T>(path: string, fn: (db: Database.Database) => T): T {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** `PRAGMA integrity_check` and foreign keys: [] when the file is sound. */
export function integrityProblems(db: Database.Database): string[] {
  const integrity = db.pragma('integrity_check', { simple: false }) as { integrity_check: string }[];
  const problems = integrity.map((r) => r.integrity_check).filter((r) => r !== 'ok');
  const fk = db.pragma('foreign_key_check') as unknown[];
  if (fk.length) problems.push(`${fk.length} foreign key violations`);
  return problems;
}

export function count(db: Database.Database, sql: string, ...params: unknown[]): number {
  return db
    .prepare(sql)
    .pluck()
    .get(...params) as number;
}

/** Row counts of every table: what a refused write must leave unchanged. */
export function tableCounts(db: Database.Database): Record<string, number> {
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[];
  return Object.fromEntries(tables.map((t) => [t, count(db, `SELECT count(*) FROM "${t}"`)]));
}

/** Transactions whose `transaction.created` event is missing or there more than once, and events of no transaction. */
export function createdEventProblems(db: Database.Database): string[] {
  const missing = count(
    db,
    "SELECT count(*) FROM transactions t WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.type = 'transaction.created' AND e.subject_id = t.id)",
  );
  const twice = count(db, "SELECT count(*) FROM (SELECT subject_id FROM events WHERE type = 'transaction.created' GROUP BY subject_id HAVING count(*) > 1)");
  const orphans = count(
    db,
    "SELECT count(*) FROM events e WHERE e.type = 'transaction.created' AND NOT EXISTS (SELECT 1 FROM transactions t WHERE t.id = e.subject_id)",
  );
  return [
    ...(missing ? [`${missing} transactions without their transaction.created event`] : []),
    ...(twice ? [`${twice} transactions with transaction.created more than once`] : []),
    ...(orphans ? [`${orphans} transaction.created events of no transaction`] : []),
  ];
}
