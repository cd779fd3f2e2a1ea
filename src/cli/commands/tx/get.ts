/** `txa tx get ID`: one transaction, in full. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { printTransaction } from '../../views.js';

export interface GetOptions {
  id: string;
}

export async function run(ctx: Context, opts: GetOptions): Promise<void> {
  const tx = await (await ctx.backend()).getTransaction(ctx.workspace(), opts.id);
  ctx.out.result(tx, () => printTransaction(ctx.out, tx));
}

export function register(parent: Command): void {
  parent
    .command('get')
    .description('one transaction')
    .argument('<id>', 'transaction id')
    .action(action((ctx, _flags, [id]) => run(ctx, { id: id! })));
}
