/**
 * Closed periods (migration 20, docs/periods.md): the history of closes and reopens, the guard
 * that refuses writes into a closed period, and the rows a close's digest covers.
 *
 * The guard is a set of triggers made from the current state (refreshPeriodGuard): while nothing
 * is closed there are none, so imports and syncs pay nothing; while something is, every insert,
 * update or delete of a transaction dated on or before its workspace's closed day (a tag link or
 * an attachment updates its row's count), and of its transfer, aborts with `PERIOD_CLOSED|<row id>|<day>`, which writeTx
 * turns into the error (db.ts). Being in the database, it holds for every write path, present or
 * future; the engine checks first where it can say more (how many rows an import brings).
 */
import { PERIOD_CLOSED_MESSAGE, writeTx, type Db } from './db.js';
import { prepareCached } from './statements.js';

export interface PeriodRecordRow {
  seq: number;
  id: string;
  workspace_id: string;
  /** `YYYY-MM-DD`: the last closed day. */
  through: string;
  action: 'close' | 'reopen';
  note: string | null;
  reason: string | null;
  actor: string;
  at: string;
  /** JSON `{rows, reports: {<report type>: sha256}}` of a close. */
  digests: string | null;
}

/** The prefix of the guard triggers' names (db.ts's migrations set them aside by it). */
const GUARD = 'period_guard_';

