/**
 * `txa schedules run ID`: exports the schedule's last complete period now and delivers it. On the
 * local ledger this process runs the export to its end; on the API the server's worker does.
 */
import type { Command } from 'commander';
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
}

export function register(parent: Command): void {
  parent
    .command('run')
    .description("run a schedule now: export its last complete period and deliver it (the period's scheduled run if not made yet)")
    .argument('<id>', 'schedule id')
    .action(action<Record<string, never>>((ctx, _flags, [id]) => run(ctx, { id: id! })));
}
