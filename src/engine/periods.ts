/**
 * Closed periods (docs/periods.md): `period close|reopen|list`, their events, and the guard the
 * engine's writes run under. The database refuses a write into a closed period by itself
 * (store/periods.ts, triggers); `assertOpen` is the same check for a caller that wants to refuse
 * before it writes, or that writes to tables the triggers do not watch (lots, picks).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Engine } from './engine.js';
import { TxaError } from '../core/errors.js';
import type { Period, PeriodDigests } from '../core/types.js';
import { newId } from '../core/ids.js';
import { nowIso } from '../core/clock.js';
import { dayOf, parseDay } from '../core/dates.js';
import { eventVersion } from '../store/events.js';
import { ROWS_DIGEST_VERSION, rowsDigestOf } from './rows-digest.js';
import {
  closedPeriods,
  endOfDay,
  hasRowsBefore,
  insertPeriodRecord,
  periodRecords,
  refreshPeriodGuard,
  rowsBefore,
  type PeriodRecordRow,
} from '../store/periods.js';

/**
 * The reports a close keeps a digest of, by report type: each the body of a CSV export of that
 * type over the period (its dates added). Adding a report type to the digests is one line here.
 */
export const PERIOD_REPORTS: Record<string, { report_type: string; format: 'csv'; options?: Record<string, unknown> }> = {
  tax: { report_type: 'tax', format: 'csv' },
  form8949: { report_type: 'form8949', format: 'csv' },
  rollforward: { report_type: 'rollforward', format: 'csv' },
};

function requireThrough(value: unknown): string {
  if (value === undefined || value === null || value === '')
    throw new TxaError('MISSING_REQUIRED_FIELD', 'through is required: the last day of the period, YYYY-MM-DD', { field: 'through' });
  if (typeof value !== 'string' || parseDay(value) === null)
    throw new TxaError('INVALID_FIELD', `through must be a day in the format YYYY-MM-DD, got '${String(value)}'`, { field: 'through' });
  return value;
}

function optionalText(body: Record<string, unknown>, field: string, max: number): string | null {
  const v = body[field];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') throw new TxaError('INVALID_FIELD', `${field} must be text`, { field });
  if (v.length > max) throw new TxaError('INVALID_FIELD', `${field} must be at most ${max} characters`, { field });
  return v.trim() === '' ? null : v;
}

const bodyOf = (body: unknown): Record<string, unknown> => {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new TxaError('INVALID_JSON', 'the request body must be a JSON object');
  return body as Record<string, unknown>;
};

/** The workspace's last closed day and the first second after it, or null when nothing is closed. */
export function closedThrough(engine: Engine, workspaceId: string): { through: string; endTs: number } | null {
  const last = closedPeriods(engine.db, workspaceId).at(-1);
  return last ? { through: last.through, endTs: endOfDay(last.through) } : null;
}

/** What a write names that may fall in a closed period: days (`YYYY-MM-DD`), times (Unix seconds) or stored rows. */
export interface OpenCheck {
  dates?: readonly string[];
  timestamps?: readonly number[];
  rowIds?: readonly string[];
  /** The field to name when a date or time is closed (the flag, `at`); rows are named by their id. */
  field?: string;
}

/**
 * Refuses, with PERIOD_CLOSED, a write that names a day, a time or a row on or before the
 * workspace's last closed day (docs/periods.md, "The guard"). Call it before writing, inside the
 * write's transaction so no close can come between. `lots allocate`/`lots pick` call it with
 * their dates and the disposals' ids.
 */
export function assertOpen(engine: Engine, workspaceId: string, check: OpenCheck): void {
  const closed = closedThrough(engine, workspaceId);
  if (!closed) return;
  const hint = `Reopen it first: txa period reopen --through ${closed.through} --reason TEXT`;
  const fail = (what: string, field: string, count?: number) =>
    new TxaError('PERIOD_CLOSED', `${what} on or before ${closed.through}, a closed period; nothing was written`, {
      field,
      extra: { closed_through: closed.through, ...(count !== undefined && { count }) },
      hint,
    });
  for (const d of check.dates ?? []) {
    const ts = parseDay(d);
    if (ts !== null && ts < closed.endTs) throw fail(`${d} is`, check.field ?? 'date');
  }
  for (const ts of check.timestamps ?? []) if (ts < closed.endTs) throw fail(`${dayOf(ts)} is`, check.field ?? 'date');
  if (check.rowIds?.length) {
    const { first, count } = rowsBefore(engine.db, workspaceId, check.rowIds, closed.endTs);
    if (first) throw fail(count === 1 ? `transaction ${first} is dated` : `${count} of the transactions (the first ${first}) are dated`, first, count);
  }
}

