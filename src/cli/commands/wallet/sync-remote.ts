/**
 * `txa wallet sync` against a remote API (docs/sync.md "Served"): POST /wallets/:id/sync, then GET its
 * status until it ends. The server's worker runs the sync; the result is the same object the
 * local sync prints, and a failed sync is its error (same code, so the same exit code).
 */
import type { Backend } from '../../../core/backend.js';
import { TxaError, type ErrorCode } from '../../../core/errors.js';
import type { WalletSyncRecord } from '../../../core/types.js';
import type { SyncResult } from '../../../local/services.js';

/**
 * The wait before the next look at a sync that has run `elapsedMs`: a fifth of that, from 1 s to
 * 60 s. Every look is an API request of the workspace's hourly budget (100 on the free tier), so a
 * short sync is seen to end within a second or two, and an hour-long one costs about 80 looks
 * instead of 3,600, learning its end at most a fifth of its run time late.
 */
export function pollDelayMs(elapsedMs: number): number {
  return Math.min(60_000, Math.max(1000, Math.round(elapsedMs / 5)));
}

export async function remoteSync(backend: Backend, ws: string, walletId: string, onStatus: (r: WalletSyncRecord) => void): Promise<SyncResult> {
  const started = Date.now();
  let record = await backend.requestWalletSync(ws, walletId);
  while (record.status === 'queued' || record.status === 'running') {
    onStatus(record);
    await new Promise((r) => setTimeout(r, pollDelayMs(Date.now() - started)));
    record = await backend.walletSyncStatus(ws, walletId);
  }
  if (record.status === 'failed') {
    const error = record.error ?? { code: 'SYNC_FAILED', message: `the sync of wallet ${walletId} failed` };
    throw new TxaError(error.code as ErrorCode, error.message, {
      extra: { wallet_id: walletId, new_transactions: record.new_transactions },
      hint: 'What was fetched is kept; run txa wallet sync again to go on from there.',
    });
  }
  return {
    wallet_id: record.wallet_id,
    chain: record.chain,
    source: record.source ?? 'etherscan',
    new_transactions: record.new_transactions,
    duplicates: record.duplicates,
    requests: record.requests,
    last_block: record.last_block ?? 0,
    last_synced: record.last_synced,
  };
}

/** Every wallet of the workspace, oldest first (`--all`), page by page. */
export async function remoteWalletIds(backend: Backend, ws: string): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const res = await backend.listWallets(ws, { workspace_id: ws, page: String(page), limit: '100' });
    // An exchange account has nothing to sync (docs/sync.md): `--all` means every address wallet.
    ids.push(...res.data.filter((w) => w.kind !== 'exchange').map((w) => w.id));
    if (page >= res.pagination.pages) return ids;
  }
}
