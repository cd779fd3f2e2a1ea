/**
 * The exports table, which is also the job queue (engine/export-jobs.ts): a job's transitions are
 * conditional updates that change nothing once the row is no longer the caller's (docs/exports.md).
 */
import type { Db } from './db.js';
import { prepareCached } from './statements.js';
import type { ExportFormat } from '../core/types.js';

export interface ExportRow {
  id: string;
  workspace_id: string;
  status: 'queued' | 'processing' | 'completed' | 'failed' | 'expired';
  format: ExportFormat;
  report_type: string | null;
  request: string;
  delivery: string;
  file_name: string | null;
  file_size: number | null;
  transaction_count: number | null;
  sha256: string | null;
  progress: number;
  estimated_completion: string | null;
  error_code: string | null;
  error_message: string | null;
  worker: string | null;
  heartbeat_ts: number | null;
  created_at: string;
  created_ts: number;
  completed_at: string | null;
  expires_at: string;
  expires_ts: number;
}

/** The columns a new export is written with; the rest start empty (status `queued`, progress 0). */
export type NewExport = Pick<
  ExportRow,
  | 'id'
  | 'workspace_id'
  | 'format'
  | 'report_type'
  | 'request'
  | 'delivery'
  | 'transaction_count'
  | 'estimated_completion'
  | 'created_at'
  | 'created_ts'
  | 'expires_at'
  | 'expires_ts'
>;

export function getExportRow(db: Db, id: string): ExportRow | undefined {
  return prepareCached(db, 'SELECT * FROM exports WHERE id = ?').get(id) as ExportRow | undefined;
}

export function insertExport(db: Db, e: NewExport): void {
  prepareCached(
    db,
    `INSERT INTO exports (id, workspace_id, status, format, report_type, request, delivery, transaction_count, progress, estimated_completion,
      created_at, created_ts, expires_at, expires_ts) VALUES (?, ?, 'queued', ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?)`,
  ).run(
    e.id,
    e.workspace_id,
    e.format,
    e.report_type,
    e.request,
    e.delivery,
    e.transaction_count,
    e.estimated_completion,
    e.created_at,
    e.created_ts,
    e.expires_at,
    e.expires_ts,
  );
}

export function countExports(db: Db, workspaceId: string): number {
  return prepareCached(db, 'SELECT count(*) FROM exports WHERE workspace_id = ?').pluck().get(workspaceId) as number;
}

/** A page of the workspace's exports, newest first. */
export function listExportRows(db: Db, workspaceId: string, limit: number, offset: number): ExportRow[] {
  return prepareCached(db, 'SELECT * FROM exports WHERE workspace_id = ? ORDER BY created_ts DESC, rowid DESC LIMIT ? OFFSET ?').all(
    workspaceId,
    limit,
    offset,
  ) as ExportRow[];
}

/** When the workspace's exports created after `sinceTs` were created, oldest first (the hourly quota). */
export function exportTimesSince(db: Db, workspaceId: string, sinceTs: number): number[] {
  return prepareCached(db, 'SELECT created_ts FROM exports WHERE workspace_id = ? AND created_ts > ? ORDER BY created_ts')
    .pluck()
    .all(workspaceId, sinceTs) as number[];
}

/** How many of the workspace's exports are queued or processing, and the earliest end one of them expects. */
export function runningExports(db: Db, workspaceId: string): { n: number; first: string | null } {
  return prepareCached(
    db,
    "SELECT count(*) AS n, min(estimated_completion) AS first FROM exports WHERE workspace_id = ? AND status IN ('queued', 'processing')",
  ).get(workspaceId) as { n: number; first: string | null };
}

/** Exports whose file is due for deletion at `nowTs`: completed ones, and failed deliveries that kept their file. */
export function dueExports(db: Db, nowTs: number): ExportRow[] {
  return prepareCached(db, "SELECT * FROM exports WHERE (status = 'completed' OR (status = 'failed' AND file_name IS NOT NULL)) AND expires_ts <= ?").all(
    nowTs,
  ) as ExportRow[];
}

/** Expires a due export: a completed one becomes `expired`, a failed one forgets its file; false when neither applied. */
export function expireExport(db: Db, id: string): boolean {
  const expired = prepareCached(db, "UPDATE exports SET status = 'expired' WHERE id = ? AND status = 'completed'").run(id).changes;
  const dropped = prepareCached(db, "UPDATE exports SET file_name = NULL WHERE id = ? AND status = 'failed'").run(id).changes;
  return expired + dropped === 1;
}

/** A queued or processing export → `failed` with EXPORT_CANCELLED (its running job notices: docs/exports.md). */
export function cancelExportRow(db: Db, id: string, message: string, at: string): void {
  prepareCached(
    db,
    `UPDATE exports SET status = 'failed', error_code = 'EXPORT_CANCELLED', error_message = ?, progress = 0, estimated_completion = NULL, worker = NULL,
     completed_at = ? WHERE id = ?`,
  ).run(message, at, id);
}

// ---- the queue ----

