/**
 * Scheduled reports on the local ledger (docs/server.md "Scheduled reports"): `schedules run-due`
 * for cron or CI, and `schedules run ID`, whose export this process then runs to its end. The
 * jobs run as background ones (role `serve`), so one whose process is killed is queued again and
 * finished by the next `run-due` or `serve`, not failed: its period is delivered once.
 */
import type { Engine } from '../engine/engine.js';
import { getExport } from '../engine/exports.js';
import { executeJob } from '../engine/export-jobs.js';
import { runDue, runSchedule } from '../engine/schedules.js';

export function schedulesService(engine: Engine) {
  return {
    runDue: () => runDue(engine),
    run: async (ws: string, id: string) => {
      const run = await runSchedule(engine, ws, id);
      await executeJob(engine, run.export_id, { role: 'serve' });
      return { ...run, export: getExport(engine, ws, run.export_id) };
    },
  };
}

export type SchedulesService = ReturnType<typeof schedulesService>;
