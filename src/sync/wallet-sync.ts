/**
 * `txa wallet sync` on the local engine (docs/sync.md): each wallet's lists from its explorer,
 * page by page from the stored cursors; each batch of whole blocks goes through the import
 * pipeline (engine/imports.ts: same identities, `transaction.created` per new row) together with
 * its cursor in one database transaction. At the end the wallet gets `last_synced` and one
 * `wallet.synced` with the counts. A failure keeps every batch written before it.
 */
import type { Engine } from '../engine/engine.js';
import { importRecords } from '../engine/imports.js';
import { refuseExchangeSync, requireWallet } from '../engine/wallets.js';
import { TxaError } from '../core/errors.js';
import { nowIso } from '../core/clock.js';
import type { Chain } from '../core/types.js';
import { addFailedTxHashes, failedTxHashes, getSyncCursor, setSyncCursor } from '../store/sync-cursors.js';
import { setWalletSynced } from '../store/ledger.js';
import { syncableWalletIds } from '../store/workspace-wallets.js';
import { ExplorerApi } from './explorer-api.js';
import { pages } from './pager.js';
import { TokenBucket } from './rate-limiter.js';
import { addL1Fees } from './l1-fees.js';
import { recordsOf, type BatchRecords } from './rows.js';
import { LISTS, blockOf, whereOf, type ListName } from './row-fields.js';
import { sourceFor, type ExplorerSource, type SyncSettings } from './settings.js';

/** One wallet's outcome, as `--json` prints it. */
export interface SyncResult {
  wallet_id: string;
  chain: Chain;
  source: ExplorerSource['kind'];
  new_transactions: number;
  duplicates: number;
  requests: number;
  last_block: number;
  last_synced: string | null;
}

export interface SyncProgress {
  walletId: string;
  label: string;
  list: ListName;
  /** Lists done before this one, and how many the wallet has. */
  done: number;
  lists: number;
  block: number;
  newTransactions: number;
}

export interface SyncOptions {
  dryRun?: boolean;
  onProgress?: (p: SyncProgress) => void;
  /** Told of each retry (rate limits, server errors), for stderr. */
  onNotice?: (message: string) => void;
  /** Runs on each batch's new rows inside the batch's transaction (`--rules`). */
  onInserted?: (ids: string[]) => void;
}

/** Beacon withdrawals exist on Ethereum, and only Etherscan lists them. */
function listsOf(source: ExplorerSource): ListName[] {
  return LISTS.filter((l) => l !== 'txsBeaconWithdrawal' || (source.kind === 'etherscan' && source.chain === 'ethereum'));
}

export class WalletSync {
  /** One limiter for the whole run: the explorer's limit is per account, over every wallet. */
  private readonly limiter: TokenBucket;

  constructor(
    private readonly engine: Engine,
    private readonly workspaceId: string,
    private readonly settings: SyncSettings,
    private readonly opts: SyncOptions = {},
  ) {
    this.limiter = new TokenBucket(settings.rps);
  }

  async sync(walletId: string): Promise<SyncResult> {
    const { engine, opts } = this;
    const wallet = requireWallet(engine, this.workspaceId, walletId);
    refuseExchangeSync(wallet);
    const chain = wallet.chain as Chain;
    const source = sourceFor(chain, this.settings);
    const api = new ExplorerApi(source, this.limiter, this.settings.limits, opts.onNotice);
    const lists = listsOf(source);
    const explorerWallet = { address: wallet.address, chain };
    const failed = failedTxHashes(engine.db, wallet.id);
    let created = 0;
    let duplicates = 0;
    let lastBlock = 0;
    try {
      for (const [done, list] of lists.entries()) {
        const from = getSyncCursor(engine.db, wallet.id, list);
        // The cursor is where the next call starts: the block before it was walked to its end.
        lastBlock = Math.max(lastBlock, from - 1);
        opts.onProgress?.({ walletId: wallet.id, label: wallet.label, list, done, lists: lists.length, block: from, newTransactions: created });
        for await (const batch of pages(api, list, wallet.address, from, this.settings.pageSize)) {
          if (list === 'txlist') await addL1Fees(api, batch.rows, wallet.address);
          const { records, skipped, failed: reverted } = recordsOf(list, explorerWallet, batch.rows, failed);
          this.tellSkipped(api, list, skipped);
          const write = () => {
            const summary =
              records.length > 0
                ? importRecords(engine, this.workspaceId, records, {
                    walletId: wallet.id,
                    dryRun: opts.dryRun,
                    format: 'sync',
                    source: { sync: source.kind, chain, list },
                    walletSynced: false,
                    onInserted: opts.onInserted,
                  })
                : undefined;
            if (!opts.dryRun) {
              addFailedTxHashes(engine.db, wallet.id, reverted);
              setSyncCursor(engine.db, wallet.id, list, batch.cursor);
            }
            return summary;
          };
          const summary = opts.dryRun ? write() : engine.write(write);
          created += summary?.imported ?? 0;
          duplicates += summary?.duplicates ?? 0;
          for (const row of batch.rows) lastBlock = Math.max(lastBlock, blockOf(row));
          opts.onProgress?.({ walletId: wallet.id, label: wallet.label, list, done, lists: lists.length, block: batch.cursor, newTransactions: created });
        }
      }
    } catch (err) {
      // Say whose sync stopped and what it kept, whatever stopped it.
      const e = err instanceof TxaError ? err : new TxaError('INTERNAL_ERROR', String((err as Error)?.message ?? err), { cause: err });
      const kept = opts.dryRun ? '' : `; ${created} new transaction${created === 1 ? '' : 's'} kept`;
      throw new TxaError(e.code, `wallet ${wallet.id}: ${e.message}${kept}`, {
        field: e.field,
        hint: e.hint,
        extra: { ...e.extra, wallet_id: wallet.id, new_transactions: created },
        cause: err,
      });
    }
    let lastSynced = wallet.last_synced;
    if (!opts.dryRun) {
      const now = nowIso();
      lastSynced = now;
      engine.write(() => {
        setWalletSynced(engine.db, wallet.id, now);
        const { workspace_id: _, ...body } = { ...wallet, last_synced: now };
        engine.change(this.workspaceId, 'wallet.synced', wallet.id, { wallet: body, source: source.kind, new_transactions: created, duplicates });
      });
    }
    return {
      wallet_id: wallet.id,
      chain,
      source: source.kind,
      new_transactions: created,
      duplicates,
      requests: api.requests,
      last_block: lastBlock,
      last_synced: lastSynced,
    };
  }

  /** Rows left out for a reason no rule of docs/sync.md gives are said aloud: one stderr line per batch. */
  private tellSkipped(api: ExplorerApi, list: ListName, skipped: BatchRecords['skipped']): void {
    if (skipped.length === 0) return;
    const { row, why } = skipped[0]!;
    const n = skipped.length;
    this.opts.onNotice?.(`${api.name} ${list}: ${n} row${n === 1 ? '' : 's'} left out, as ${why} (the first: ${whereOf(row)})`);
  }
}

/** Every wallet of the workspace, oldest first (`--all`). */
export function walletIdsOf(engine: Engine, workspaceId: string): string[] {
  engine.workspace(workspaceId);
  return syncableWalletIds(engine.db, workspaceId);
}
