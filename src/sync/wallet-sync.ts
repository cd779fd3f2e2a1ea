/**
 * `txa wallet sync` on the local engine (docs/sync.md): each wallet's lists from its explorer,
 * page by page from the stored cursors; each batch of whole blocks goes through the import
 * pipeline (engine/imports.ts: same identities, `transaction.created` per new row) together with
 * its cursor in one database transaction. At the end the wallet gets `last_synced` and one
 * `wallet.synced` with the counts. A failure keeps every batch written before it.
 */
import type { Engine } from '../engine/engine.js';
import { importRecords, type ImportSummary } from '../engine/imports.js';
import { refuseExchangeSync, requireWallet } from '../engine/wallets.js';
import { TxaError } from '../core/errors.js';
import { nowIso } from '../core/clock.js';
import type { Chain } from '../core/types.js';
import { addFailedTxHashes, failedTxHashes, getSyncCursor, setSyncCursor } from '../store/sync-cursors.js';
import { setWalletSynced, type WalletRow } from '../store/ledger.js';
import { syncableWalletIds } from '../store/workspace-wallets.js';
import { ExplorerApi } from './explorer-api.js';
import { pages, type Batch } from './pager.js';
import { TokenBucket } from './rate-limiter.js';
import { addL1Fees } from './l1-fees.js';
import { recordsOf, type BatchRecords } from './rows.js';
import { LISTS, blockOf, whereOf, type ListName } from './row-fields.js';
import type { ExplorerWallet } from '../importers/explorer-records.js';
import { sourceFor, type ExplorerSource, type SyncSettings } from './settings.js';
import { syncBitcoin } from './bitcoin/bitcoin-sync.js';

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

/** Beacon withdrawals exist on Ethereum, and only Etherscan lists them; Esplora has no lists (src/sync/bitcoin/). */
function listsOf(source: ExplorerSource): ListName[] {
  if (source.kind === 'esplora') return [];
  return LISTS.filter((l) => l !== 'txsBeaconWithdrawal' || (source.kind === 'etherscan' && source.chain === 'ethereum'));
}

