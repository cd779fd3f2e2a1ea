/**
 * Exports (docs/exports.md): create with validation and tier quotas, status,
 * list, cancel, download of the stored file, signed download links, and the lazy 24-hour expiry.
 */
import { rmSync, statSync } from 'node:fs';
import type { Engine } from './engine.js';
import { checkFilterWallets, summaryOf } from './transactions.js';
import { conversionFor } from './rates.js';
import {
  CONTENT_TYPES,
  claimJob,
  downloadSecret,
  downloadUrlOf,
  estimateCompletion,
  executeJob,
  filePathOf,
  recoverInterruptedJobs,
  tmpPathOf,
  type RunOptions,
} from './export-jobs.js';
import {
  cancelExportRow,
  countExports,
  dueExports,
  expireExport,
  exportTimesSince,
  getExportRow,
  insertExport,
  listExportRows,
  runningExports,
  type ExportRow,
} from '../store/exports.js';
import { TxaError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { isoSeconds, nowIso, nowSeconds } from '../core/clock.js';
import { DAY_SECONDS, parseDay } from '../core/dates.js';
import { limitsOf } from '../core/limits.js';
import { paginationOf, parsePageParams } from '../core/pagination.js';
import { parseExportBody, type Delivery } from '../core/export-schema.js';
import type { ExportRecord, Page, QueryParams } from '../core/types.js';
import { tokenMatches } from '../exporters/download-link.js';
import { OutFile } from '../files/out-file.js';
import { EMPTY_PERIOD_NOTE, refuseNotes, reportNotes } from './report-notes.js';
import { article } from '../core/errno.js';

export const LINK_TTL_SECONDS = 24 * 60 * 60;
export const EXPORTS_LIMIT_DEFAULT = 50;
export const EXPORTS_LIMIT_MAX = 100;
const HOUR = 3600;

export function toRecord(engine: Engine, row: ExportRow): ExportRecord {
  const delivery = JSON.parse(row.delivery) as Delivery;
  const rec: ExportRecord = { id: row.id, status: row.status, format: row.format, created_at: row.created_at, expires_at: row.expires_at, delivery };
  if (row.report_type) rec.report_type = row.report_type;
  if (row.status === 'completed') rec.download_url = downloadUrlOf(engine, row);
  if (row.file_size !== null && (row.status === 'completed' || row.status === 'expired')) rec.file_size = row.file_size;
  if (row.transaction_count !== null) rec.transaction_count = row.transaction_count;
  if (row.status === 'queued' || row.status === 'processing') {
    rec.progress = row.progress;
    if (row.estimated_completion) rec.estimated_completion = row.estimated_completion;
  }
  // Without a server, no URL answers for the status either: `txa export status ID` does.
  if (delivery.method !== 'download' && engine.publicBaseUrl !== undefined) rec.status_url = `${engine.publicBaseUrl}/api/v1/exports/${row.id}`;
  if (row.status === 'failed') rec.error = { code: row.error_code ?? 'INTERNAL_ERROR', message: row.error_message ?? 'the export failed' };
  return rec;
}

/** Deletes the files of exports past `expires_at` (engine clock): completed ones become expired, failed deliveries stay failed. */
export function expireDue(engine: Engine): void {
  const due = dueExports(engine.db, nowSeconds());
  if (due.length === 0) return;
  // A failed delivery's file (export-jobs.ts failDelivery) goes too; the record stays failed.
  engine.write(() => {
    for (const row of due) if (expireExport(engine.db, row.id)) rmSync(filePathOf(engine, row), { force: true });
  });
}

/** Lazy housekeeping before every read: expiry, and jobs left behind by a dead process. */
function sweep(engine: Engine): void {
  expireDue(engine);
  recoverInterruptedJobs(engine);
}

function requireRow(engine: Engine, workspaceId: string, id: string): ExportRow {
  const row = getExportRow(engine.db, id);
  if (!row || row.workspace_id !== workspaceId)
    throw new TxaError('EXPORT_NOT_FOUND', `export ${id} not found`, { hint: 'List exports with: txa export list' });
  return row;
}

/** Tier quotas (docs/reference/api.md "Tier limits"), checked inside the transaction that records the export. */
function checkQuotas(engine: Engine, workspaceId: string, requested: number, now: number): void {
  const limits = limitsOf(engine.workspace(workspaceId));
  const max = limits.maxTransactionsPerExport;
  if (max !== null && requested > max) {
    throw new TxaError(
      'EXPORT_TOO_LARGE',
      `${requested} transactions match, more than the ${max} ${article(engine.workspace(workspaceId).tier)} ${engine.workspace(workspaceId).tier} workspace may export at once`,
      {
        extra: { max_transactions: max, requested_transactions: requested },
        hint: 'Narrow the filters (e.g. --period or --start-date/--end-date) and export in parts.',
      },
    );
  }
  const perHour = limits.exportsPerHour;
  if (perHour !== null) {
    const recent = exportTimesSince(engine.db, workspaceId, now - HOUR);
    if (recent.length >= perHour) {
      const retryAfter = Math.max(1, recent[recent.length - perHour]! + HOUR - now);
      throw new TxaError('EXPORT_RATE_LIMIT_EXCEEDED', `this workspace may create ${perHour} exports per hour`, {
        extra: { retry_after: retryAfter },
        hint: `Try again in ${retryAfter} seconds.`,
      });
    }
  }
  const running = runningExports(engine.db, workspaceId);
  if (running.n >= limits.concurrentExports) {
    // When the first running export expects to end (at least 1 s; 10 s while none has an estimate yet).
    const retryAfter = running.first ? Math.min(HOUR, Math.max(1, Math.ceil(Date.parse(running.first) / 1000) - now)) : 10;
    throw new TxaError(
      'CONCURRENT_EXPORT_LIMIT',
      `this workspace may run ${limits.concurrentExports} export(s) at once; wait for the running one(s) to finish`,
      {
        extra: { retry_after: retryAfter },
        hint: 'See them with: txa export list',
      },
    );
  }
}

/**
 * What a scheduled run (engine/schedules.ts) adds to an export: its period's days (set after the body's checks: a one-day period is a daily report here, where a
 * request's `end_date` must be after its `start_date`), and a step run inside the transaction
 * that records the export, so the run is recorded with it or neither is.
 */
export interface CreateOptions extends RunOptions {
  dates?: { start_date: string; end_date: string };
  within?: (exportId: string) => void;
}

/**
 * Creates an export. `download` runs at once and returns the completed record. `email` and
 * `webhook` return the record of a job still to run: queued for `txa serve`'s worker (role
 * `serve`, the default), or already claimed by this process, which runs it next (role `cli`:
 * `runExportJob`), so no moment leaves it queued with no one to run it.
 */
export async function createExport(engine: Engine, workspaceId: string, body: unknown, opts: CreateOptions = {}): Promise<ExportRecord> {
  const ws = engine.workspace(workspaceId);
  const { request, filter } = parseExportBody(body, ws);
  if (opts.dates) {
    request.filters = { ...request.filters, ...opts.dates };
    filter.startTs = parseDay(opts.dates.start_date)!;
    filter.endTs = parseDay(opts.dates.end_date)! + DAY_SECONDS;
  }
  checkFilterWallets(engine, workspaceId, filter, 'filters.wallet_ids');
  if (request.delivery.method === 'email') (await import('../exporters/deliver-email.js')).requireSmtp();
  conversionFor(engine, ws, request.options.currency, filter);
  if (request.options.strict) {
    // A period without rows makes a report of zeros: `strict` refuses it as it refuses a noted finding (docs/check.md, `empty_period`).
    const empty = summaryOf(engine, workspaceId, filter).transaction_count === 0 ? [EMPTY_PERIOD_NOTE] : [];
    refuseNotes([...empty, ...reportNotes(engine.db, workspaceId, filter, request.options.jurisdiction)]);
  }
  // A job a dead process left behind must not count against the concurrent limit.
  sweep(engine);
  const id = newId('exp');
  const now = nowSeconds();
  const immediate = request.delivery.method === 'download';
  engine.write(() => {
    opts.within?.(id);
    const requested = summaryOf(engine, workspaceId, filter).transaction_count;
    checkQuotas(engine, workspaceId, requested, now);
    insertExport(engine.db, {
      id,
      workspace_id: workspaceId,
      format: request.format,
      report_type: request.report_type ?? null,
      request: JSON.stringify(request),
      delivery: JSON.stringify(request.delivery),
      transaction_count: requested,
      estimated_completion: estimateCompletion(request.format, requested, now),
      created_at: isoSeconds(now),
      created_ts: now,
      expires_at: isoSeconds(now + LINK_TTL_SECONDS),
      expires_ts: now + LINK_TTL_SECONDS,
    });
    if (immediate || opts.role === 'cli') claimJob(engine, id, opts.role);
  });
  if (immediate) {
    const failure = await executeJob(engine, id, opts);
    if (failure) throw failure;
  }
  return toRecord(engine, getExportRow(engine.db, id)!);
}

/**
 * Cancels a queued or processing export: it becomes `failed` with EXPORT_CANCELLED (the
 * API's statuses have no `cancelled`, docs/exports.md), and a running job notices at its next progress
 * update or heartbeat and stops, removing its partial file. An export that has ended, or whose
 * file is whole and being delivered, is EXPORT_NOT_CANCELLABLE.
 */
export function cancelExport(engine: Engine, workspaceId: string, id: string): ExportRecord {
  engine.workspace(workspaceId);
  expireDue(engine);
  const row = engine.write(() => {
    const current = requireRow(engine, workspaceId, id);
    const running = current.status === 'queued' || current.status === 'processing';
    if (!running || current.file_name !== null) {
      const why = running
        ? 'its file is written and being delivered'
        : current.status === 'failed'
          ? `it has already failed (${current.error_code})`
          : `it is ${current.status}`;
      throw new TxaError('EXPORT_NOT_CANCELLABLE', `export ${id} cannot be cancelled: ${why}`, { hint: `Check it with: txa export status ${id}` });
    }
    cancelExportRow(engine.db, id, `export ${id} was cancelled by ${engine.actor}`, nowIso());
    return current;
  });
  // The job's partial file, also when its process is gone; a live job writes on into the unlinked file until it notices.
  rmSync(tmpPathOf(engine, row), { force: true });
  return toRecord(engine, getExportRow(engine.db, id)!);
}

export function getExport(engine: Engine, workspaceId: string, id: string): ExportRecord {
  engine.workspace(workspaceId);
  sweep(engine);
  return toRecord(engine, requireRow(engine, workspaceId, id));
}

export function listExports(engine: Engine, workspaceId: string, params: QueryParams): Page<ExportRecord> {
  engine.workspace(workspaceId);
  const req = parsePageParams(params, EXPORTS_LIMIT_DEFAULT, EXPORTS_LIMIT_MAX);
  sweep(engine);
  const total = countExports(engine.db, workspaceId);
  const rows = listExportRows(engine.db, workspaceId, req.limit, req.offset);
  return { data: rows.map((r) => toRecord(engine, r)), pagination: paginationOf(total, req) };
}

/** The stored file of an export that can be downloaded now, or the reason it cannot. */
function readyFile(engine: Engine, row: ExportRow): string {
  if (row.status === 'expired') {
    throw new TxaError('EXPORT_EXPIRED', `export ${row.id} expired at ${row.expires_at}; its file is deleted`, { hint: 'Create a new export.' });
  }
  // A file being delivered (webhook receivers may fetch it before the job is marked completed) is
  // ready too, and so is one whose webhook call failed (the logged event links to it).
  const whole = row.status !== 'failed' || row.error_code === 'DELIVERY_FAILED';
  if (!whole || !row.file_name || !row.sha256) {
    const why = row.status === 'failed' ? `failed (${row.error_code}: ${row.error_message})` : `is ${row.status}`;
    throw new TxaError('EXPORT_NOT_READY', `export ${row.id} ${why}; there is no file to download`, { hint: `Check it with: txa export status ${row.id}` });
  }
  return filePathOf(engine, row);
}

/** Writes the export's file to `destPath` atomically (src/files/out-file.ts): never a device, never a partial file. */
export function downloadExport(engine: Engine, workspaceId: string, id: string, destPath: string): { path: string; bytes: number } {
  engine.workspace(workspaceId);
  sweep(engine);
  const source = readyFile(engine, requireRow(engine, workspaceId, id));
  return new OutFile(destPath).copy(source);
}

export interface DownloadFile {
  record: ExportRecord;
  path: string;
  fileName: string;
  contentType: string;
  size: number;
}

/**
 * Checks a download link (`expires`, `token` of its query string) for the server: a wrong token
 * is INVALID_DOWNLOAD_TOKEN, a link or export past its expiry EXPORT_EXPIRED.
 */
export function verifyDownloadToken(engine: Engine, id: string, expires: string | number, token: string): DownloadFile {
  const exp = typeof expires === 'number' ? expires : /^\d{1,12}$/.test(expires) ? Number(expires) : NaN;
  if (!Number.isSafeInteger(exp) || !tokenMatches(downloadSecret(engine), id, exp, token)) {
    throw new TxaError('INVALID_DOWNLOAD_TOKEN', 'the download link is not valid');
  }
  if (exp <= nowSeconds())
    throw new TxaError('EXPORT_EXPIRED', `the download link of export ${id} expired at ${isoSeconds(exp)}`, { hint: 'Create a new export.' });
  sweep(engine);
  const row = getExportRow(engine.db, id);
  if (!row) throw new TxaError('EXPORT_NOT_FOUND', `export ${id} not found`);
  const path = readyFile(engine, row);
  return { record: toRecord(engine, row), path, fileName: row.file_name!, contentType: CONTENT_TYPES[row.format], size: row.file_size ?? statSync(path).size };
}
