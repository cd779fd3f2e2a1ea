/** `txa prices list [--source S] [--token T]`: the price cache, by source, token and day. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listPage, withPageFlags, type PageFlags } from '../../list-pages.js';
import { action, choice } from '../../run.js';
import { CACHE_SOURCES } from './sources.js';

export interface ListOptions extends PageFlags {
  source?: string;
  token?: string;
}

export async function run(ctx: Context, opts: ListOptions): Promise<void> {
  const source = choice('source', opts.source, CACHE_SOURCES);
  const prices = await (await ctx.local('prices list')).prices();
  const body = listPage(prices.list({ sources: source && [source], token: opts.token }), opts);
  if (ctx.out.json) ctx.out.body(body);
  else
    ctx.out.table(
      ['DATE', 'TOKEN', 'SOURCE', 'PRICE', 'CURRENCY'],
      body.data.map((e) => [e.date, e.token, e.source, e.price ?? 'none', e.currency]),
      ['left', 'left', 'left', 'right', 'left'],
    );
}

export function register(parent: Command): void {
  withPageFlags(
    parent
      .command('list')
      .description('the price cache, by source, token and day')
      .option('--source <source>', 'import, defillama or coingecko')
      .option('--token <token>', 'a symbol, chain:address or coingecko:<id>'),
  ).action(action<ListOptions>((ctx, flags) => run(ctx, flags)));
}
