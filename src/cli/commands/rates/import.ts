/** `txa rates import FILE`: a CSV of date,currency,rate, all rows or none. */
import type { Command } from 'commander';
import { reportAllOrNone } from '../../bad-rows.js';
import type { Context } from '../../context.js';
import { action } from '../../run.js';

export interface ImportOptions {
  file: string;
}

export async function run(ctx: Context, opts: ImportOptions): Promise<void> {
  const ws = ctx.workspace();
  const rates = await (await ctx.local('rates import')).rates();
  await reportAllOrNone(ctx.out, 'rates', () => rates.import(ws, opts.file));
}

export function register(parent: Command): void {
  parent
    .command('import')
    .description('import a CSV of date,currency,rate (all rows or none)')
    .argument('<file>', 'CSV file')
    .action(action((ctx, _flags, [file]) => run(ctx, { file: file! })));
}
