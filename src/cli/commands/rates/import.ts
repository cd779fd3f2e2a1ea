/** `txa rates import FILE`: a CSV of date,currency,rate, all rows or none. */
import type { Command } from 'commander';
import { reportBadRows } from '../../bad-rows.js';
import type { Context } from '../../context.js';
import { action } from '../../run.js';

export interface ImportOptions {
  file: string;
}

export async function run(ctx: Context, opts: ImportOptions): Promise<void> {
  const ws = ctx.workspace();
  const rates = await (await ctx.local('rates import')).rates();
  try {
    const res = await rates.import(ws, opts.file);
    if (ctx.out.json) ctx.out.body({ success: true, data: res });
    else ctx.out.line(`imported ${res.imported} rates`);
  } catch (err) {
    if (reportBadRows(ctx.out, err)) return;
    throw err;
  }
}

export function register(parent: Command): void {
  parent
    .command('import')
    .description('import a CSV of date,currency,rate (all rows or none)')
    .argument('<file>', 'CSV file')
    .action(action((ctx, _flags, [file]) => run(ctx, { file: file! })));
}
