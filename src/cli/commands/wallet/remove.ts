/** `txa wallet remove ID`: a wallet and all its transactions, after a confirmation. */
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
  const backend = await ctx.backend();
  // A no is no usage error: "Cancelled." and exit 1, as every destructive command (docs/cli.md).
  if (!(await confirmOrCancel(ctx.out, opts.yes, `Remove wallet ${opts.id} and all its transactions?`))) return;
  const res = await backend.deleteWallet(ws, opts.id);
  ctx.out.result(res, () => ctx.out.notice(`Removed wallet ${res.id}.`));
}

export function register(parent: Command): void {
  parent
    .command('remove')
    .description('remove a wallet and all its transactions')
    .argument('<id>', 'wallet id')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(action<{ yes?: boolean }>((ctx, flags, [id]) => run(ctx, { ...flags, id: id! })));
}
