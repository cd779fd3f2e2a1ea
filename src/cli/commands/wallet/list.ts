/** `txa wallet list`: the workspace's wallets with balances and values, a page at a time. */
import type { Command } from 'commander';
import { CHAINS } from '../../../core/types.js';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { printWallets } from '../../views.js';

export interface ListOptions {
  chain?: string;
  page?: string;
  limit?: string;
}

export async function run(ctx: Context, opts: ListOptions): Promise<void> {
  const ws = ctx.workspace();
  const res = await (await ctx.backend()).listWallets(ws, { workspace_id: ws, chain: opts.chain, page: opts.page, limit: opts.limit });
  ctx.out.page(res, () => printWallets(ctx.out, res.data));
}

export function register(parent: Command): void {
  parent
    .command('list')
    .description('wallets with balances (inflows − outflows per token) and values')
    .option('--chain <chain>', CHAINS.join(', '))
    .option('--page <n>', 'page number')
    .option('--limit <n>', 'wallets per page, 1 to 100 (default 50)')
    .action(action<ListOptions>((ctx, flags) => run(ctx, flags)));
}
