/** Where each wallet's sync of each explorer list goes on from (migration 7), and what it learnt of failed txs (migration 19). */
import type { Db } from './db.js';

export function getSyncCursor(db: Db, walletId: string, list: string): number {
  const block = db.prepare('SELECT block FROM sync_cursors WHERE wallet_id = ? AND list = ?').pluck().get(walletId, list) as number | undefined;
  return block ?? 0;
}

export function setSyncCursor(db: Db, walletId: string, list: string, block: number): void {
  db.prepare('INSERT INTO sync_cursors (wallet_id, list, block) VALUES (?, ?, ?) ON CONFLICT (wallet_id, list) DO UPDATE SET block = excluded.block').run(
    walletId,
    list,
    block,
  );
}

/**
 * Hashes of the wallet's txs that failed, so a later sync still ignores their internal and token
 * rows: those a sync's txlist showed reverted, and (for wallets filled by an import) the wallet's
 * own, known by a fee row and nothing else (a tx that went through always has a value row, if only of 0).
 */
export function failedTxHashes(db: Db, walletId: string): Set<string> {
  const rows = db
    .prepare(
      `SELECT tx_hash FROM sync_failed_txs WHERE wallet_id = ?
       UNION SELECT tx_hash FROM transactions WHERE wallet_id = ? GROUP BY tx_hash
       HAVING sum(transfer_key LIKE 'fee:%') > 0 AND sum(transfer_key NOT LIKE 'fee:%') = 0`,
    )
    .pluck()
    .all(walletId, walletId) as string[];
  return new Set(rows);
}

export function addFailedTxHashes(db: Db, walletId: string, hashes: string[]): void {
  const insert = db.prepare('INSERT OR IGNORE INTO sync_failed_txs (wallet_id, tx_hash) VALUES (?, ?)');
  for (const hash of hashes) insert.run(walletId, hash);
}

/** The tx hashes of a wallet's rows: a Bitcoin sync walks an address's pages back to the first of these (docs/sync.md "Bitcoin"). */
export function walletTxHashes(db: Db, workspaceId: string, walletId: string): Set<string> {
  // The workspace keeps to the index tx_by_wallet.
  const sql = 'SELECT DISTINCT tx_hash FROM transactions WHERE workspace_id = ? AND wallet_id = ?';
  return new Set(db.prepare(sql).pluck().all(workspaceId, walletId) as string[]);
}
