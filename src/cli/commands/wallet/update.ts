/** `txa wallet update ID --label LABEL`: a wallet renamed. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { printWallets } from '../../views.js';

export interface UpdateOptions {
  id: string;
  label: string;
}

export async function run(ctx: Context, opts: UpdateOptions): Promise<void> {
  const ws = ctx.workspace();
  const w = await (await ctx.backend()).updateWallet(ws, opts.id, { label: opts.label });
  ctx.out.result(w, () => printWallets(ctx.out, [w]));
}

export function register(parent: Command): void {
  parent
    .command('update')
    .description('rename a wallet')
    .argument('<id>', 'wallet id')
    .requiredOption('--label <label>', 'new label')
    .action(action<{ label: string }>((ctx, flags, [id]) => run(ctx, { ...flags, id: id! })));
}
