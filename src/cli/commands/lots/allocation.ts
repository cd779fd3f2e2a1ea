/** `txa lots allocation`: the recorded allocation of the pooled lots to wallets (docs/lots.md "Allocation"). */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { printAllocation } from '../../lot-views.js';

export type AllocationOptions = Record<string, never>;

export async function run(ctx: Context, _opts: AllocationOptions = {}): Promise<void> {
  const ws = ctx.workspace();
  const allocation = await (await ctx.backend()).getLotAllocation(ws);
  ctx.out.result(allocation, () => printAllocation(ctx.out, allocation));
}

export function register(parent: Command): void {
  parent
    .command('allocation')
    .description('the recorded allocation: wallet, asset, lot, quantity, date acquired, cost basis')
    .action(action<AllocationOptions>((ctx, flags) => run(ctx, flags)));
}
