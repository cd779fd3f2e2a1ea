import type { Command } from 'commander';
import type { Transaction } from '../../../core/types.js';
import { action } from '../../run.js';
import { printTransaction } from '../../views.js';

export function registerTag(parent: Command): void {
  parent
    .command('tag')
    .description('apply tags to a transaction')
    .argument('<id>', 'transaction id')
    .argument('<tag_ids...>', 'one or more tag ids')
    .action(
      action<object, [string, string[]]>(async (ctx, _opts, [id, tagIds]) => {
        const tx = await (await ctx.backend()).tagTransaction(ctx.workspace(), id, { tag_ids: tagIds });
        if (ctx.out.json) ctx.out.body({ success: true, data: tx });
        else printTransaction(ctx.out, tx);
      }),
    );
}

export function registerUntag(parent: Command): void {
  parent
    .command('untag')
    .description('remove tags from a transaction')
    .argument('<id>', 'transaction id')
    .argument('<tag_ids...>', 'one or more tag ids')
    .action(
      action<object, [string, string[]]>(async (ctx, _opts, [id, tagIds]) => {
        const backend = await ctx.backend();
        let tx: Transaction | undefined;
        for (const tagId of tagIds) tx = await backend.untagTransaction(ctx.workspace(), id, tagId);
        if (ctx.out.json) ctx.out.body({ success: true, data: tx });
        else printTransaction(ctx.out, tx!);
      }),
    );
}
