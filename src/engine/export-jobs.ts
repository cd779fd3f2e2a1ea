/**
 * Export jobs. The exports table is the queue: a job is claimed atomically (queued → processing)
 * by an owner (job-owner.ts), its file written from a read snapshot on a second connection
 * (better-sqlite3 cannot write on a connection that is iterating), then delivered and marked
 * completed or failed. `txa serve` runs claimNextJob/runExportJob in its worker; the CLI runs a
 * job in the foreground. Every transition a job makes is conditional on the row still being its
 * own and `processing`, so a cancelled export (cancelExport) stays cancelled and the job stops.
 */
import type { JurisdictionCode } from '../core/jurisdictions.js';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, fsyncSync, openSync, closeSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Engine } from './engine.js';
import { countMatching, findMatching, getTransaction, streamTransactions, summaryOf } from './transactions.js';
import { conversionFor, identity, rateNotes, type Convert } from './rates.js';
import { ledgerFilter, ledgerRows, ledgerSource, loadAssetTable } from './ledger-rows.js';
import { taxBooks } from './lot-ledger.js';
import { TxaError } from '../core/errors.js';
import { centsToNumber } from '../core/money.js';
import { DAY_SECONDS, dayOf, parseDay } from '../core/dates.js';
import { isoSeconds, nowIso, nowSeconds } from '../core/clock.js';
import { newWebhookSecret } from '../core/webhook-signature.js';
import { exportFilter, type ExportRequest } from '../core/export-schema.js';
import type { TxFilter } from '../core/filters.js';
import { EXPORT_EXTENSIONS, type ExportFormat, type Summary, type Transaction, type Workspace } from '../core/types.js';
import { iterateRows, whereOf, withSpamResolved } from '../store/transactions.js';
import { getWallet, listTags } from '../store/ledger.js';
import { listBrokerLines } from '../store/broker-lines.js';
import { getPrice } from '../store/prices.js';
import type { BrokerLine } from '../accounting/form8949.js';
import { ledgerCatalog } from '../store/catalog.js';
import { beginSnapshot, endSnapshot, watchCommits, type CommitWatch } from '../store/db.js';
import { OFF_THREAD_ROWS } from '../exporters/chunked-file.js';
import {
  claimExport,
  completeExport,
  failAbandonedExport,
  failExportDelivery,
  failHeldExport,
  getExportRow,
  nextQueuedExport,
  processingExports,
  recordExportFile,
  renewExportHeartbeat,
  requeueExport,
  setExportProgress,
  type ExportRow,
} from '../store/exports.js';
import { settingOrInit, workspaceSecretOrInit } from '../store/settings.js';
import { edgeTs, flowsOf, monthsOf, tagsOf, tokensOf, walletsOf } from '../store/export-groups.js';
import type { ExportGroup, ExportJob, ExportWriter } from '../exporters/types.js';
import type { GroupBy } from '../core/export-values.js';
import { downloadUrl } from '../exporters/download-link.js';
import { ownedHere, ownerGone, ownerOf, parseOwner, type JobRole } from './job-owner.js';
import { historiesOf } from './history.js';
import { notesOffThread, reportNotes } from './report-notes.js';
import { withHeapGrowthCap } from '../exporters/heap-growth.js';

export interface JobProgress {
  progress: number;
  done: number;
  total: number;
  estimated_completion: string;
}

export interface RunOptions {
  onProgress?: (p: JobProgress) => void;
  /** Waits before each webhook retry (default 1 s, 2 s, 4 s). */
  retryDelaysMs?: number[];
  /**
   * The webhook call refuses targets that are or resolve to private addresses (SSRF): `txa serve`
   * sets it unless started with --allow-private-webhooks. The CLI calls for its own user and does not.
   */
  refusePrivateTargets?: boolean;
  /** Who claims a queued job: `serve` (the default) or `cli`; decides what happens if the process dies. */
  role?: JobRole;
  /** Aborting it stops the job, recorded `failed` with the abort's reason (a TxaError: INTERRUPTED on a signal). */
  signal?: AbortSignal;
}

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json',
  pdf: 'application/pdf',
  ledger: 'text/plain; charset=utf-8',
  beancount: 'text/plain; charset=utf-8',
};
/** Rough rows per second by format, for `estimated_completion` before a job has measured its own. */
const ROWS_PER_SECOND: Record<ExportFormat, number> = { csv: 100_000, json: 50_000, pdf: 3_000, ledger: 50_000, beancount: 50_000 };
/** A running job renews its heartbeat this often, also while its progress does not move. */
const HEARTBEAT_MS = 30_000;

