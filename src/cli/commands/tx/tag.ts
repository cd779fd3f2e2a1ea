import type { Command } from 'commander';
import type { Transaction } from '../../../core/types.js';
import { action } from '../../run.js';
import { printTransaction } from '../../views.js';
import { tagResolver } from '../../tag-flags.js';

export function registerTag(parent: Command): void {
  parent
    .command('tag')
    .description('apply tags to a transaction')
    .argument('<id>', 'transaction id')
    .argument('<tags...>', 'one or more tags, by id or name')
    .action(
      action<object, [string, string[]]>(async (ctx, _opts, [id, tags]) => {
        const ws = ctx.workspace();
        const backend = await ctx.backend();
        const tagIds = await tagResolver(backend, ws)(tags, 'tags');
        const tx = await backend.tagTransaction(ws, id, { tag_ids: tagIds });
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
    .argument('<tags...>', 'one or more tags, by id or name')
    .action(
      action<object, [string, string[]]>(async (ctx, _opts, [id, tags]) => {
        const ws = ctx.workspace();
        const backend = await ctx.backend();
        const tagIds = await tagResolver(backend, ws)(tags, 'tags');
        let tx: Transaction | undefined;
        for (const tagId of tagIds) tx = await backend.untagTransaction(ws, id, tagId);
        if (ctx.out.json) ctx.out.body({ success: true, data: tx });
        else printTransaction(ctx.out, tx!);
      }),
    );
}
