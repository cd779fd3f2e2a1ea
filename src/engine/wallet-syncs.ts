/**
 * Sync requests (docs/sync.md "Served", POST/GET /wallets/:id/sync): a queued status record that the sync
 * worker of `txa serve` runs (src/sync/sync-jobs.ts). One sync per wallet at a time: asking again
 * while one is queued or running answers that one.
 */
import type { Engine } from './engine.js';
import { TxaError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { nowIso } from '../core/clock.js';
import type { WalletSyncRecord } from '../core/types.js';
import { activeSyncRow, getSyncRow, insertQueuedSync, latestSyncRow, syncRecordOf } from '../store/wallet-syncs.js';
import { refuseExchangeSync, requireWallet } from './wallets.js';

export function requestWalletSync(engine: Engine, workspaceId: string, walletId: string): WalletSyncRecord {
  return engine.write(() => {
    const wallet = requireWallet(engine, workspaceId, walletId);
    refuseExchangeSync(wallet);
    const active = activeSyncRow(engine.db, wallet.id);
    if (active) return syncRecordOf(active);
    const id = newId('sync');
    insertQueuedSync(engine.db, { id, workspace_id: workspaceId, wallet_id: wallet.id, chain: wallet.chain, created_at: nowIso(), requested_by: engine.actor });
    return syncRecordOf(getSyncRow(engine.db, id)!);
  });
}

/** The wallet's newest sync; NOT_FOUND when it never had one. */
export function walletSyncStatus(engine: Engine, workspaceId: string, walletId: string): WalletSyncRecord {
  const wallet = requireWallet(engine, workspaceId, walletId);
  const row = latestSyncRow(engine.db, wallet.id);
  if (!row) {
    throw new TxaError('NOT_FOUND', `wallet ${walletId} has no sync yet`, { hint: `Start one with: POST /api/v1/wallets/${walletId}/sync` });
  }
  return syncRecordOf(row);
}