const wallSeconds = () => Math.floor(Date.now() / 1000);

/** The secret signing download links, kept in the settings table from its first use. */
export function downloadSecret(engine: Engine): string {
  return settingOrInit(engine.db, 'download_link_secret', randomBytes(32).toString('hex'));
}

/**
 * The workspace's own `whsec_` secret, shown nowhere: it signs an export's `export.completed` call
 * only when no subscription covers its URL, which receivers then cannot verify (docs/exports.md, "Webhook").
 */
function workspaceWebhookSecret(engine: Engine, workspaceId: string): string {
  return workspaceSecretOrInit(engine.db, workspaceId, newWebhookSecret());
}

/** The signed link on the `txa serve` of this ledger; undefined when no public URL names one. */
function serverLinkOf(engine: Engine, row: ExportRow): string | undefined {
  return engine.publicBaseUrl === undefined ? undefined : downloadUrl(engine.publicBaseUrl, downloadSecret(engine), row.id, row.expires_ts);
}

/** `download_url`: the signed link, or without a server the stored file's file:// URL (never a link nothing answers). */
export function downloadUrlOf(engine: Engine, row: ExportRow): string {
  return serverLinkOf(engine, row) ?? pathToFileURL(filePathOf(engine, row)).href;
}

export function filePathOf(engine: Engine, row: ExportRow): string {
  return join(engine.dir('exports'), row.file_name ?? `${row.id}.${EXPORT_EXTENSIONS[row.format]}`);
}

export function estimateCompletion(format: ExportFormat, rows: number, fromSeconds: number): string {
  return isoSeconds(fromSeconds + Math.ceil(rows / ROWS_PER_SECOND[format]) + 1);
}

// ---- the queue ----

/** Claims one queued job for `txa serve` (queued → processing) atomically; null when none is waiting. */
export function claimNextJob(engine: Engine): string | null {
  return engine.write(() => {
    const next = nextQueuedExport(engine.db);
    return next !== undefined && claimJob(engine, next) ? next : null;
  });
}

/** Claims a given queued job for this process; false when it is not queued (another worker has it, or it ended). */
export function claimJob(engine: Engine, id: string, role: JobRole = 'serve'): boolean {
  return claimExport(engine.db, id, ownerOf(role), wallSeconds());
}

export function tmpPathOf(engine: Engine, row: Pick<ExportRow, 'id' | 'format'>): string {
  return join(engine.dir('exports'), `${row.id}.${EXPORT_EXTENSIONS[row.format]}.tmp`);
}

/**
 * Jobs left `processing` by a process that is gone (job-owner.ts): an e-mail or webhook job of
 * `txa serve` goes back to `queued` and is redone from the start; any other (a CLI's job, whose
 * command is no longer there to write `--out` or show the outcome, or a download written for a
 * request that is gone) becomes `failed` with INTERRUPTED. Returns the ids of both.
 */
export function recoverInterruptedJobs(engine: Engine): string[] {
  const rows = processingExports(engine.db);
  const wallNow = wallSeconds();
  const gone = rows.filter((r) => ownerGone(parseOwner(r.worker), r.heartbeat_ts, wallNow));
  if (gone.length === 0) return [];
  // Only rows still held by the same dead owner change (another reader may have done it).
  const recovered = engine.write(() =>
    gone.filter((r) => {
      const owner = parseOwner(r.worker);
      const resume = owner?.role === 'serve' && (JSON.parse(r.delivery) as ExportRequest['delivery']).method !== 'download';
      if (resume) return requeueExport(engine.db, r, estimateCompletion(r.format, r.transaction_count ?? 0, nowSeconds()));
      const who = owner
        ? `the ${owner.role === 'cli' ? 'txa command' : 'txa serve'} process running it (pid ${owner.pid} on ${owner.host})`
        : 'the process running it';
      return failAbandonedExport(engine.db, r, { code: 'INTERRUPTED', message: `${who} ended before the export was finished`, at: nowIso() });
    }),
  );
  // The final file too: a job killed between its rename and the row recording it leaves one that no row names.
  for (const r of recovered) for (const path of [tmpPathOf(engine, r), filePathOf(engine, r)]) rmSync(path, { force: true });
  return recovered.map((r) => r.id);
}

