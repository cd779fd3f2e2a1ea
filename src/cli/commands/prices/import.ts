/** `txa prices import FILE`: a CSV of date,token,price[,currency] into the cache, all rows or none; fill prefers these prices. */
import type { Command } from 'commander';
import { reportAllOrNone } from '../../bad-rows.js';
import type { Context } from '../../context.js';
import { action } from '../../run.js';

export interface ImportOptions {
  file: string;
}

export async function run(ctx: Context, opts: ImportOptions): Promise<void> {
  const prices = await (await ctx.local('prices import')).prices();
  await reportAllOrNone(ctx.out, 'prices', () => prices.import(opts.file));
}

export function register(parent: Command): void {
  parent
    .command('import')
    .description('load a CSV of date,token,price[,currency] into the cache (all rows or none); fill prefers these prices')
    .argument('<file>', 'CSV file')
    .action(action((ctx, _flags, [file]) => run(ctx, { file: file! })));
}
