/** `txa tx tag ID TAG...`: apply tags, by id or name, to a transaction. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { tagResolver } from '../../tag-flags.js';
import { printTransaction } from '../../views.js';

export interface TagOptions {
  id: string;
  tags: string[];
}

export async function run(ctx: Context, opts: TagOptions): Promise<void> {
  const ws = ctx.workspace();
  const backend = await ctx.backend();
  const tagIds = await tagResolver(backend, ws)(opts.tags, 'tags');
  const tx = await backend.tagTransaction(ws, opts.id, { tag_ids: tagIds });
  ctx.out.result(tx, () => printTransaction(ctx.out, tx));
}

export function register(parent: Command): void {
  parent
    .command('tag')
    .description('apply tags to a transaction')
    .argument('<id>', 'transaction id')
    .argument('<tags...>', 'one or more tags, by id or name')
    .action(action<object, [string, string[]]>((ctx, _flags, [id, tags]) => run(ctx, { id, tags })));
}
