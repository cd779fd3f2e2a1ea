/** `txa webhooks remove ID`: a subscription and its pending deliveries, after a confirmation. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action, confirmOrCancel, requireAnswerable } from '../../run.js';

export interface RemoveOptions {
  id: string;
  yes?: boolean;
}

export async function run(ctx: Context, opts: RemoveOptions): Promise<void> {
  requireAnswerable(opts.yes);
  const ws = ctx.workspace();
  if (!(await confirmOrCancel(ctx.out, opts.yes, `Remove webhook ${opts.id}?`))) return;
  const result = await (await ctx.backend()).deleteWebhook(ws, opts.id);
  ctx.out.result(result, () => ctx.out.notice(`Removed webhook ${result.id}.`));
}

export function register(parent: Command): void {
  parent
    .command('remove')
    .description('remove a subscription; its pending deliveries are dropped')
    .argument('<id>', 'webhook id')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(action<{ yes?: boolean }>((ctx, flags, [id]) => run(ctx, { ...flags, id: id! })));
}
