/** The status records of syncs run by `txa serve` (migration 11, docs/sync.md "Served"). */
import type { Db } from './db.js';
import type { WalletSyncRecord, WalletSyncStatus } from '../core/types.js';

export interface WalletSyncRow {
  id: string;
  workspace_id: string;
  wallet_id: string;
  status: WalletSyncStatus;
  chain: string;
  source: string | null;
  new_transactions: number;
  duplicates: number;
  requests: number;
  last_block: number | null;
  last_synced: string | null;
  error_code: string | null;
  error_message: string | null;
  worker: string | null;
  heartbeat_ts: number | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  /** Who asked (the acting key's member id, or the serve's own actor for `--sync-every`): the sync's changes are theirs. */
  requested_by: string | null;
  /** How often a worker took it: more than once only when a process died running it. */
  attempts: number;
}

/** Finished records kept per wallet besides the active one: `--sync-every` adds one each time. */
const KEEP_FINISHED = 10;

export function syncRecordOf(r: WalletSyncRow): WalletSyncRecord {
  return {
    id: r.id,
    wallet_id: r.wallet_id,
    status: r.status,
    chain: r.chain as WalletSyncRecord['chain'],
    source: r.source as WalletSyncRecord['source'],
    new_transactions: r.new_transactions,
    duplicates: r.duplicates,
    requests: r.requests,
    last_block: r.last_block,
    last_synced: r.last_synced,
    error: r.error_code ? { code: r.error_code, message: r.error_message ?? '' } : null,
    created_at: r.created_at,
    started_at: r.started_at,
    completed_at: r.completed_at,
  };
}

export function getSyncRow(db: Db, id: string): WalletSyncRow | undefined {
  return db.prepare('SELECT * FROM wallet_syncs WHERE id = ?').get(id) as WalletSyncRow | undefined;
}

/** The wallet's newest sync (rowid order is insertion order). */
export function latestSyncRow(db: Db, walletId: string): WalletSyncRow | undefined {
  return db.prepare('SELECT * FROM wallet_syncs WHERE wallet_id = ? ORDER BY rowid DESC LIMIT 1').get(walletId) as WalletSyncRow | undefined;
}

/** The wallet's queued or running sync, if any. */
export function activeSyncRow(db: Db, walletId: string): WalletSyncRow | undefined {
  return db.prepare("SELECT * FROM wallet_syncs WHERE wallet_id = ? AND status IN ('queued', 'running')").get(walletId) as WalletSyncRow | undefined;
}

/** Adds a queued record and drops the wallet's finished ones beyond the newest KEEP_FINISHED. */
export function insertQueuedSync(db: Db, row: Pick<WalletSyncRow, 'id' | 'workspace_id' | 'wallet_id' | 'chain' | 'created_at' | 'requested_by'>): void {
  db.prepare("INSERT INTO wallet_syncs (id, workspace_id, wallet_id, status, chain, created_at, requested_by) VALUES (?, ?, ?, 'queued', ?, ?, ?)").run(
    row.id,
    row.workspace_id,
    row.wallet_id,
    row.chain,
    row.created_at,
    row.requested_by,
  );
  db.prepare(
    `DELETE FROM wallet_syncs WHERE wallet_id = ? AND status IN ('completed', 'failed') AND rowid NOT IN
     (SELECT rowid FROM wallet_syncs WHERE wallet_id = ? AND status IN ('completed', 'failed') ORDER BY rowid DESC LIMIT ?)`,
  ).run(row.wallet_id, row.wallet_id, KEEP_FINISHED);
}

/** Takes the oldest queued sync for `worker`; its id, or null when none waits. */
export function claimQueuedSync(db: Db, worker: string, heartbeatTs: number, startedAt: string): string | null {
  const id = db.prepare("SELECT id FROM wallet_syncs WHERE status = 'queued' ORDER BY rowid LIMIT 1").pluck().get() as string | undefined;
  if (id === undefined) return null;
  const taken = db
    .prepare(
      "UPDATE wallet_syncs SET status = 'running', worker = ?, heartbeat_ts = ?, started_at = coalesce(started_at, ?), attempts = attempts + 1 WHERE id = ? AND status = 'queued'",
    )
    .run(worker, heartbeatTs, startedAt, id);
  return taken.changes === 1 ? id : null;
}

export function runningSyncRows(db: Db): WalletSyncRow[] {
  return db.prepare("SELECT * FROM wallet_syncs WHERE status = 'running'").all() as WalletSyncRow[];
}

/** Back in the queue, when its process is gone (only if still held by that owner). */
export function requeueSync(db: Db, id: string, worker: string | null): boolean {
  return (
    db
      .prepare("UPDATE wallet_syncs SET status = 'queued', worker = NULL, heartbeat_ts = NULL WHERE id = ? AND status = 'running' AND worker IS ?")
      .run(id, worker).changes === 1
  );
}

export interface SyncProgressFields {
  source: string;
  new_transactions: number;
  duplicates: number;
  requests: number;
  heartbeat_ts: number;
}

export function updateSyncProgress(db: Db, id: string, p: SyncProgressFields): void {
  db.prepare('UPDATE wallet_syncs SET source = ?, new_transactions = ?, duplicates = ?, requests = ?, heartbeat_ts = ? WHERE id = ?').run(
    p.source,
    p.new_transactions,
    p.duplicates,
    p.requests,
    p.heartbeat_ts,
    id,
  );
}

/** The columns a finished sync sets, as the row holds them; only its status and end time are narrower. */
export interface SyncEnd
  extends Pick<WalletSyncRow, 'source' | 'new_transactions' | 'duplicates' | 'requests' | 'last_block' | 'last_synced' | 'error_code' | 'error_message'> {
  status: 'completed' | 'failed';
  completed_at: string;
}

export function finishSync(db: Db, id: string, end: SyncEnd): void {
  db.prepare(
    `UPDATE wallet_syncs SET status = ?, source = ?, new_transactions = ?, duplicates = ?, requests = ?, last_block = ?, last_synced = ?,
     error_code = ?, error_message = ?, completed_at = ?, worker = NULL WHERE id = ?`,
  ).run(
    end.status,
    end.source,
    end.new_transactions,
    end.duplicates,
    end.requests,
    end.last_block,
    end.last_synced,
    end.error_code,
    end.error_message,
    end.completed_at,
    id,
  );
}
