/** `txa period reopen --through YYYY-MM-DD --reason TEXT`: reopens the latest closed period (docs/periods.md). */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { required, showPeriod } from './show.js';

export interface ReopenOptions {
  through?: string;
  reason?: string;
}

export async function run(ctx: Context, opts: ReopenOptions): Promise<void> {
  const ws = ctx.workspace();
  const through = required(opts.through, '--through', 'the last day of the closed period, YYYY-MM-DD');
  const reason = required(opts.reason, '--reason', 'say why the period is reopened (kept in its history and the event)');
  showPeriod(ctx, await (await ctx.backend()).reopenPeriod(ws, { workspace_id: ws, through, reason }));
}

export function register(parent: Command): void {
  parent
    .command('reopen')
    .description('reopen the latest closed period, with a reason')
    .option('--through <date>', 'last day of the closed period, YYYY-MM-DD')
    .option('--reason <text>', 'why it is reopened (required)')
    .action(action<ReopenOptions>((ctx, flags) => run(ctx, flags)));
}