/**
 * Refuses a write of many rows (an import's new rows, a price fill's) when any is dated in a
 * closed period: PERIOD_CLOSED naming the first, and how many (`what`: "imported", "valued").
 */
export function assertRowsOpen(engine: Engine, workspaceId: string, rows: readonly { id: string; ts: number }[], what: string): void {
  const closed = closedThrough(engine, workspaceId);
  if (!closed) return;
  const early = rows.filter((r) => r.ts < closed.endTs);
  if (early.length === 0) return;
  const n = early.length;
  throw new TxaError(
    'PERIOD_CLOSED',
    `${n} ${n === 1 ? 'row' : 'rows'} to be ${what} (the first ${early[0]!.id}) ${n === 1 ? 'is' : 'are'} dated on or before ${closed.through}, a closed period; nothing was written`,
    {
      field: early[0]!.id,
      extra: { closed_through: closed.through, count: n },
      hint: `Reopen the period first (txa period reopen --through ${closed.through} --reason TEXT), or leave its dates out`,
    },
  );
}

function toPeriod(records: PeriodRecordRow[], previousThrough: string | null): Period {
  const last = records.at(-1)!;
  const close = [...records].reverse().find((r) => r.action === 'close')!;
  const reopen = last.action === 'reopen' ? last : null;
  return {
    workspace_id: last.workspace_id,
    through: last.through,
    status: last.action === 'close' ? 'closed' : 'reopened',
    from: previousThrough === null ? null : dayOf(endOfDay(previousThrough)),
    note: close.note,
    closed_at: close.at,
    closed_by: close.actor,
    reopened_at: reopen?.at ?? null,
    reopened_by: reopen?.actor ?? null,
    reason: reopen?.reason ?? null,
    digests: close.digests ? (JSON.parse(close.digests) as PeriodDigests) : null,
    history: records.map((r) => ({ action: r.action, at: r.at, actor: r.actor, note: r.note, reason: r.reason })),
  };
}

/** Every through-date ever closed, by day, each with its state and history. */
export function listPeriods(engine: Engine, workspaceId: string): Period[] {
  engine.workspace(workspaceId);
  const byThrough = new Map<string, PeriodRecordRow[]>();
  for (const r of periodRecords(engine.db, workspaceId)) byThrough.set(r.through, [...(byThrough.get(r.through) ?? []), r]);
  let previousClosed: string | null = null;
  return [...byThrough.keys()].sort().map((through) => {
    const records = byThrough.get(through)!;
    const period = toPeriod(records, previousClosed);
    if (period.status === 'closed') previousClosed = through;
    return period;
  });
}

/** The export bodies of PERIOD_REPORTS over the period `from` (null: from the first row) through `through`. */
function periodBodies(through: string, from: string | null): Record<string, Record<string, unknown>> {
  const filters = { ...(from !== null && { start_date: from }), end_date: through };
  return Object.fromEntries(Object.entries(PERIOD_REPORTS).map(([name, spec]) => [name, { ...spec, filters }]));
}

/**
 * The digest of each report of PERIOD_REPORTS over the period `from` (null: from the first row)
 * through `through`: from one run of the tax ledger feeding the three (export-jobs.ts
 * periodReportDigests), else, where they cannot share it, one report at a time.
 */
export async function reportDigests(engine: Engine, workspaceId: string, through: string, from: string | null): Promise<Record<string, string>> {
  const { periodReportDigests } = await import('./export-jobs.js');
  return (await periodReportDigests(engine, workspaceId, periodBodies(through, from))) ?? reportDigestsOneByOne(engine, workspaceId, through, from);
}

/** The same digests, each report written by its own export (its own ledger run): the reference the shared run is held to. */
export async function reportDigestsOneByOne(engine: Engine, workspaceId: string, through: string, from: string | null): Promise<Record<string, string>> {
  const { reportDigest } = await import('./export-jobs.js');
  const reports: Record<string, string> = {};
  for (const [name, body] of Object.entries(periodBodies(through, from))) reports[name] = await reportDigest(engine, workspaceId, body);
  return reports;
}

/**
 * Every digest a close of `through` records: the rows' (version ROWS_DIGEST_VERSION) in a worker
 * thread on its own connection to a file ledger, while this thread writes the reports (on two
 * cores a close then takes about as long as its tax report alone).
 */
export async function periodDigests(engine: Engine, workspaceId: string, through: string, from: string | null): Promise<PeriodDigests> {
  const offThread =
    engine.ledgerPath !== ':memory:' && existsSync(fileURLToPath(DIGEST_WORKER)) && hasRowsBefore(engine.db, workspaceId, endOfDay(through), OFF_THREAD_ROWS);
  const version = ROWS_DIGEST_VERSION;
  const rows = offThread
    ? rowsDigestOffThread(engine.ledgerPath, workspaceId, through, version)
    : Promise.resolve(rowsDigestOf(engine.db, workspaceId, through, version));
  const [reports, digest] = await Promise.all([reportDigests(engine, workspaceId, through, from), rows]);
  return { rows: digest, rows_version: version, reports };
}

