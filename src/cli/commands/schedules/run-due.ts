/**
 * `txa schedules run-due`: makes every scheduled report that is due, once, and runs their exports
 * to their end, for cron or CI without a server (docs/server.md "Running schedules from cron or
 * CI"); local only. A run failed exits 1 after the others are made.
 */
import type { Command } from 'commander';
import { isErrorCode, TxaError } from '../../../core/errors.js';
import type { Context } from '../../context.js';
import { action } from '../../run.js';

export type RunDueOptions = Record<string, never>;

export async function run(ctx: Context, _opts: RunDueOptions): Promise<void> {
  const schedules = await (await ctx.local('schedules run-due')).schedules();
  const { runs, failures, exports } = await schedules.runDue();
  const failed = [
    ...failures.map((f) => ({ schedule_id: f.schedule_id, period_start: f.period_start, error: f.error.toBody().error })),
    ...runs.filter((r) => r.export.status === 'failed').map((r) => ({ schedule_id: r.schedule_id, period_start: r.period_start, error: r.export.error })),
  ];
  const data = { runs, resumed: exports.filter((id) => !runs.some((r) => r.export_id === id)), failed };
  ctx.out.result(data, () => {
    for (const r of runs) ctx.out.notice(`schedule ${r.schedule_id}: ${r.period_start}..${r.period_end} → export ${r.export_id} ${r.export.status}`);
    for (const id of data.resumed) ctx.out.notice(`resumed export ${id}`);
    if (runs.length === 0 && data.resumed.length === 0 && failed.length === 0) ctx.out.notice('nothing is due');
  });
  if (failed.length > 0) {
    const f = failed[0]!;
    const code = f.error && isErrorCode(f.error.code) ? f.error.code : 'DELIVERY_FAILED';
    throw new TxaError(code, `${failed.length} scheduled run(s) failed; first: schedule ${f.schedule_id} (${f.error?.code}: ${f.error?.message})`);
  }
}

export function register(parent: Command): void {
  parent
    .command('run-due')
    .description('make every scheduled report that is due, once, and deliver it: for cron or CI without a server (local only)')
    .action(action<RunDueOptions>((ctx, flags) => run(ctx, flags)));
}
