import type { Command } from 'commander';
import { action } from '../../run.js';
import { printTransaction } from '../../views.js';

export function registerGet(parent: Command): void {
  parent
    .command('get')
    .description('one transaction')
    .argument('<id>', 'transaction id')
    .action(
      action(async (ctx, _opts, [id]) => {
        const tx = await (await ctx.backend()).getTransaction(ctx.workspace(), id!);
        if (ctx.out.json) ctx.out.body({ success: true, data: tx });
        else printTransaction(ctx.out, tx);
      }),
    );
}
