/**
 * Syncs run by `txa serve` (docs/sync.md "Served"): the worker claims the oldest queued record, runs the
 * same `WalletSync` as `txa wallet sync` and writes its progress and outcome to the record, which
 * GET /wallets/:id/sync shows. A sync whose process died is queued again at the next start and
 * goes on from the wallet's cursors (nothing lost or repeated); the counts of the cut-off run
 * are kept and added to. `--sync-every` queues a sync for each wallet whose explorer is available.
 */
import type { Engine } from '../engine/engine.js';
import { ownerGone, ownerOf, parseOwner } from '../engine/job-owner.js';
import { requestWalletSync } from '../engine/wallet-syncs.js';
import { TxaError } from '../core/errors.js';
import { nowIso } from '../core/clock.js';
import type { Chain } from '../core/types.js';
import {
  activeSyncRow,
  claimQueuedSync,
  finishSync,
  getSyncRow,
  requeueSync,
  runningSyncRows,
  updateSyncProgress,
  type SyncEnd,
  type WalletSyncRow,
} from '../store/wallet-syncs.js';
import { allWalletChains } from '../store/workspace-wallets.js';
import { WalletSync, type SyncResult } from './wallet-sync.js';
import { sourceFor, type SyncSettings } from './settings.js';

const wallSeconds = () => Math.floor(Date.now() / 1000);

/**
 * A sync whose process died this often while running it is not started again: whatever killed
 * the process (an answer that exhausts its memory, a crash) would kill the next one too.
 */
export const MAX_SYNC_ATTEMPTS = 3;

/**
 * Puts back in the queue the syncs left running by processes that are gone, or fails them once
 * they have died MAX_SYNC_ATTEMPTS times (docs/sync.md, Served); the ids put back.
 */
export function recoverInterruptedSyncs(engine: Engine): string[] {
  const wallNow = wallSeconds();
  const gone = runningSyncRows(engine.db).filter((r) => ownerGone(parseOwner(r.worker), r.heartbeat_ts, wallNow));
  return engine.write(() =>
    gone
      .filter((r) => {
        if (r.attempts < MAX_SYNC_ATTEMPTS) return requeueSync(engine.db, r.id, r.worker);
        const message = `the sync stopped the server running it ${r.attempts} times (a crash or a restart each time), so it is not started again; the rows it stored are kept`;
        finishSync(engine.db, r.id, { ...endOf(r), status: 'failed', error_code: 'SYNC_FAILED', error_message: message });
        return false;
      })
      .map((r) => r.id),
  );
}

/** A record's counts as a finished sync keeps them, ending now. */
function endOf(r: WalletSyncRow): Omit<SyncEnd, 'status' | 'error_code' | 'error_message'> {
  return {
    source: r.source,
    new_transactions: r.new_transactions,
    duplicates: r.duplicates,
    requests: r.requests,
    last_block: null,
    last_synced: null,
    completed_at: nowIso(),
  };
}

/** Takes the oldest queued sync for this process; its id, or null. */
export function claimNextSync(engine: Engine): string | null {
  return engine.write(() => claimQueuedSync(engine.db, ownerOf('serve'), wallSeconds(), nowIso()));
}

/** The counts a run cut off earlier (a restart) left in the record: this run adds to them. */
type Counts = Pick<WalletSyncRow, 'new_transactions' | 'duplicates' | 'requests'>;

/** Runs a claimed sync to its end: the record ends `completed` with the counts, or `failed` with the error. */
export async function runSyncJob(engine: Engine, id: string, settings: SyncSettings): Promise<void> {
  const row = getSyncRow(engine.db, id);
  if (!row) return; // its wallet was removed meanwhile
  const before: Counts = { new_transactions: row.new_transactions, duplicates: row.duplicates, requests: row.requests };
  let source: string | null = row.source;
  try {
    source = sourceFor(row.chain as Chain, settings).kind;
    // The rows and events are the changes of whoever asked for the sync (docs/transfers.md "The audit trail").
    const sync = new WalletSync(engine.as(row.requested_by ?? engine.actor), row.workspace_id, settings, {
      onProgress: (p) =>
        engine.write(() =>
          updateSyncProgress(engine.db, id, {
            source: source!,
            new_transactions: before.new_transactions + p.newTransactions,
            duplicates: before.duplicates,
            requests: before.requests,
            heartbeat_ts: wallSeconds(),
          }),
        ),
    });
    completeSync(engine, id, before, await sync.sync(row.wallet_id));
  } catch (err) {
    failSync(engine, id, before, source, err);
  }
}

function completeSync(engine: Engine, id: string, before: Counts, r: SyncResult): void {
  engine.write(() =>
    finishSync(engine.db, id, {
      status: 'completed',
      source: r.source,
      new_transactions: before.new_transactions + r.new_transactions,
      duplicates: before.duplicates + r.duplicates,
      requests: before.requests + r.requests,
      last_block: r.last_block,
      last_synced: r.last_synced,
      error_code: null,
      error_message: null,
      completed_at: nowIso(),
    }),
  );
}

/** The record ends `failed`, with the rows the run kept; an unexpected error is `internal error` there, its own text in the log. */
function failSync(engine: Engine, id: string, before: Counts, source: string | null, err: unknown): void {
  // The record is served: an unexpected error's own text (SQLite's, a stack) stays in the log.
  const expected = err instanceof TxaError && err.code !== 'INTERNAL_ERROR';
  const e = expected ? err : new TxaError('INTERNAL_ERROR', 'internal error', { cause: err });
  if (!expected) process.stderr.write(`wallet sync ${id} failed: ${(err as Error).stack ?? String(err)}\n`);
  const kept = Number((err as TxaError).extra?.new_transactions ?? 0);
  engine.write(() =>
    finishSync(engine.db, id, {
      status: 'failed',
      source,
      new_transactions: before.new_transactions + kept,
      duplicates: before.duplicates,
      requests: before.requests,
      last_block: null,
      last_synced: null,
      error_code: e.code,
      error_message: e.message,
      completed_at: nowIso(),
    }),
  );
}

/**
 * `serve --sync-every`: queues a sync for every wallet of every workspace whose chain has an
 * explorer available with these settings (a key for Etherscan, or a Blockscout), except wallets
 * whose sync is still queued or running. Returns how many were queued.
 */
export function queueDueSyncs(engine: Engine, settings: SyncSettings): number {
  let queued = 0;
  for (const w of allWalletChains(engine.db)) {
    if (!sourceAvailable(w.chain, settings) || activeSyncRow(engine.db, w.id)) continue;
    requestWalletSync(engine, w.workspace_id, w.id);
    queued++;
  }
  return queued;
}

function sourceAvailable(chain: Chain, settings: SyncSettings): boolean {
  try {
    sourceFor(chain, settings);
    return true;
  } catch {
    return false;
  }
}
