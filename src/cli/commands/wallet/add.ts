/** `txa wallet add --address 0x… --chain CHAIN`: a wallet of the workspace. */
import type { Command } from 'commander';
import { CHAINS } from '../../../core/types.js';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { printWallets } from '../../views.js';

export interface AddOptions {
  address: string;
  chain: string;
  label?: string;
}

export async function run(ctx: Context, opts: AddOptions): Promise<void> {
  const ws = ctx.workspace();
  const w = await (await ctx.backend()).createWallet(ws, { address: opts.address, chain: opts.chain, label: opts.label });
  ctx.out.result(w, () => printWallets(ctx.out, [w]));
}

export function register(parent: Command): void {
  parent
    .command('add')
    .description('add a wallet')
    .requiredOption('--address <address>', '0x address')
    .requiredOption('--chain <chain>', CHAINS.join(', '))
    .option('--label <label>', 'a name for it')
    .action(action<AddOptions>((ctx, flags) => run(ctx, flags)));
}