export function nextQueuedExport(db: Db): string | undefined {
  return prepareCached(db, "SELECT id FROM exports WHERE status = 'queued' ORDER BY created_ts, rowid LIMIT 1").pluck().get() as string | undefined;
}

/** queued → processing for `worker`; false when the export is not queued. */
export function claimExport(db: Db, id: string, worker: string, heartbeatTs: number): boolean {
  return (
    prepareCached(db, "UPDATE exports SET status = 'processing', worker = ?, heartbeat_ts = ?, progress = 0 WHERE id = ? AND status = 'queued'").run(
      worker,
      heartbeatTs,
      id,
    ).changes === 1
  );
}

export function processingExports(db: Db): ExportRow[] {
  return prepareCached(db, "SELECT * FROM exports WHERE status = 'processing'").all() as ExportRow[];
}

/** A job of a dead owner back to `queued`, from the start; only while that owner (worker and heartbeat) still holds it. */
export function requeueExport(db: Db, row: Pick<ExportRow, 'id' | 'worker' | 'heartbeat_ts'>, estimatedCompletion: string): boolean {
  return (
    prepareCached(
      db,
      `UPDATE exports SET status = 'queued', worker = NULL, heartbeat_ts = NULL, progress = 0, file_name = NULL, file_size = NULL, sha256 = NULL,
     estimated_completion = ? WHERE id = ? AND status = 'processing' AND worker IS ? AND heartbeat_ts IS ?`,
    ).run(estimatedCompletion, row.id, row.worker, row.heartbeat_ts).changes === 1
  );
}

export interface ExportFailure {
  code: string;
  message: string;
  at: string;
}

const FAIL = `UPDATE exports SET status = 'failed', error_code = ?, error_message = ?, progress = 0, estimated_completion = NULL, file_name = NULL, worker = NULL,
     completed_at = ? WHERE id = ? AND status = 'processing'`;

/** `processing` → `failed` while `worker` holds the export; false when it no longer does. */
export function failHeldExport(db: Db, id: string, worker: string | null, f: ExportFailure): boolean {
  return prepareCached(db, `${FAIL} AND worker = ?`).run(f.code, f.message, f.at, id, worker).changes === 1;
}

/** `processing` → `failed` while the same dead owner (worker and heartbeat) still holds it. */
export function failAbandonedExport(db: Db, row: Pick<ExportRow, 'id' | 'worker' | 'heartbeat_ts'>, f: ExportFailure): boolean {
  return prepareCached(db, `${FAIL} AND worker IS ? AND heartbeat_ts IS ?`).run(f.code, f.message, f.at, row.id, row.worker, row.heartbeat_ts).changes === 1;
}

/** Renews a running job's heartbeat; the number of rows changed (0: the job no longer holds it). */
export function renewExportHeartbeat(db: Db, id: string, worker: string | null, heartbeatTs: number): number {
  return prepareCached(db, "UPDATE exports SET heartbeat_ts = ? WHERE id = ? AND status = 'processing' AND worker = ?").run(heartbeatTs, id, worker).changes;
}

/** Records a running job's progress with a heartbeat; the number of rows changed (0: the job no longer holds it). */
export function setExportProgress(
  db: Db,
  id: string,
  worker: string | null,
  p: { progress: number; estimated_completion: string; heartbeatTs: number },
): number {
  return prepareCached(
    db,
    "UPDATE exports SET progress = ?, estimated_completion = ?, heartbeat_ts = ? WHERE id = ? AND status = 'processing' AND worker = ?",
  ).run(p.progress, p.estimated_completion, p.heartbeatTs, id, worker).changes;
}

/** Records a running job's finished file; the number of rows changed (0: the job no longer holds it). */
export function recordExportFile(
  db: Db,
  id: string,
  worker: string | null,
  file: { file_name: string; file_size: number; transaction_count: number; sha256: string; estimated_completion: string },
): number {
  return prepareCached(
    db,
    "UPDATE exports SET file_name = ?, file_size = ?, transaction_count = ?, sha256 = ?, progress = 100, estimated_completion = ? WHERE id = ? AND status = 'processing' AND worker = ?",
  ).run(file.file_name, file.file_size, file.transaction_count, file.sha256, file.estimated_completion, id, worker).changes;
}

/** `processing` (held by `worker`) → `completed`; false when the worker no longer holds it. */
export function completeExport(db: Db, id: string, worker: string | null, at: string): boolean {
  return (
    prepareCached(
      db,
      "UPDATE exports SET status = 'completed', completed_at = ?, estimated_completion = NULL, worker = NULL WHERE id = ? AND status = 'processing' AND worker = ?",
    ).run(at, id, worker).changes === 1
  );
}

/** A completed export whose webhook call failed → `failed` with DELIVERY_FAILED; its file stays. */
export function failExportDelivery(db: Db, id: string, message: string, at: string): void {
  prepareCached(
    db,
    "UPDATE exports SET status = 'failed', error_code = 'DELIVERY_FAILED', error_message = ?, completed_at = ? WHERE id = ? AND status = 'completed'",
  ).run(message, at, id);
}
