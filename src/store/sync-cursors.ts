/** Where each wallet's sync of each explorer list goes on from (migration 7). */
import type { Db } from './db.js';

export function getSyncCursor(db: Db, walletId: string, list: string): number {
  const block = db.prepare('SELECT block FROM sync_cursors WHERE wallet_id = ? AND list = ?').pluck().get(walletId, list) as number | undefined;
  return block ?? 0;
}

export function setSyncCursor(db: Db, walletId: string, list: string, block: number): void {
  db.prepare('INSERT INTO sync_cursors (wallet_id, list, block) VALUES (?, ?, ?) ON CONFLICT (wallet_id, list) DO UPDATE SET block = excluded.block').run(walletId, list, block);
}

/**
 * Hashes of the wallet's own txs that failed: a fee row and nothing else (a tx that went through
 * always has a value row, if only of 0), so a later sync still ignores their internal and token rows.
 */
export function failedTxHashes(db: Db, walletId: string): Set<string> {
  const rows = db
    .prepare(
      `SELECT tx_hash FROM transactions WHERE wallet_id = ? GROUP BY tx_hash
       HAVING sum(transfer_key LIKE 'fee:%') > 0 AND sum(transfer_key NOT LIKE 'fee:%') = 0`,
    )
    .pluck()
    .all(walletId) as string[];
  return new Set(rows);
}