/**
 * Fails every job this process runs, at once (the CLI's last step when a signal's job did not
 * stop by itself in time): partial files removed, the record `failed` with `code`.
 */
export function failOwnJobs(engine: Engine, code: string, message: string): void {
  for (const row of processingExports(engine.db).filter((r) => ownedHere(r.worker))) failJob(engine, row, code, message);
}

// ---- the data a writer reads ----

function convertRows(rows: Iterable<Transaction>, convert: Convert): Iterable<Transaction> {
  if (convert === identity) return rows;
  return (function* () {
    for (const tx of rows) {
      const cents = tx.fiat_value === null ? null : Math.round(tx.fiat_value * 100);
      const converted = convert(cents, Date.parse(tx.timestamp) / 1000);
      yield { ...tx, fiat_value: converted === null ? null : centsToNumber(converted) };
    }
  })();
}

/** Totals of a filter; converted row by row, so they equal the sum of the rows in the file. */
function summarize(reader: Engine, workspaceId: string, filter: TxFilter, convert: Convert): Summary {
  if (convert === identity) return summaryOf(reader, workspaceId, filter);
  const rows = flowsOf(reader.db, whereOf(workspaceId, filter));
  let inflow = 0;
  let outflow = 0;
  let count = 0;
  for (const r of rows) {
    count++;
    const cents = convert(r.fiat_cents, r.ts) ?? 0;
    if (r.direction === 'inflow') inflow += cents;
    else outflow += cents;
  }
  return { total_inflow: centsToNumber(inflow), total_outflow: centsToNumber(outflow), net_flow: centsToNumber(inflow - outflow), transaction_count: count };
}

interface GroupSpec {
  key: string;
  filter: TxFilter;
}

/** The groups of `group_by`, each a narrowing of the export's filter, in group order. */
function groupSpecs(reader: Engine, workspaceId: string, filter: TxFilter, by: GroupBy): GroupSpec[] {
  const w = whereOf(workspaceId, filter);
  const db = reader.db;
  switch (by) {
    case 'month': {
      return monthsOf(db, w).map((k) => {
        const start = Date.UTC(Number(k.slice(0, 4)), Number(k.slice(5, 7)) - 1, 1) / 1000;
        const end = Date.UTC(Number(k.slice(0, 4)), Number(k.slice(5, 7)), 1) / 1000;
        return { key: k, filter: { ...filter, startTs: Math.max(start, filter.startTs ?? start), endTs: Math.min(end, filter.endTs ?? end) } };
      });
    }
    case 'wallet': {
      return walletsOf(db, w).map((x) => ({ key: x.label, filter: { ...filter, walletIds: [x.id] } }));
    }
    case 'token': {
      return tokensOf(db, w).map((s) => ({ key: s, filter: { ...filter, token: s } }));
    }
    case 'tag': {
      // With a tag filter, only its tags form groups (narrowing to another tag would drop the filter).
      const specs: GroupSpec[] = tagsOf(db, workspaceId, filter.tagIds, w).map((g) => ({ key: g.name, filter: { ...filter, tagIds: [g.id] } }));
      const untagged: TxFilter = { ...filter, hasTags: false };
      if (!filter.tagIds && filter.hasTags !== true && countMatching(reader, workspaceId, untagged) > 0) specs.push({ key: '(untagged)', filter: untagged });
      return specs;
    }
  }
}

function periodOf(reader: Engine, workspaceId: string, filter: TxFilter): ExportJob['period'] {
  const w = whereOf(workspaceId, filter);
  const edge = (order: 'ASC' | 'DESC') => edgeTs(reader.db, w, order) ?? null;
  const start = filter.startTs ?? edge('ASC');
  const end = filter.endTs !== undefined ? filter.endTs - DAY_SECONDS : edge('DESC');
  return { start: start === null ? null : dayOf(start), end: end === null ? null : dayOf(end) };
}

/** The CSV and JSON reports made of the tax ledger's rows (their second reader prints no tx_hash). */
const LEDGER_TABLES = new Set<string>(['tax', 'income', 'form8949', 'turbotax', 'taxact', 'reconciliation', 'positions', 'rollforward']);

/**
 * A wallet of kind `address` is self-custody (Form 8949 boxes C/F, I/L whatever broker lines
 * say). Wallets without a kind (ledgers before exchange wallets) count as the broker's account
 * their imported lines say they are.
 */
