import type { Command } from 'commander';
import { action } from '../../run.js';
import { printHistory } from '../../transfer-views.js';

export function registerHistory(parent: Command): void {
  parent
    .command('history')
    .description("a transaction's changes, oldest first: who made each and the fields' old and new values")
    .argument('<id>', 'transaction id')
    .action(
      action(async (ctx, _opts, [id]) => {
        const entries = await (await ctx.backend()).transactionHistory(ctx.workspace(), id!);
        if (ctx.out.json) ctx.out.body({ success: true, data: entries });
        else printHistory(ctx.out, entries);
      }),
    );
}