export function insertPeriodRecord(db: Db, r: Omit<PeriodRecordRow, 'seq'>): PeriodRecordRow {
  const info = prepareCached(
    db,
    'INSERT INTO period_records (id, workspace_id, through, action, note, reason, actor, at, digests) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(r.id, r.workspace_id, r.through, r.action, r.note, r.reason, r.actor, r.at, r.digests);
  return { ...r, seq: Number(info.lastInsertRowid) };
}

/** Every close and reopen of the workspace, oldest first. */
export function periodRecords(db: Db, workspaceId: string): PeriodRecordRow[] {
  return prepareCached(db, 'SELECT * FROM period_records WHERE workspace_id = ? ORDER BY seq').all(workspaceId) as PeriodRecordRow[];
}

/** The closes in force (each through-date's latest record, when it is a close), by day. */
export function closedPeriods(db: Db, workspaceId: string): PeriodRecordRow[] {
  return prepareCached(
    db,
    `SELECT p.* FROM period_records p
     WHERE p.workspace_id = ? AND p.action = 'close'
       AND p.seq = (SELECT max(q.seq) FROM period_records q WHERE q.workspace_id = p.workspace_id AND q.through = p.through)
     ORDER BY p.through`,
  ).all(workspaceId) as PeriodRecordRow[];
}

/** Each workspace's last closed day, for the guard. */
function closedThroughAll(db: Db): { workspace_id: string; through: string }[] {
  return db
    .prepare(
      `SELECT p.workspace_id, max(p.through) AS through FROM period_records p
       WHERE p.action = 'close' AND p.seq = (SELECT max(q.seq) FROM period_records q WHERE q.workspace_id = p.workspace_id AND q.through = p.through)
       GROUP BY p.workspace_id`,
    )
    .all() as { workspace_id: string; through: string }[];
}

/** Unix seconds of the first moment after a closed day (the day is `YYYY-MM-DD`, UTC). */
export const endOfDay = (day: string): number => Date.parse(`${day}T00:00:00Z`) / 1000 + 86_400;

const quote = (s: string) => `'${s.replaceAll("'", "''")}'`;

/**
 * Drops the guard triggers and makes them again from the current closes. Call inside the write
 * transaction that changed them (a close or reopen), and after migrations (which must be able to
 * rewrite rows of any date).
 */
export function refreshPeriodGuard(db: Db): void {
  dropPeriodGuard(db);
  const closed = closedThroughAll(db);
  if (closed.length === 0) return;
  // Tag links and attachments need no trigger of their own: each one added or removed updates its
  // row's tag_count or attachment_count (migration 6), which the update trigger sees. A lookup
  // per link would cost an import of tagged rows a few per cent.
  // `r` closed: its workspace's closed day covers its time. A CASE over the workspaces, each bound
  // a literal, costs a comparison or two per row written.
  const when = (r: string) =>
    `CASE ${r}.workspace_id ${closed.map((c) => `WHEN ${quote(c.workspace_id)} THEN ${r}.ts < ${endOfDay(c.through)}`).join(' ')} ELSE 0 END`;
  const dayOf = (r: string) => `CASE ${r}.workspace_id ${closed.map((c) => `WHEN ${quote(c.workspace_id)} THEN ${quote(c.through)}`).join(' ')} END`;
  const raise = (r: string, id: string) => `SELECT RAISE(ABORT, ${quote(PERIOD_CLOSED_MESSAGE)} || ${id} || '|' || ${dayOf(r)});`;
  db.exec(`
    CREATE TRIGGER ${GUARD}tx_insert AFTER INSERT ON transactions WHEN ${when('NEW')} BEGIN ${raise('NEW', 'NEW.id')} END;
    CREATE TRIGGER ${GUARD}tx_update AFTER UPDATE OF ${guardedColumns(db)} ON transactions WHEN ${when('OLD')} BEGIN ${raise('OLD', 'OLD.id')} END;
    CREATE TRIGGER ${GUARD}tx_update_into AFTER UPDATE OF ts, workspace_id ON transactions WHEN ${when('NEW')} BEGIN ${raise('NEW', 'NEW.id')} END;
    CREATE TRIGGER ${GUARD}tx_delete AFTER DELETE ON transactions WHEN ${when('OLD')} BEGIN ${raise('OLD', 'OLD.id')} END;
    CREATE TRIGGER ${GUARD}transfer_update AFTER UPDATE ON transfers
    WHEN EXISTS (SELECT 1 FROM transactions r WHERE r.transfer_id = NEW.id AND ${when('r')}) BEGIN
      SELECT RAISE(ABORT, ${quote(PERIOD_CLOSED_MESSAGE)} || (SELECT r.id || '|' || ${dayOf('r')} FROM transactions r WHERE r.transfer_id = NEW.id AND ${when('r')} LIMIT 1));
    END;
  `);
}

/**
 * The columns of transactions an update of a closed row may not touch: all but `row_hash`, the
 * cache of the row's digest hash (migration 32), which a close or check fills in for closed rows
 * too and which triggers clear on any change to the rest (docs/periods.md "Digests").
 */
function guardedColumns(db: Db): string {
  const columns = db.prepare("SELECT name FROM pragma_table_info('transactions')").pluck().all() as string[];
  return columns
    .filter((c) => c !== 'row_hash')
    .map((c) => `"${c}"`)
    .join(', ');
}

/**
 * Makes the guard again where its update trigger is not the one refreshPeriodGuard makes now: a
 * migration restores the guard as it was before it (db.ts migrate), which misses a column it
 * added, or still guards `row_hash` (migration 32). Once after such a migration; a read-only
 * ledger is left as it is.
 */
export function refreshStaleGuard(db: Db): void {
  if (db.readonly) return;
  const stored = db.prepare("SELECT sql FROM sqlite_schema WHERE type = 'trigger' AND name = ?").pluck().get(`${GUARD}tx_update`) as string | undefined;
  if (stored === undefined || stored.includes(`AFTER UPDATE OF ${guardedColumns(db)} ON transactions`)) return;
  writeTx(db, () => refreshPeriodGuard(db));
}

/** Drops the guard triggers (before migrations; refreshPeriodGuard makes them again). */
export function dropPeriodGuard(db: Db): void {
  const names = db
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'trigger' AND name LIKE ? ESCAPE '\\'")
    .pluck()
    .all(`${GUARD.replaceAll('_', '\\_')}%`) as string[];
  for (const name of names) db.exec(`DROP TRIGGER "${name}"`);
}

/** Of these rows (id and time) the ones not stored yet, for an import's count of new rows in a closed period. */
export function newRowIds(db: Db, ids: readonly string[]): Set<string> {
  const stored = new Set(
    prepareCached(db, 'SELECT id FROM transactions WHERE id IN (SELECT value FROM json_each(?))').pluck().all(JSON.stringify(ids)) as string[],
  );
  return new Set(ids.filter((id) => !stored.has(id)));
}

/** The first (by time) of these rows dated before `endTs`, and how many are. */
export function rowsBefore(db: Db, workspaceId: string, ids: readonly string[], endTs: number): { first: string | null; count: number } {
  const r = prepareCached(
    db,
    `SELECT count(*) AS count, (SELECT id FROM transactions WHERE workspace_id = ? AND ts < ? AND id IN (SELECT value FROM json_each(?)) ORDER BY ts, id LIMIT 1) AS first
     FROM transactions WHERE workspace_id = ? AND ts < ? AND id IN (SELECT value FROM json_each(?))`,
  ).get(workspaceId, endTs, JSON.stringify(ids), workspaceId, endTs, JSON.stringify(ids)) as { count: number; first: string | null };
  return r;
}

/** Whether the workspace has at least `n` rows dated before `endTs` (read through the time index, up to `n`). */
export function hasRowsBefore(db: Db, workspaceId: string, endTs: number, n: number): boolean {
  return prepareCached(db, 'SELECT 1 FROM transactions WHERE workspace_id = ? AND ts < ? LIMIT 1 OFFSET ?').get(workspaceId, endTs, n - 1) !== undefined;
}

/** A wallet's rows dated before `endTs`: how many, and the first. */
export function walletRowsBefore(db: Db, walletId: string, endTs: number): { first: string | null; count: number } {
  return prepareCached(
    db,
    `SELECT count(*) AS count, (SELECT id FROM transactions WHERE wallet_id = ? AND ts < ? ORDER BY ts, id LIMIT 1) AS first
     FROM transactions WHERE wallet_id = ? AND ts < ?`,
  ).get(walletId, endTs, walletId, endTs) as { count: number; first: string | null };
}

/**
 * A row's digest line (docs/periods.md, "Digests"): every field that matters to a report, with the
 * row's wallet, counterpart, tags and attachments by what they are rather than by id, as one JSON
 * array made by SQLite (handing 21 values per row to JavaScript cost more than the rest of the
 * digest). `t` is the row, `address` its wallet's address.
 */
const digestLine = (
  address: string,
) => `json_array(t.ts, t.chain, ${address}, t.tx_hash, t.transfer_key, t.from_address, t.to_address, t.token_symbol, t.token_address,
       t.token_decimals, t.amount, t.fiat_cents, t.fiat_value_source, t.direction, t.type, t.notes, t.spam, t.method,
       CASE WHEN t.tag_count > 0 THEN (SELECT json_group_array(name) FROM
         (SELECT g.name FROM transaction_tags x JOIN tags g ON g.id = x.tag_id WHERE x.transaction_id = t.id ORDER BY g.name)) END,
       CASE WHEN t.attachment_count > 0 THEN (SELECT json_group_array(sha256) FROM
         (SELECT a.sha256 FROM attachments a WHERE a.transaction_id = t.id ORDER BY a.sha256)) END,
       CASE WHEN t.transfer_id IS NOT NULL THEN (SELECT json_array(tr.kind, c.chain, cw.address, c.tx_hash, c.transfer_key)
         FROM transfers tr LEFT JOIN transactions c ON c.transfer_id = tr.id AND c.id <> t.id LEFT JOIN wallets cw ON cw.id = c.wallet_id
         WHERE tr.id = t.transfer_id) END)`;

/**
 * The rows of a closed period as its version-1 digest reads them: `[ts, line]` pairs in time order
 * (the time index: no sort of the whole period); within one second the caller orders the lines
 * (engine/rows-digest.ts), so no id decides the order.
 */
export function digestRows(db: Db, workspaceId: string, endTs: number): IterableIterator<[number, string]> {
  return prepareCached(
    db,
    `SELECT t.ts, ${digestLine('w.address')} AS line
     FROM transactions t INDEXED BY tx_by_time JOIN wallets w ON w.id = t.wallet_id
     WHERE t.workspace_id = ? AND t.ts < ?
     ORDER BY t.ts`,
  )
    .raw()
    .iterate(workspaceId, endTs) as IterableIterator<[number, string]>;
}

/**
 * The rows of a closed period as its version-2 digest reads them: `[ts, hash, line, rowid]` in
 * the order of tx_row_hashes (time, then hash; a row without one first in its second), the hash as
 * upper-case hex ('' for none), the line made only where the row has no hash (migration 32: none yet, or cleared
 * by a change). A period hashed before costs one read of that index and nothing of the table.
 * The wallet's address is looked up only for a line, so a row whose wallet is gone (removed by
 * SQL without its rows) still counts, with no address.
 */
export function hashedDigestRows(db: Db, workspaceId: string, endTs: number): IterableIterator<[number, string, string | null, number]> {
  return prepareCached(
    db,
    `SELECT t.ts, hex(t.row_hash), CASE WHEN t.row_hash IS NULL THEN ${digestLine('(SELECT w.address FROM wallets w WHERE w.id = t.wallet_id)')} END, t.rowid
     FROM transactions t INDEXED BY tx_row_hashes
     WHERE t.workspace_id = ? AND t.ts < ?
     ORDER BY t.ts, t.row_hash`,
  )
    .raw()
    .iterate(workspaceId, endTs) as IterableIterator<[number, string, string | null, number]>;
}

/** Keeps the digest hashes of rows (by rowid) made from the lines hashedDigestRows read in this transaction. */
export function storeRowHashes(db: Db, rowids: readonly number[], hashOf: (i: number) => Buffer): void {
  const put = prepareCached(db, 'UPDATE transactions SET row_hash = ? WHERE rowid = ? AND row_hash IS NULL');
  for (let i = 0; i < rowids.length; i++) put.run(hashOf(i), rowids[i]);
}
