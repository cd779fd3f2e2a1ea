/**
 * Scheduled reports (docs/server.md "Scheduled reports"): create, list, delete, run one now, and
 * run what is due. A run exports the last complete period of its schedule through the export path
 * (exports.ts, export-jobs.ts): its export is created with its run in one write transaction, and
 * the partial UNIQUE index on (schedule, period) of scheduled runs lets only one process of all
 * those sharing the ledger record it; the others' transactions roll back, export included. The
 * export is a background job (queued, or claimed in the role `serve`), so a process killed while
 * it runs leaves it to be queued again and finished by the next `serve` or `run-due`: the period
 * is claimed once and delivered once.
 */
import type { Engine } from './engine.js';
import { createExport, toRecord } from './exports.js';
import { getExportRow } from '../store/exports.js';
import { executeJob, recoverInterruptedJobs, type RunOptions } from './export-jobs.js';
import { TxaError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { isoSeconds, now, nowSeconds } from '../core/clock.js';
import { SCHEDULE_TIERS } from '../core/limits.js';
import { parseScheduleBody, type Schedule, type ScheduleRun, type ScheduleTemplate } from '../core/schedule-schema.js';
import { dayText, dueAt, latestDue, nextPeriod, type Frequency, type Period } from '../core/schedule-periods.js';
import type { Deleted } from '../core/types.js';
import {
  activeScheduleRows,
  deleteScheduleRow,
  getScheduleRow,
  insertSchedule,
  insertScheduleRun,
  lastScheduleRun,
  listScheduleRows,
  queuedRunExports,
  scheduledRunExists,
  type ScheduleRow,
} from '../store/schedules.js';

function requireTier(engine: Engine, workspaceId: string): void {
  const ws = engine.workspace(workspaceId);
  if (!SCHEDULE_TIERS.includes(ws.tier))
    throw new TxaError('TIER_LIMIT', `scheduled reports are a feature of the ${SCHEDULE_TIERS.join(' and ')} tiers; this workspace is ${ws.tier}`, {
      hint: 'Upgrade the workspace (txa workspace update ID --tier pro), or run exports from cron with txa export create.',
    });
}

function requireRow(engine: Engine, workspaceId: string, id: string): ScheduleRow {
  const row = getScheduleRow(engine.db, workspaceId, id);
  if (!row) throw new TxaError('SCHEDULE_NOT_FOUND', `schedule ${id} not found`, { hint: 'List schedules with: txa schedules list' });
  return row;
}

/** The period a run at `nowMs` exports, and whether it is the schedule's to run (it became due after the schedule was made). */
function duePeriod(row: ScheduleRow, nowMs: number): { period: Period; due: boolean } {
  const period = latestDue(row.every as Frequency, row.time_zone, nowMs);
  return { period, due: dueAt(period, row.time_zone) > row.created_ts * 1000 };
}

function toSchedule(engine: Engine, row: ScheduleRow): Schedule {
  const t = JSON.parse(row.template) as ScheduleTemplate;
  const every = row.every as Frequency;
  const { period, due } = duePeriod(row, now().getTime());
  // Due and not made (missed while nothing ran): made at the next check, so its time has come.
  const pending = due && !scheduledRunExists(engine.db, row.id, dayText(period.start));
  const next = pending ? dueAt(period, row.time_zone) : dueAt(nextPeriod(every, period), row.time_zone);
  const last = lastScheduleRun(engine.db, row.id);
  const s: Schedule = {
    id: row.id,
    workspace_id: row.workspace_id,
    name: row.name,
    every,
    time_zone: row.time_zone,
    format: t.format,
    report_type: t.report_type ?? null,
    filters: t.filters,
    options: t.options,
    delivery: t.delivery,
    next_run_at: isoSeconds(Math.floor(next / 1000)),
    last_run: last ? { period_start: last.period_start, period_end: last.period_end, export_id: last.export_id, ran_at: last.ran_at } : null,
    created_at: row.created_at,
  };
  if (t.columns) s.columns = t.columns;
  return s;
}

export function createSchedule(engine: Engine, workspaceId: string, body: unknown): Schedule {
  const ws = engine.workspace(workspaceId);
  const input = parseScheduleBody(body, ws);
  requireTier(engine, workspaceId);
  const ts = nowSeconds();
  const row: ScheduleRow = {
    id: newId('sch'),
    workspace_id: workspaceId,
    name: input.name,
    every: input.every,
    time_zone: input.time_zone,
    template: JSON.stringify(input.template),
    created_at: isoSeconds(ts),
    created_ts: ts,
    actor: engine.actor,
  };
  engine.write(() => insertSchedule(engine.db, row));
  return toSchedule(engine, row);
}

export function listSchedules(engine: Engine, workspaceId: string): Schedule[] {
  engine.workspace(workspaceId);
  return listScheduleRows(engine.db, workspaceId).map((r) => toSchedule(engine, r));
}

export function deleteSchedule(engine: Engine, workspaceId: string, id: string): Deleted {
  engine.workspace(workspaceId);
  return engine.write(() => {
    requireRow(engine, workspaceId, id);
    deleteScheduleRow(engine.db, id);
    return { id, deleted: true as const };
  });
}

/** A scheduled run another process recorded first: its transaction (and its export) rolled back. */
export class AlreadyRun extends Error {}

/**
 * Makes the export of one run, recording the run (and its `schedule.run` event) in the export's
 * own transaction. `manual`: a repeat allowed when the period's scheduled run is made; else a
 * period already run is AlreadyRun. The export is queued for a background job (never claimed as
 * a `cli` one, which a dead process would leave failed rather than queued again). Exported for
 * the race test, which runs it past the pre-check a second process would have made too.
 */
export async function makeRun(engine: Engine, row: ScheduleRow, period: Period, manual: boolean): Promise<ScheduleRun> {
  const t = JSON.parse(row.template) as ScheduleTemplate;
  const dates = { start_date: dayText(period.start), end_date: dayText(period.end) };
  let kind: ScheduleRun['kind'] = 'scheduled';
  let ranAt = '';
  const record = await createExport(engine, row.workspace_id, t, {
    dates,
    within: (exportId) => {
      const ts = nowSeconds();
      ranAt = isoSeconds(ts);
      const run = { schedule_id: row.id, period_start: dates.start_date, period_end: dates.end_date, export_id: exportId, ran_at: ranAt, ran_ts: ts };
      if (!insertScheduleRun(engine.db, { ...run, kind: 'scheduled' })) {
        if (!manual) throw new AlreadyRun();
        kind = 'manual';
        insertScheduleRun(engine.db, { ...run, kind });
      }
      engine.change(row.workspace_id, 'schedule.run', row.id, {
        schedule_id: row.id,
        export_id: exportId,
        kind,
        period_start: run.period_start,
        period_end: run.period_end,
      });
    },
  });
  return { schedule_id: row.id, kind, period_start: dates.start_date, period_end: dates.end_date, export_id: record.id, ran_at: ranAt, export: record };
}

/**
 * `schedules run ID`: exports the schedule's last complete period now. It is the period's
 * scheduled run when that is not made yet (so no server makes it again), else a manual repeat.
 */
export async function runSchedule(engine: Engine, workspaceId: string, id: string): Promise<ScheduleRun> {
  engine.workspace(workspaceId);
  const row = requireRow(engine, workspaceId, id);
  requireTier(engine, workspaceId);
  return makeRun(engine, row, latestDue(row.every as Frequency, row.time_zone, now().getTime()), true);
}

export interface DueOutcome {
  runs: ScheduleRun[];
  /** Schedules whose export could not be made (the period is tried again at the next check). */
  failures: { schedule_id: string; period_start: string; error: TxaError }[];
}

/**
 * Makes the due period of every schedule (of a Pro or Enterprise workspace) not yet made by any
 * process: only the latest complete one, however many were missed (a clock moved forward three
 * months makes one run, not three). A failure to create the export (a quota, SMTP not set up)
 * records nothing, so the period is tried again at the next check.
 */
export async function createDueRuns(engine: Engine): Promise<DueOutcome> {
  const nowMs = now().getTime();
  const out: DueOutcome = { runs: [], failures: [] };
  for (const row of activeScheduleRows(engine.db, SCHEDULE_TIERS)) {
    const { period, due } = duePeriod(row, nowMs);
    if (!due || scheduledRunExists(engine.db, row.id, dayText(period.start))) continue;
    try {
      out.runs.push(await makeRun(engine, row, period, false));
    } catch (err) {
      if (err instanceof AlreadyRun) continue;
      const e = err instanceof TxaError ? err : new TxaError('INTERNAL_ERROR', `the run failed: ${(err as Error).message}`, { cause: err });
      out.failures.push({ schedule_id: row.id, period_start: dayText(period.start), error: e });
    }
  }
  return out;
}

/**
 * `schedules run-due` (cron, CI): makes what is due and runs every scheduled run's export still
 * waiting (its own, and those a killed process left), in this process as background jobs, so one
 * killed here is queued again for the next run. Runs a quota held back (CONCURRENT_EXPORT_LIMIT:
 * more schedules due at once than the tier runs together) are made once the exports before them
 * have ended. Returns the runs made, the failures left, and the exports run.
 */
export async function runDue(engine: Engine, opts: Omit<RunOptions, 'role'> = {}): Promise<DueOutcome & { exports: string[] }> {
  recoverInterruptedJobs(engine);
  const runs: ScheduleRun[] = [];
  const ran: string[] = [];
  let failures: DueOutcome['failures'] = [];
  for (;;) {
    const round = await createDueRuns(engine);
    runs.push(...round.runs);
    failures = round.failures;
    for (const id of queuedRunExports(engine.db)) {
      await executeJob(engine, id, { ...opts, role: 'serve' });
      ran.push(id);
    }
    const heldBack = failures.some((f) => f.error.status === 429);
    if (round.runs.length === 0 || !heldBack) break;
  }
  // The records as they ended, for the report.
  for (const run of runs) {
    const row = getExportRow(engine.db, run.export_id);
    if (row) run.export = toRecord(engine, row);
  }
  return { runs, failures, exports: ran };
}