function selfCustody(reader: Engine, ws: string, walletId: string): boolean {
  const w = getWallet(reader.db, ws, walletId) as { kind?: string } | undefined;
  return w?.kind === 'address';
}

function buildJob(engine: Engine, reader: Engine, row: ExportRow, ws: Workspace, request: ExportRequest, onProgress: (done: number) => void): ExportJob {
  const filter = withSpamResolved(reader.db, ws.id, exportFilter(request.filters, false));
  const convert = conversionFor(reader, ws, request.options.currency, filter);
  const summary = summarize(reader, ws.id, filter, convert);
  const rowsOf = (f: TxFilter) => convertRows(streamTransactions(reader, ws.id, f, 'timestamp_asc'), convert);
  // The tax ledger's conversion covers its wider filter; read once, for this thread's read or the worker's.
  // Positions at a day read the lots up to that day's end, whatever the period (docs/reports.md).
  const at = request.report_type === 'positions' ? request.options.at : undefined;
  const ledgerBase: TxFilter = at === undefined ? filter : { ...filter, endTs: parseDay(at)! + DAY_SECONDS };
  let ledgerConvert: Convert | undefined;
  let brokerLines: BrokerLine[] | undefined;
  const ledgerConversion = () => (ledgerConvert ??= conversionFor(reader, ws, request.options.currency, ledgerFilter(ledgerBase)));
  const job: ExportJob = {
    exportId: row.id,
    workspace: ws,
    createdAt: row.created_at,
    format: row.format,
    filters: request.filters,
    options: request.options,
    columns: request.columns,
    period: periodOf(reader, ws.id, filter),
    transactionCount: summary.transaction_count,
    tags: listTags(reader.db, ws.id),
    summary,
    rows: () => rowsOf(filter),
    ledgerRows: () => ledgerRows(reader, ws.id, ledgerBase, ledgerConversion()),
    assets: () => loadAssetTable(engine),
    taxBooks: () => taxBooks(reader, ws.id),
    catalog: () => ledgerCatalog(reader.db, ws.id),
    brokerLines: () => (brokerLines ??= listBrokerLines(reader.db, ws.id)),
    selfCustody: (id) => selfCustody(reader, ws.id, id),
    cachedPrice: (symbol, day) => {
      const entry = getPrice(reader.db, 'import', symbol.toUpperCase(), day);
      return entry?.price != null && entry.currency === request.options.currency ? entry.price : null;
    },
    selected: (id) => {
      const tx = findMatching(reader, ws.id, filter, id);
      return tx && [...convertRows([tx], convert)][0]!;
    },
    histories: (txIds) => historiesOf(reader, txIds),
    attachmentPath: (id) => join(engine.filesDir, 'attachments', id),
    onProgress,
    findings: () => reportNotes(reader.db, ws.id, filter, request.options.jurisdiction),
    notesFilter: filter,
  };
  // A ledger report's figures come from the tax ledger's rows, converted with its conversion; the others' from the export's rows.
  const rates = () => rateNotes(request.report_type !== undefined && LEDGER_TABLES.has(request.report_type) ? ledgerConversion() : convert);
  job.notes = () => [...job.findings!(), ...rates()];
  if (request.report_type) job.reportType = request.report_type;
  // The CSV and JSON ledger reports (tax, income, form8949, …: exporters/tax-report.ts) read their rows on a second thread.
  if (row.format !== 'pdf' && request.report_type !== undefined && LEDGER_TABLES.has(request.report_type)) {
    job.ledgerSource = ledgerSource(reader, ws.id, ledgerBase, ledgerConversion());
  }
  if (convert === identity) job.unconverted = { db: reader.db, workspaceId: ws.id, filter, transaction: (id) => getTransaction(reader, ws.id, id) };
  const by = request.options.group_by;
  if (by) {
    job.groups = (): ExportGroup[] =>
      groupSpecs(reader, ws.id, filter, by).map((g) => ({
        key: g.key,
        summary: summarize(reader, ws.id, g.filter, convert),
        rows: () => rowsOf(g.filter),
        ids: () =>
          (function* () {
            for (const r of iterateRows(reader.db, ws.id, g.filter, 'timestamp_asc')) yield r.id;
          })(),
      }));
  }
  return job;
}