/** The worker's compiled module (beside this one in dist/; absent where the sources run, as under vitest: the digest is then made here). */
const DIGEST_WORKER = new URL('./rows-digest-worker.js', import.meta.url);
/** From this many rows a worker's start (tens of milliseconds) is worth it. */
const OFF_THREAD_ROWS = 20_000;

function rowsDigestOffThread(ledgerPath: string, workspaceId: string, through: string, version: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(DIGEST_WORKER, { workerData: { ledgerPath, workspaceId, through, version } });
    worker.once('message', (m: { digest?: string; error?: string }) => (m.digest ? resolve(m.digest) : reject(new Error(m.error))));
    worker.once('error', reject);
    worker.once('exit', (code) => code !== 0 && reject(new Error(`the rows digest's worker exited with ${code}`)));
  });
}

/** Tries at digesting a period while other writers keep changing the workspace, before giving up. */
const CLOSE_ATTEMPTS = 3;

/**
 * `period close`: records the close with its digests and `period.closed` in one transaction,
 * and from then the guard refuses writes into it. The digests are computed first, outside the
 * write (a report is written to a file); if the workspace changed meanwhile, they are again.
 */
export async function closePeriod(engine: Engine, workspaceId: string, body: unknown): Promise<Period> {
  engine.workspace(workspaceId);
  const b = bodyOf(body);
  const through = requireThrough(b.through);
  const note = optionalText(b, 'note', 2000);
  for (let attempt = 1; ; attempt++) {
    const closed = closedPeriods(engine.db, workspaceId);
    const last = closed.at(-1);
    if (last && last.through >= through) {
      const what = last.through === through ? `${through} is closed already` : `${through} is in the period closed through ${last.through}`;
      throw new TxaError('PERIOD_CLOSED', what, { field: 'through', extra: { closed_through: last.through } });
    }
    const from = last ? dayOf(endOfDay(last.through)) : null;
    const version = eventVersion(engine.db, workspaceId);
    const digests = await periodDigests(engine, workspaceId, through, from);
    const done = engine.write(() => {
      if (eventVersion(engine.db, workspaceId) !== version || closedPeriods(engine.db, workspaceId).length !== closed.length) return false;
      const record = insertPeriodRecord(engine.db, {
        id: newId('per'),
        workspace_id: workspaceId,
        through,
        action: 'close',
        note,
        reason: null,
        actor: engine.actor,
        at: nowIso(),
        digests: JSON.stringify(digests),
      });
      refreshPeriodGuard(engine.db);
      engine.change(workspaceId, 'period.closed', record.id, { period: { through, from, note, digests } });
      return true;
    });
    if (done) return listPeriods(engine, workspaceId).find((p) => p.through === through)!;
    if (attempt === CLOSE_ATTEMPTS)
      throw new TxaError('PERIOD_CLOSED', `the workspace kept changing while ${through} was being digested; try again`, { field: 'through' });
  }
}

/** `period reopen`: the latest close only (a later one closes these dates too), with a reason; `period.reopened` in the same transaction. */
export function reopenPeriod(engine: Engine, workspaceId: string, body: unknown): Period {
  engine.workspace(workspaceId);
  const b = bodyOf(body);
  const through = requireThrough(b.through);
  const reason = optionalText(b, 'reason', 2000);
  if (reason === null) throw new TxaError('MISSING_REQUIRED_FIELD', 'reason is required: say why the period is reopened', { field: 'reason' });
  engine.write(() => {
    const closed = closedPeriods(engine.db, workspaceId);
    const record = closed.find((p) => p.through === through);
    if (!record) {
      const which = closed.length ? `closed: ${closed.map((p) => p.through).join(', ')}` : 'nothing is closed';
      throw new TxaError('INVALID_FIELD', `no closed period ends on ${through} (${which})`, { field: 'through' });
    }
    const later = closed.at(-1)!;
    if (later.through !== through) {
      throw new TxaError('PERIOD_CLOSED', `${through} is also closed by the period through ${later.through}: reopen that first`, {
        field: 'through',
        extra: { closed_through: later.through },
      });
    }
    const row = insertPeriodRecord(engine.db, {
      id: newId('per'),
      workspace_id: workspaceId,
      through,
      action: 'reopen',
      note: null,
      reason,
      actor: engine.actor,
      at: nowIso(),
      digests: null,
    });
    refreshPeriodGuard(engine.db);
    engine.change(workspaceId, 'period.reopened', row.id, { period: { through }, reason });
  });
  return listPeriods(engine, workspaceId).find((p) => p.through === through)!;
}
