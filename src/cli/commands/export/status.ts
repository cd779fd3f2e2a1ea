/** `txa export status ID`: an export's record, with its progress while it runs. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { printExport } from './view.js';

export interface StatusOptions {
  id: string;
}

export async function run(ctx: Context, opts: StatusOptions): Promise<void> {
  const ws = ctx.workspace();
  const rec = await (await ctx.backend()).getExport(ws, opts.id);
  ctx.out.result(rec, () => printExport(ctx.out, rec));
}

export function register(parent: Command): void {
  parent
    .command('status')
    .description('status of an export (progress while it runs)')
    .argument('<id>', 'export id')
    .action(action((ctx, _flags, [id]) => run(ctx, { id: id! })));
}
