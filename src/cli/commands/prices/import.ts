/** `txa prices import FILE`: a CSV of date,token,price[,currency] into the cache, all rows or none; fill prefers these prices. */
import type { Command } from 'commander';
import { reportBadRows } from '../../bad-rows.js';
import type { Context } from '../../context.js';
import { action } from '../../run.js';

export interface ImportOptions {
  file: string;
}

export async function run(ctx: Context, opts: ImportOptions): Promise<void> {
  const prices = await (await ctx.local('prices import')).prices();
  try {
    const res = await prices.import(opts.file);
    if (ctx.out.json) ctx.out.body({ success: true, data: res });
    else ctx.out.line(`imported ${res.imported} prices`);
  } catch (err) {
    if (reportBadRows(ctx.out, err)) return;
    throw err;
  }
}

export function register(parent: Command): void {
  parent
    .command('import')
    .description('load a CSV of date,token,price[,currency] into the cache (all rows or none); fill prefers these prices')
    .argument('<file>', 'CSV file')
    .action(action((ctx, _flags, [file]) => run(ctx, { file: file! })));
}
