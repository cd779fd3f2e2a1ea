/** `txa webhooks remove ID`: a subscription and its pending deliveries, after a confirmation. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action, confirm } from '../../run.js';

export interface RemoveOptions {
  id: string;
  yes?: boolean;
}

export async function run(ctx: Context, opts: RemoveOptions): Promise<void> {
  const ws = ctx.workspace();
  if (!(await confirm(opts.yes, `Remove webhook ${opts.id}?`))) {
    ctx.out.notice('Cancelled.');
    process.exitCode = 1;
    return;
  }
  const result = await (await ctx.backend()).deleteWebhook(ws, opts.id);
  if (ctx.out.json) ctx.out.body({ success: true, data: result });
  else ctx.out.notice(`Removed webhook ${result.id}.`);
}

export function register(parent: Command): void {
  parent
    .command('remove')
    .description('remove a subscription; its pending deliveries are dropped')
    .argument('<id>', 'webhook id')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(action<{ yes?: boolean }>((ctx, flags, [id]) => run(ctx, { ...flags, id: id! })));
}
