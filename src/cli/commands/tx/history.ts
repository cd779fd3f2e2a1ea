/** `txa tx history ID`: a transaction's audit trail (docs/transfers.md "The audit trail"). */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { printHistory } from '../../transfer-views.js';

export interface HistoryOptions {
  id: string;
}

export async function run(ctx: Context, opts: HistoryOptions): Promise<void> {
  const entries = await (await ctx.backend()).transactionHistory(ctx.workspace(), opts.id);
  ctx.out.result(entries, () => printHistory(ctx.out, entries));
}

export function register(parent: Command): void {
  parent
    .command('history')
    .description("a transaction's changes, oldest first: who made each and the fields' old and new values")
    .argument('<id>', 'transaction id')
    .action(action((ctx, _flags, [id]) => run(ctx, { id: id! })));
}
