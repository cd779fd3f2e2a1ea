/** `txa period close --through YYYY-MM-DD [--note TEXT]`: closes every day through a date (docs/periods.md). */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { required, showPeriod } from './show.js';

export interface CloseOptions {
  through?: string;
  note?: string;
}

export async function run(ctx: Context, opts: CloseOptions): Promise<void> {
  const ws = ctx.workspace();
  const through = required(opts.through, '--through', 'the last day of the period, YYYY-MM-DD');
  const period = await (await ctx.backend()).closePeriod(ws, { workspace_id: ws, through, ...(opts.note !== undefined && { note: opts.note }) });
  showPeriod(ctx, period);
  if (!ctx.out.json) ctx.out.notice(`Writes dated on or before ${through} are now refused (PERIOD_CLOSED); \`txa check\` verifies the digests.`);
}

export function register(parent: Command): void {
  parent
    .command('close')
    .description('close every day through a date: writes into it are refused; records digests of its rows and reports')
    .option('--through <date>', 'last day of the period, YYYY-MM-DD')
    .option('--note <text>', 'a note kept with the close (e.g. "filed 2025-04-10")')
    .action(action<CloseOptions>((ctx, flags) => run(ctx, flags)));
}
