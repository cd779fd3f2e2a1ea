/** `txa rates list [--currency CODE]`: the imported rates, by currency and day. */
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
      ['DATE', 'CURRENCY', 'RATE'],
      body.data.map((r) => [r.date, r.currency, r.rate]),
      ['left', 'left', 'right'],
    );
}

export function register(parent: Command): void {
  withPageFlags(parent.command('list').description('imported rates, by currency and day').option('--currency <code>', 'only this currency')).action(
    action<ListOptions>((ctx, flags) => run(ctx, flags)),
  );
}
