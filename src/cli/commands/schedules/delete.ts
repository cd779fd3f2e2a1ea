/** `txa schedules delete ID`: no more runs of a schedule, after a confirmation; its exports stay. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action, confirmOrCancel, requireAnswerable } from '../../run.js';

export interface DeleteOptions {
  id: string;
  yes?: boolean;
}

export async function run(ctx: Context, opts: DeleteOptions): Promise<void> {
  requireAnswerable(opts.yes);
  const ws = ctx.workspace();
  if (!(await confirmOrCancel(ctx.out, opts.yes, `Delete schedule ${opts.id}?`))) return;
  const result = await (await ctx.backend()).deleteSchedule(ws, opts.id);
  ctx.out.result(result, () => ctx.out.notice(`Deleted schedule ${result.id}.`));
}

export function register(parent: Command): void {
  parent
    .command('delete')
    .description('delete a schedule: no more runs (the exports it made stay)')
    .argument('<id>', 'schedule id')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(action<{ yes?: boolean }>((ctx, flags, [id]) => run(ctx, { ...flags, id: id! })));
}