/**
 * A tax or income report that prints its notes (the JSON, and the CSV with its summary) over a
 * large ledger has them counted by a worker on the same snapshot while it writes (report-notes.ts).
 */
function notesBeside(engine: Engine, job: ExportJob, watch: CommitWatch | undefined): void {
  const printed = job.format === 'json' || job.options.include_summary;
  const taxReport = job.reportType === 'tax' || job.reportType === 'income';
  if (!watch || !job.ledgerSource || !taxReport || !printed || !job.findings || !job.ledgerSource.hasRows(OFF_THREAD_ROWS)) return;
  job.findings = notesOffThread(engine.ledgerPath, watch.unchanged, job.workspace.id, job.notesFilter!, job.options.jurisdiction, job.findings);
}

async function writerFor(format: ExportFormat, reportType: string | undefined, jurisdiction?: JurisdictionCode): Promise<ExportWriter> {
  if (format === 'ledger' || format === 'beancount') return (await import('../exporters/journal/index.js')).writeJournal;
  // Another jurisdiction's tax report has lines of its own (docs/accounting.md "Jurisdictions").
  if (format !== 'pdf' && reportType === 'tax' && jurisdiction !== undefined && jurisdiction !== 'us')
    return (await import('../exporters/jurisdiction-report.js')).writeJurisdictionReport;
  if (format !== 'pdf' && (reportType === 'form8949' || reportType === 'turbotax' || reportType === 'taxact' || reportType === 'reconciliation')) {
    return (await import('../exporters/form-reports.js')).writeFormReport;
  }
  if (format !== 'pdf' && (reportType === 'positions' || reportType === 'rollforward'))
    return (await import('../exporters/holdings-reports.js')).writeHoldingsReport;
  if (format !== 'pdf' && reportType !== undefined) return (await import('../exporters/tax-report.js')).writeTaxReport;
  if (format === 'csv') return (await import('../exporters/csv.js')).writeCsv;
  if (format === 'json') return (await import('../exporters/json.js')).writeJson;
  return (await import('../exporters/pdf/index.js')).writePdf;
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function fsyncFile(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * A second connection on the same ledger, in a read transaction: one consistent snapshot for
 * the whole file. The commit watch starts before the snapshot, so a second reader (the file
 * worker) can tell whether it would read the same one.
 */
function openReader(engine: Engine): { reader: Engine; watch?: CommitWatch } {
  if (engine.ledgerPath === ':memory:') return { reader: engine };
  const reader = Engine.open(engine.ledgerPath, { publicBaseUrl: engine.publicBaseUrl, actor: engine.actor });
  reader.attachmentUrl = engine.attachmentUrl;
  const watch = watchCommits(engine.ledgerPath);
  beginSnapshot(reader.db);
  return { reader, watch };
}

function closeReader(engine: Engine, reader: Engine, watch: CommitWatch | undefined): void {
  watch?.close();
  if (reader === engine) return;
  endSnapshot(reader.db);
  reader.close();
}

/**
 * A running job's hold on its export: a heartbeat every 30 s (and with each progress update), and
 * `check()`, which throws when the job must stop: its run was aborted (a signal to the CLI), or
 * the row is no longer its own `processing` one (cancelled, or failed by another process).
 */
class JobLease {
  private lost = false;
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly engine: Engine,
    readonly row: ExportRow,
    private readonly signal: AbortSignal | undefined,
  ) {
    // A ':memory:' ledger has one connection, busy iterating while the job reads: nothing to renew there.
    if (engine.ledgerPath !== ':memory:')
      this.timer = setInterval(() => this.keep(renewExportHeartbeat(engine.db, row.id, row.worker, wallSeconds())), HEARTBEAT_MS).unref();
  }

  /** Takes the outcome of a conditional update of the row: no change means the row is no longer this job's. */
  keep(changes: number): void {
    if (changes === 0) this.lost = true;
  }

  check(): void {
    if (this.signal?.aborted) throw this.signal.reason;
    if (this.lost) throw cancelled(this.engine, this.row.id);
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/** Why a job no longer holding its export stops: the record's own error (EXPORT_CANCELLED, usually). */
function cancelled(engine: Engine, id: string): TxaError {
  const row = getExportRow(engine.db, id);
  if (row?.status === 'failed' && row.error_code === 'EXPORT_CANCELLED')
    return new TxaError('EXPORT_CANCELLED', row.error_message ?? `export ${id} was cancelled`);
  return new TxaError('INTERRUPTED', `export ${id} is no longer run by this process (it is ${row?.status ?? 'gone'})`);
}

/** Progress as rows are written: at most one update per percent or per 2 s, with a heartbeat. */
function progressTracker(engine: Engine, lease: JobLease, total: () => number, notify?: (p: JobProgress) => void) {
  const row = lease.row;
  const startedMs = Date.now();
  let lastPercent = -1;
  let lastWriteMs = 0;
  return (done: number) => {
    lease.check();
    const n = Math.max(total(), 1);
    const percent = Math.min(99, Math.floor((done / n) * 100));
    const nowMs = Date.now();
    if (percent === lastPercent && nowMs - lastWriteMs < 2_000) return;
    const elapsed = (nowMs - startedMs) / 1000;
    const remaining = done > 0 ? (elapsed / done) * Math.max(n - done, 0) : n / ROWS_PER_SECOND[row.format];
    const p: JobProgress = { progress: percent, done, total: n, estimated_completion: isoSeconds(nowSeconds() + Math.ceil(remaining)) };
    lastPercent = percent;
    lastWriteMs = nowMs;
    if (engine.ledgerPath !== ':memory:') lease.keep(setExportProgress(engine.db, row.id, row.worker, { ...p, heartbeatTs: Math.floor(nowMs / 1000) }));
    notify?.(p);
  };
}

/** Ends a job this process runs as failed, removing its files; a row it no longer holds (cancelled) is left as it is. */
function failJob(engine: Engine, row: ExportRow, code: string, message: string): void {
  rmSync(tmpPathOf(engine, row), { force: true });
  const current = getExportRow(engine.db, row.id);
  if (current?.file_name) rmSync(filePathOf(engine, current), { force: true });
  failHeldExport(engine.db, row.id, row.worker, { code, message, at: nowIso() });
}

/**
 * The webhook call failed, but the file is whole and the `export.completed` event (logged
 * with the completion, before the call, already on its way to subscribers) links to it: the
 * export goes from completed to failed and the file stays, downloadable until it expires like
 * a completed one's.
 */
function failDelivery(engine: Engine, id: string, message: string): void {
  failExportDelivery(engine.db, id, message, nowIso());
}

/** A ledger report's lots and pending events stay in the heap for the whole ledger: grown at most 2× what survives while it runs (exporters/heap-growth.ts). */
function capped<T>(job: ExportJob, write: () => Promise<T>): Promise<T> {
  return job.ledgerSource ? withHeapGrowthCap(write) : write();
}

/** Writes the file: temp file, fsync, rename; then records its size, count and digest. */
async function produceFile(engine: Engine, lease: JobLease, opts: RunOptions): Promise<ExportRow> {
  const row = lease.row;
  const ws = engine.workspace(row.workspace_id);
  const request = JSON.parse(row.request) as ExportRequest;
  const writer = await writerFor(row.format, request.report_type, request.options.jurisdiction);
  const dir = engine.dir('exports');
  const fileName = `${row.id}.${EXPORT_EXTENSIONS[row.format]}`;
  // The name failJob, cancelExport and recoverInterruptedJobs remove.
  const tmp = tmpPathOf(engine, row);
  const { reader, watch } = openReader(engine);
  let count = row.transaction_count ?? 0;
  let digest: string | undefined;
  try {
    const track = progressTracker(engine, lease, () => count, opts.onProgress);
    const job = buildJob(engine, reader, row, ws, request, track);
    if (job.unconverted && watch) job.unconverted.snapshot = { path: engine.ledgerPath, unchanged: watch.unchanged };
    if (job.ledgerSource && watch) job.ledgerSource.snapshot = { path: engine.ledgerPath, unchanged: watch.unchanged };
    notesBeside(engine, job, watch);
    count = job.transactionCount;
    digest = (await capped(job, () => writer(job, tmp))).sha256;
    lease.check();
    fsyncFile(tmp);
    renameSync(tmp, join(dir, fileName));
  } finally {
    closeReader(engine, reader, watch);
    rmSync(tmp, { force: true });
  }
  const sha256 = digest ?? (await sha256Of(join(dir, fileName)));
  const size = statSync(join(dir, fileName)).size;
  const recorded = recordExportFile(engine.db, row.id, row.worker, {
    file_name: fileName,
    file_size: size,
    transaction_count: count,
    sha256,
    estimated_completion: nowIso(),
  });
  if (recorded === 0) {
    // Cancelled while the file was being finished: the file is no one's.
    rmSync(join(dir, fileName), { force: true });
    lease.keep(0);
    lease.check();
  }
  opts.onProgress?.({ progress: 100, done: count, total: count, estimated_completion: nowIso() });
  return getExportRow(engine.db, row.id)!;
}

/** Sends the file by e-mail or calls the webhook; returns a failure message or null. */
async function deliver(engine: Engine, row: ExportRow, opts: RunOptions): Promise<string | null> {
  const delivery = JSON.parse(row.delivery) as ExportRequest['delivery'];
  if (delivery.method === 'email') {
    const { sendExportEmail } = await import('../exporters/deliver-email.js');
    try {
      await sendExportEmail(delivery.email_recipients ?? [], {
        exportId: row.id,
        format: row.format,
        filePath: filePathOf(engine, row),
        fileName: row.file_name!,
        fileSize: row.file_size!,
        transactionCount: row.transaction_count!,
        downloadUrl: serverLinkOf(engine, row),
        expiresAt: row.expires_at,
      });
      return null;
    } catch (err) {
      return `e-mail to ${delivery.email_recipients?.join(', ')} failed: ${(err as Error).message}`;
    }
  }
  if (delivery.method === 'webhook') {
    const event = completeWithEvent(engine, row);
    const [{ deliverWebhook, DEFAULT_RETRY_DELAYS_MS }, { subscriptionSecret }] = await Promise.all([
      import('../exporters/deliver-webhook.js'),
      import('./webhooks.js'),
    ]);
    const target = delivery.webhook_url!;
    return deliverWebhook({
      url: target,
      secret: subscriptionSecret(engine, row.workspace_id, target, 'export.completed') ?? workspaceWebhookSecret(engine, row.workspace_id),
      messageId: event.id,
      payload: event.payload,
      retryDelaysMs: opts.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
      refusePrivate: opts.refusePrivateTargets,
    });
  }
  return null;
}

/**
 * A webhook export whose file is ready becomes `completed` and gets its `export.completed`
 * event in one write transaction, before the call: a receiver that reads the export on receipt
 * sees it completed, and the call and the subscriptions' deliveries carry the same id and text.
 */
function completeWithEvent(engine: Engine, row: ExportRow): { id: string; payload: string } {
  return engine.write(() => {
    if (!complete(engine, row)) throw cancelled(engine, row.id);
    return engine.events.append(row.workspace_id, 'export.completed', row.id, completedFields(engine, row));
  });
}

/** The fields of docs/exports.md "Delivery and jobs"; the event log's envelope adds `event` (docs/storage.md "The event log"). */
function completedFields(engine: Engine, row: ExportRow): Record<string, unknown> {
  return {
    export_id: row.id,
    format: row.format,
    download_url: downloadUrlOf(engine, row),
    transaction_count: row.transaction_count!,
    file_size: row.file_size!,
    expires_at: row.expires_at,
  };
}

/** `processing` (held by this job) → `completed`; false when the job no longer holds the row. */
function complete(engine: Engine, row: ExportRow): boolean {
  return completeExport(engine.db, row.id, row.worker, nowIso());
}

/** Runs a job this process holds (claiming it if still queued) to its end; returns the failure (already recorded on the export) or null. */
export async function executeJob(engine: Engine, exportId: string, opts: RunOptions = {}): Promise<TxaError | null> {
  let row = getExportRow(engine.db, exportId);
  if (row?.status === 'queued' && claimJob(engine, exportId, opts.role)) row = getExportRow(engine.db, exportId);
  if (row?.status !== 'processing' || !ownedHere(row.worker)) return null;
  const lease = new JobLease(engine, row, opts.signal);
  const webhook = (JSON.parse(row.delivery) as ExportRequest['delivery']).method === 'webhook';
  try {
    let failure: string | null;
    try {
      row = await produceFile(engine, lease, opts);
      lease.check();
      failure = await deliver(engine, row, opts);
    } catch (err) {
      const e = err instanceof TxaError ? err : new TxaError('INTERNAL_ERROR', `the export failed: ${(err as Error).message}`, { cause: err });
      failJob(engine, lease.row, e.code, e.message);
      return e;
    }
    if (failure !== null) {
      if (webhook) failDelivery(engine, exportId, failure);
      else failJob(engine, row, 'DELIVERY_FAILED', failure);
      return new TxaError('DELIVERY_FAILED', failure);
    }
    if (!webhook && !complete(engine, row)) return cancelled(engine, exportId);
    return null;
  } finally {
    lease.stop();
  }
}

/** Runs one export job (claiming it if still queued); its outcome is recorded on the export. */
export async function runExportJob(
  engine: Engine,
  exportId: string,
  onProgress?: (p: JobProgress) => void,
  opts: Omit<RunOptions, 'onProgress'> = {},
): Promise<void> {
  await executeJob(engine, exportId, { ...opts, onProgress });
}

/**
 * The SHA-256 of the file a report export would write, written to a temp file and removed,
 * with no export record (a closed period's digests, engine/periods.ts). Deterministic for
 * formats that print no export id or time (the CSV reports).
 */
export async function reportDigest(engine: Engine, workspaceId: string, body: unknown): Promise<string> {
  const { parseExportBody } = await import('../core/export-schema.js');
  const ws = engine.workspace(workspaceId);
  const { request } = parseExportBody(body, ws);
  const writer = await writerFor(request.format, request.report_type, request.options.jurisdiction);
  return withDigestJob(engine, ws, request, async (job, tmp) => (await writer(job, tmp)).sha256 ?? (await sha256Of(tmp)));
}

/**
 * `fn` on a report job with no export record, reading one snapshot of the ledger, its file a temp
 * file removed afterwards (a closed period's digests).
 */
async function withDigestJob<T>(
  engine: Engine,
  ws: Workspace,
  request: ExportRequest,
  fn: (job: ReturnType<typeof buildJob>, tmp: string) => Promise<T>,
): Promise<T> {
  const row = { id: 'digest', workspace_id: ws.id, format: request.format, created_at: '1970-01-01T00:00:00Z' } as ExportRow;
  const tmp = join(engine.dir('exports'), `.digest-${randomBytes(6).toString('hex')}.${EXPORT_EXTENSIONS[request.format]}`);
  const { reader, watch } = openReader(engine);
  try {
    const job = buildJob(engine, reader, row, ws, request, () => {});
    if (job.unconverted && watch) job.unconverted.snapshot = { path: engine.ledgerPath, unchanged: watch.unchanged };
    if (job.ledgerSource && watch) job.ledgerSource.snapshot = { path: engine.ledgerPath, unchanged: watch.unchanged };
    notesBeside(engine, job, watch);
    return await capped(job, () => fn(job, tmp));
  } finally {
    closeReader(engine, reader, watch);
    rmSync(tmp, { force: true });
  }
}

/**
 * The digests of a close's reports (engine/periods.ts PERIOD_REPORTS: the tax, form8949 and
 * rollforward CSVs of one period), the same as reportDigest's one by one, from one run of the tax
 * ledger on one snapshot (exporters/period-reports.ts). Null where the three cannot share it: the
 * requests differ beyond their report type, the tax report is a jurisdiction's own, or a row falls
 * outside the shared run's rule; the caller then digests them one by one.
 */
export async function periodReportDigests(engine: Engine, workspaceId: string, bodies: Record<string, unknown>): Promise<Record<string, string> | null> {
  const { parseExportBody } = await import('../core/export-schema.js');
  const { NotShared, writePeriodReports } = await import('../exporters/period-reports.js');
  const ws = engine.workspace(workspaceId);
  const types = ['tax', 'form8949', 'rollforward'] as const;
  if (Object.keys(bodies).sort().join() !== [...types].sort().join()) return null;
  const requests = types.map((t) => parseExportBody(bodies[t], ws).request);
  const same = (r: ExportRequest) => JSON.stringify([r.format, r.filters, r.columns, r.options]);
  const tax = requests[0]!;
  if (tax.format !== 'csv' || tax.options.jurisdiction !== undefined || requests.some((r, i) => r.report_type !== types[i] || same(r) !== same(tax)))
    return null;
  try {
    return await withDigestJob(engine, ws, tax, (job, tmp) =>
      writePeriodReports({ tax: job, form8949: { ...job, reportType: 'form8949' }, rollforward: { ...job, reportType: 'rollforward' } }, tmp),
    );
  } catch (err) {
    if (err instanceof NotShared) return null;
    throw err;
  }
}
