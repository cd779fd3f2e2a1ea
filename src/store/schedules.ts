/** Scheduled reports and their runs (docs/server.md "Scheduled reports"; migration 28). */
import type { Db } from './db.js';
import { prepareCached } from './statements.js';

export interface ScheduleRow {
  id: string;
  workspace_id: string;
  name: string;
  every: string;
  time_zone: string;
  /** JSON: the export body of each run, less its dates. */
  template: string;
  created_at: string;
  created_ts: number;
  actor: string;
}

export interface ScheduleRunRow {
  schedule_id: string;
  kind: 'scheduled' | 'manual';
  period_start: string;
  period_end: string;
  export_id: string;
  ran_at: string;
  ran_ts: number;
}

export function insertSchedule(db: Db, row: ScheduleRow): void {
  prepareCached(
    db,
    `INSERT INTO schedules (id, workspace_id, name, every, time_zone, template, created_at, created_ts, actor)
     VALUES (@id, @workspace_id, @name, @every, @time_zone, @template, @created_at, @created_ts, @actor)`,
  ).run(row);
}

export function getScheduleRow(db: Db, workspaceId: string, id: string): ScheduleRow | undefined {
  return prepareCached(db, 'SELECT * FROM schedules WHERE id = ? AND workspace_id = ?').get(id, workspaceId) as ScheduleRow | undefined;
}

export function listScheduleRows(db: Db, workspaceId: string): ScheduleRow[] {
  return prepareCached(db, 'SELECT * FROM schedules WHERE workspace_id = ? ORDER BY created_ts, id').all(workspaceId) as ScheduleRow[];
}

/** Every schedule of the ledger whose workspace's tier allows schedules. */
export function activeScheduleRows(db: Db, tiers: readonly string[]): ScheduleRow[] {
  return prepareCached(
    db,
    `SELECT s.* FROM schedules s JOIN workspaces w ON w.id = s.workspace_id
     WHERE w.tier IN (SELECT value FROM json_each(?)) ORDER BY s.created_ts, s.id`,
  ).all(JSON.stringify(tiers)) as ScheduleRow[];
}

/** Removes a schedule and its runs (their exports stay, as any export does). */
export function deleteScheduleRow(db: Db, id: string): void {
  prepareCached(db, 'DELETE FROM schedules WHERE id = ?').run(id);
}

/**
 * Records a run; false when it is a `scheduled` run of a (schedule, period) already recorded (the
 * UNIQUE index): another process has it, and the caller rolls back the export it was writing.
 */
export function insertScheduleRun(db: Db, run: ScheduleRunRow): boolean {
  return (
    prepareCached(
      db,
      `INSERT INTO schedule_runs (schedule_id, kind, period_start, period_end, export_id, ran_at, ran_ts)
       VALUES (@schedule_id, @kind, @period_start, @period_end, @export_id, @ran_at, @ran_ts)
       ON CONFLICT (schedule_id, period_start) WHERE kind = 'scheduled' DO NOTHING`,
    ).run(run).changes === 1
  );
}

/** Whether the period's scheduled run is recorded. */
export function scheduledRunExists(db: Db, scheduleId: string, periodStart: string): boolean {
  return (
    prepareCached(db, "SELECT 1 FROM schedule_runs WHERE schedule_id = ? AND period_start = ? AND kind = 'scheduled'").get(scheduleId, periodStart) !==
    undefined
  );
}

/** A schedule's latest run, scheduled or manual. */
export function lastScheduleRun(db: Db, scheduleId: string): ScheduleRunRow | undefined {
  return prepareCached(db, 'SELECT * FROM schedule_runs WHERE schedule_id = ? ORDER BY ran_ts DESC, rowid DESC LIMIT 1').get(scheduleId) as
    | ScheduleRunRow
    | undefined;
}

/** The exports of runs still `queued` (a run whose process is gone, or one no worker has taken yet). */
export function queuedRunExports(db: Db): string[] {
  return prepareCached(db, "SELECT r.export_id FROM schedule_runs r JOIN exports e ON e.id = r.export_id WHERE e.status = 'queued' ORDER BY r.ran_ts")
    .pluck()
    .all() as string[];
}
