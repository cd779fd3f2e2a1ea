/** `txa tx untag ID TAG...`: remove tags, by id or name, from a transaction. */
import type { Command } from 'commander';
import type { Transaction } from '../../../core/types.js';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { tagResolver } from '../../tag-flags.js';
import { printTransaction } from '../../views.js';

export interface UntagOptions {
  id: string;
  tags: string[];
}

export async function run(ctx: Context, opts: UntagOptions): Promise<void> {
  const ws = ctx.workspace();
  const backend = await ctx.backend();
  const tagIds = await tagResolver(backend, ws)(opts.tags, 'tags');
  // The API removes one tag per request; the last answer holds what is left.
  let tx: Transaction | undefined;
  for (const tagId of tagIds) tx = await backend.untagTransaction(ws, opts.id, tagId);
  ctx.out.result(tx, () => printTransaction(ctx.out, tx!));
}

export function register(parent: Command): void {
  parent
    .command('untag')
    .description('remove tags from a transaction')
    .argument('<id>', 'transaction id')
    .argument('<tags...>', 'one or more tags, by id or name')
    .action(action<object, [string, string[]]>((ctx, _flags, [id, tags]) => run(ctx, { id, tags })));
}
