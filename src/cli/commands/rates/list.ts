/** `txa rates list [--currency CODE]`: the stored rates (imported or the ECB's), by currency and day. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listPage, withPageFlags, type PageFlags } from '../../list-pages.js';
import { action } from '../../run.js';

export interface ListOptions extends PageFlags {
  currency?: string;
}

export async function run(ctx: Context, opts: ListOptions): Promise<void> {
  const ws = ctx.workspace();
  const rates = await (await ctx.local('rates list')).rates();
  const body = listPage(rates.list(ws, opts.currency), opts);
  if (ctx.out.json) ctx.out.body(body);
  else
    ctx.out.table(
      ['DATE', 'CURRENCY', 'RATE', 'SOURCE'],
      // An ECB rate of another day (a weekend, a holiday) names the published day it is.
      body.data.map((r) => [r.date, r.currency, r.rate, r.published_day && r.published_day !== r.date ? `${r.source} ${r.published_day}` : r.source]),
      ['left', 'left', 'right', 'left'],
    );
}

export function register(parent: Command): void {
  withPageFlags(
    parent.command('list').description('stored rates (imported or filled from the ECB), by currency and day').option('--currency <code>', 'only this currency'),
  ).action(action<ListOptions>((ctx, flags) => run(ctx, flags)));
}
