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
      token_symbol, token_address, token_decimals, amount, amount_key, fiat_cents, direction, type, ts, notes, created_at, fiat_value_source, spam)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const inserted: T[] = [];
  for (const r of rows) {
    const info = stmt.run(
      r.id, r.workspace_id, r.wallet_id, r.chain, r.tx_hash, r.transfer_key, r.from_address, r.to_address,
      r.token_symbol, r.token_address, r.token_decimals, r.amount, r.amount_key, r.fiat_cents, r.direction, r.type, r.ts, r.notes, createdAt,
      sourceOf(r), r.spam ?? 0,
    );
    if (info.changes === 1) inserted.push(r);
  }
  addToRollups(db, inserted.filter((r) => !r.spam));
  addToBalanceDays(db, inserted);
  return inserted;
}

/**
 * Sets a row's fiat value, its source and its spam flag, keeping the rollups (which count the
 * rows that are not spam) in step. Call inside a write transaction.
 */
export function updateValue(db: Db, row: TransactionRow, next: Pick<TransactionRow, 'fiat_cents' | 'fiat_value_source' | 'spam'>): void {
  if (next.fiat_cents === row.fiat_cents && next.fiat_value_source === row.fiat_value_source && next.spam === row.spam) return;
  if (!row.spam) addToRollups(db, [row], -1);
  prepareCached(db, 'UPDATE transactions SET fiat_cents = ?, fiat_value_source = ?, spam = ? WHERE id = ?').run(next.fiat_cents, next.fiat_value_source, next.spam, row.id);
  if (!next.spam) addToRollups(db, [{ ...row, fiat_cents: next.fiat_cents }], 1);
}
