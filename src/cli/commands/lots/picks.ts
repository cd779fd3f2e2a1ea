/** `txa lots picks [DISPOSAL_TX_ID]`: the picks recorded, with when and by whom (docs/lots.md "Specific identification"). */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { printPicks } from '../../lot-views.js';

export interface PicksOptions {
  disposalId?: string;
}

export async function run(ctx: Context, opts: PicksOptions): Promise<void> {
  const ws = ctx.workspace();
  const picks = await (await ctx.backend()).listLotPicks(ws, { disposal_id: opts.disposalId });
  ctx.out.result(picks, () => printPicks(ctx.out, picks));
}

export function register(parent: Command): void {
  parent
    .command('picks')
    .description('the picks recorded, of one disposal or all')
    .argument('[disposal_tx_id]', 'only this disposal')
    .action(action<Record<string, never>, [string | undefined]>((ctx, _flags, [disposalId]) => run(ctx, { disposalId })));
}
