/** `txa lots list` (also plain `txa lots`): the lots open at the end of a UTC day, in the scope of that date (docs/lots.md). */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { printOpenLots } from '../../lot-views.js';

export interface ListOptions {
  at?: string;
  wallet?: string;
  asset?: string;
  costBasis?: string;
}

export async function run(ctx: Context, opts: ListOptions): Promise<void> {
  const ws = ctx.workspace();
  // Passed as given: the backend answers a bad value with INVALID_PARAMETERS naming the parameter, as the API does.
  const res = await (await ctx.backend()).listLots(ws, { at: opts.at, wallet_id: opts.wallet, asset: opts.asset, cost_basis: opts.costBasis });
  ctx.out.result(res, () => printOpenLots(ctx.out, res));
}

export function register(parent: Command): void {
  parent
    .command('list', { isDefault: true })
    .description('open lots at the end of a UTC day: pooled before 2025, per wallet from then on')
    .option('--at <date>', 'YYYY-MM-DD (default today, UTC)')
    .option('--wallet <id>', 'only this wallet (lots are per wallet from 2025)')
    .option('--asset <symbol>', 'only this asset')
    .option('--cost-basis <method>', 'how disposals took lots: specific (the picks, then fifo; default), fifo, lifo or hifo')
    .action(action<ListOptions>((ctx, flags) => run(ctx, flags)));
}
