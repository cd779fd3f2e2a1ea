/**
 * Bulk inserts into the transactions table. Apart from transactions.ts because they also feed
 * the rollups, and rollups.ts reads transactions.ts's filter clauses: here both are used, and
 * neither imports the other.
 */
import type { Db } from './db.js';
import type { NewTransaction } from './transactions.js';
import { addToRollups } from './rollups.js';

/**
 * Inserts rows, skipping those whose identity (wallet, hash, transfer) exists already, and
 * keeps the rollups in step. Call inside a write transaction. Returns the rows inserted.
 */
export function insertTransactions<T extends NewTransaction>(db: Db, rows: T[], createdAt: number): T[] {
  const stmt = db.prepare(
    `INSERT OR IGNORE INTO transactions (id, workspace_id, wallet_id, chain, tx_hash, transfer_key, from_address, to_address,
      token_symbol, token_address, token_decimals, amount, amount_key, fiat_cents, direction, type, ts, notes, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const inserted: T[] = [];
  for (const r of rows) {
    const info = stmt.run(
      r.id, r.workspace_id, r.wallet_id, r.chain, r.tx_hash, r.transfer_key, r.from_address, r.to_address,
      r.token_symbol, r.token_address, r.token_decimals, r.amount, r.amount_key, r.fiat_cents, r.direction, r.type, r.ts, r.notes, createdAt,
    );
    if (info.changes === 1) inserted.push(r);
  }
  addToRollups(db, inserted);
  return inserted;
}
