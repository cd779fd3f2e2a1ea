/**
 * `txa schedules run ID`: exports the schedule's last complete period now and delivers it. On the
 * local ledger this process runs the export to its end; on the API the server's worker does.
 */
import type { Command } from 'commander';
import { isErrorCode, TxaError } from '../../../core/errors.js';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { printRun } from './view.js';

export interface RunOptions {
  id: string;
}

export async function run(ctx: Context, opts: RunOptions): Promise<void> {
  const ws = ctx.workspace();
  const backend = await ctx.backend();
  const result =
    backend.kind === 'local' ? await (await (await ctx.local('schedules run')).schedules()).run(ws, opts.id) : await backend.runSchedule(ws, opts.id);
  ctx.out.result(result, () => printRun(ctx.out, result));
  // As `export create`: an export that failed (its delivery, say) is the command's failure.
  const error = result.export.status === 'failed' ? result.export.error : undefined;
  if (error) throw new TxaError(isErrorCode(error.code) ? error.code : 'DELIVERY_FAILED', `export ${result.export_id} failed: ${error.code}: ${error.message}`);
}

export function register(parent: Command): void {
  parent
    .command('run')
    .description("run a schedule now: export its last complete period and deliver it (the period's scheduled run if not made yet)")
    .argument('<id>', 'schedule id')
    .action(action<Record<string, never>>((ctx, _flags, [id]) => run(ctx, { id: id! })));
}