/** One wallet's run: what it syncs from where, and its counts so far. */
interface WalletRun {
  wallet: WalletRow;
  chain: Chain;
  source: ExplorerSource;
  api: ExplorerApi;
  lists: ListName[];
  explorerWallet: ExplorerWallet;
  /** The wallet's reverted transaction hashes; each txlist batch adds its own. */
  failed: Set<string>;
  created: number;
  duplicates: number;
  lastBlock: number;
  /** Calls of a Bitcoin wallet's Esplora API (the explorer API's own count is `api.requests`). */
  requests: number;
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
    const run = this.begin(walletId);
    try {
      if (run.source.kind === 'esplora') await syncBitcoin(this.engine, this.workspaceId, run.wallet, this.settings, this.limiter, run, this.opts);
      for (const [done, list] of run.lists.entries()) await this.syncList(run, list, done);
    } catch (err) {
      throw stopped(run, err, this.opts.dryRun);
    }
    const lastSynced = this.opts.dryRun ? run.wallet.last_synced : this.markSynced(run);
    return {
      wallet_id: run.wallet.id,
      chain: run.chain,
      source: run.source.kind,
      new_transactions: run.created,
      duplicates: run.duplicates,
      requests: run.api.requests + run.requests,
      last_block: run.lastBlock,
      last_synced: lastSynced,
    };
  }

  /** The wallet, its explorer and its lists, nothing counted yet. */
  private begin(walletId: string): WalletRun {
    const wallet = requireWallet(this.engine, this.workspaceId, walletId);
    refuseExchangeSync(wallet);
    const chain = wallet.chain as Chain;
    const source = sourceFor(chain, this.settings);
    const api = new ExplorerApi(source, this.limiter, this.settings.limits, this.opts.onNotice);
    const failed = failedTxHashes(this.engine.db, wallet.id);
    const explorerWallet = { address: wallet.address, chain };
    return { wallet, chain, source, api, lists: listsOf(source), explorerWallet, failed, created: 0, duplicates: 0, lastBlock: 0, requests: 0 };
  }

  /** One list of the wallet, page by page from its stored cursor. */
  private async syncList(run: WalletRun, list: ListName, done: number): Promise<void> {
    const { wallet, api } = run;
    const from = getSyncCursor(this.engine.db, wallet.id, list);
    // The cursor is where the next call starts: the block before it was walked to its end.
    run.lastBlock = Math.max(run.lastBlock, from - 1);
    this.progress(run, list, done, from);
    for await (const batch of pages(api, list, wallet.address, from, this.settings.pageSize)) {
      if (list === 'txlist') await addL1Fees(api, batch.rows, wallet.address);
      const summary = this.writeBatch(run, list, batch);
      run.created += summary?.imported ?? 0;
      run.duplicates += summary?.duplicates ?? 0;
      for (const row of batch.rows) run.lastBlock = Math.max(run.lastBlock, blockOf(row));
      this.progress(run, list, done, batch.cursor);
    }
  }

  /** A batch's new rows, its reverted hashes and the list's cursor in one transaction; on a dry run, the rows' summary only. */
  private writeBatch(run: WalletRun, list: ListName, batch: Batch): ImportSummary | undefined {
    const { engine, opts } = this;
    const { wallet, source, chain } = run;
    const { records, skipped, failed: reverted } = recordsOf(list, run.explorerWallet, batch.rows, run.failed);
    this.tellSkipped(run.api, list, skipped);
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
    return opts.dryRun ? write() : engine.write(write);
  }

  /** The wallet's `last_synced` and its `wallet.synced` event, in one transaction; returns the time. */
  private markSynced(run: WalletRun): string {
    const { engine } = this;
    const { wallet } = run;
    const now = nowIso();
    engine.write(() => {
      setWalletSynced(engine.db, wallet.id, now);
      const { workspace_id: _, ...body } = { ...wallet, last_synced: now };
      engine.change(this.workspaceId, 'wallet.synced', wallet.id, {
        wallet: body,
        source: run.source.kind,
        new_transactions: run.created,
        duplicates: run.duplicates,
      });
    });
    return now;
  }

  private progress(run: WalletRun, list: ListName, done: number, block: number): void {
    const { wallet } = run;
    this.opts.onProgress?.({ walletId: wallet.id, label: wallet.label, list, done, lists: run.lists.length, block, newTransactions: run.created });
  }

  /** Rows left out for a reason no rule of docs/sync.md gives are said aloud: one stderr line per batch. */
  private tellSkipped(api: ExplorerApi, list: ListName, skipped: BatchRecords['skipped']): void {
    if (skipped.length === 0) return;
    const { row, why } = skipped[0]!;
    const n = skipped.length;
    this.opts.onNotice?.(`${api.name} ${list}: ${n} row${n === 1 ? '' : 's'} left out, as ${why} (the first: ${whereOf(row)})`);
  }
}

/** The error that stopped a wallet's sync, saying whose sync stopped and what it kept, whatever stopped it. */
function stopped(run: WalletRun, err: unknown, dryRun: boolean | undefined): TxaError {
  const { wallet, created } = run;
  const e = err instanceof TxaError ? err : new TxaError('INTERNAL_ERROR', String((err as Error)?.message ?? err), { cause: err });
  const kept = dryRun ? '' : `; ${created} new transaction${created === 1 ? '' : 's'} kept`;
  return new TxaError(e.code, `wallet ${wallet.id}: ${e.message}${kept}`, {
    field: e.field,
    hint: e.hint,
    extra: { ...e.extra, wallet_id: wallet.id, new_transactions: created },
    cause: err,
  });
}

/** Every wallet of the workspace, oldest first (`--all`). */
export function walletIdsOf(engine: Engine, workspaceId: string): string[] {
  engine.workspace(workspaceId);
  return syncableWalletIds(engine.db, workspaceId);
}
