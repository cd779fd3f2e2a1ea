/** `txa lots pick DISPOSAL_TX_ID LOT[:QUANTITY] ...`: which lots a disposal takes, recorded now (docs/lots.md "Specific identification"). */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { printPicks } from '../../lot-views.js';

export interface PickOptions {
  disposalId: string;
  /** `LOT` (as much of it as the disposal still needs) or `LOT:QUANTITY`. */
  lots: string[];
}

/** `tx_…:0.5` → the lot and its quantity; a lot id holds no colon. */
function pickOf(arg: string): { lot: string; quantity?: string } {
  const at = arg.lastIndexOf(':');
  return at < 0 ? { lot: arg } : { lot: arg.slice(0, at), quantity: arg.slice(at + 1) };
}

export async function run(ctx: Context, opts: PickOptions): Promise<void> {
  const ws = ctx.workspace();
  const picks = await (await ctx.backend()).createLotPicks(ws, { disposal_id: opts.disposalId, picks: opts.lots.map(pickOf) });
  ctx.out.result(picks, () => printPicks(ctx.out, picks));
}

export function register(parent: Command): void {
  parent
    .command('pick')
    .description('record which lots a disposal takes (cost_basis specific); a pick recorded after the sale is noted in reports')
    .argument('<disposal_tx_id>', 'the disposal (an outflow that is no own transfer)')
    .argument('<lots...>', 'LOT (as much of it as the disposal still needs) or LOT:QUANTITY; a lot is the id of the transaction that acquired it')
    .action(action<Record<string, never>, [string, string[]]>((ctx, _flags, [disposalId, lots]) => run(ctx, { disposalId, lots })));
}
