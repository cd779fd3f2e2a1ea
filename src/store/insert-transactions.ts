/**
 * Writes to the transactions table that the rollups must follow (inserts, value and spam
 * changes). Apart from transactions.ts because rollups.ts reads transactions.ts's filter
 * clauses: here both are used, and neither imports the other.
 */
import type { Db } from './db.js';
import { prepareCached } from './statements.js';
import { sourceOf, type NewTransaction, type TransactionRow } from './transactions.js';
import { addToRollups } from './rollups.js';
import { addToBalanceDays } from './balance-days.js';

/**
 * Inserts rows, skipping those whose identity (wallet, hash, transfer) exists already, and
 * keeps the rollups in step. Call inside a write transaction. Returns the rows inserted.
 */
export function insertTransactions<T extends NewTransaction>(db: Db, rows: T[], createdAt: number): T[] {
  const stmt = db.prepare(
    `INSERT OR IGNORE INTO transactions (id, workspace_id, wallet_id, chain, tx_hash, transfer_key, from_address, to_address,
      token_symbol, token_address, token_decimals, amount, amount_key, fiat_cents, direction, type, ts, notes, created_at, fiat_value_source, spam, method, tag_count, block, block_position)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const inserted: T[] = [];
  for (const r of rows) {
    const info = stmt.run(
      r.id,
      r.workspace_id,
      r.wallet_id,
      r.chain,
      r.tx_hash,
      r.transfer_key,
      r.from_address,
      r.to_address,
      r.token_symbol,
      r.token_address,
      r.token_decimals,
      r.amount,
      r.amount_key,
      r.fiat_cents,
      r.direction,
      r.type,
      r.ts,
      r.notes,
      createdAt,
      sourceOf(r),
      r.spam ?? 0,
      r.method ?? null,
      r.tag_count ?? 0,
      r.block ?? null,
      r.block_position ?? null,
    );
    if (info.changes === 1) inserted.push(r);
  }
  addToRollups(
    db,
    inserted.filter((r) => !r.spam),
  );
  addToBalanceDays(db, inserted);
  return inserted;
}

/** A row and the value, source and spam flag it is to get. */
export interface ValueChange {
  row: TransactionRow;
  next: Pick<TransactionRow, 'fiat_cents' | 'fiat_value_source' | 'spam'>;
}

/**
 * Sets rows' fiat values, sources and spam flags, keeping the rollups (which count the rows that
 * are not spam) in step: the old values out and the new ones in, each summed per rollup key in
 * memory and applied once per key. Call inside a write transaction.
 */
export function updateValues(db: Db, changes: ValueChange[]): void {
  const changed = changes.filter(
    ({ row, next }) => next.fiat_cents !== row.fiat_cents || next.fiat_value_source !== row.fiat_value_source || next.spam !== row.spam,
  );
  if (changed.length === 0) return;
  addToRollups(
    db,
    changed.filter((c) => !c.row.spam).map((c) => c.row),
    -1,
  );
  const update = prepareCached(db, 'UPDATE transactions SET fiat_cents = ?, fiat_value_source = ?, spam = ? WHERE id = ?');
  for (const { row, next } of changed) update.run(next.fiat_cents, next.fiat_value_source, next.spam, row.id);
  addToRollups(
    db,
    changed.filter((c) => !c.next.spam).map((c) => ({ ...c.row, fiat_cents: c.next.fiat_cents })),
    1,
  );
}

/** updateValues for one row. */
export function updateValue(db: Db, row: TransactionRow, next: ValueChange['next']): void {
  updateValues(db, [{ row, next }]);
}
