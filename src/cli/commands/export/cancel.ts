/** `txa export cancel ID`: a queued or processing export ends as failed (EXPORT_CANCELLED), its partial file removed. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { printExport } from './view.js';

export interface CancelOptions {
  id: string;
}

export async function run(ctx: Context, opts: CancelOptions): Promise<void> {
  const ws = ctx.workspace();
  const rec = await (await ctx.backend()).cancelExport(ws, opts.id);
  ctx.out.result(rec, () => printExport(ctx.out, rec));
}

export function register(parent: Command): void {
  parent
    .command('cancel')
    .description('cancel a queued or processing export: it ends as failed (EXPORT_CANCELLED) and its partial file is removed')
    .argument('<id>', 'export id')
    .action(action((ctx, _flags, [id]) => run(ctx, { id: id! })));
}
