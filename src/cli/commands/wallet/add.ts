/** `txa wallet add --address ADDR --chain CHAIN` (or `--chain bitcoin --xpub KEY`): a wallet of the workspace. */
import type { Command } from 'commander';
import { CHAINS } from '../../../core/types.js';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { printWallets } from '../../views.js';

export interface AddOptions {
  address?: string;
  chain: string;
  label?: string;
  xpub?: string;
}

export async function run(ctx: Context, opts: AddOptions): Promise<void> {
  const ws = ctx.workspace();
  const w = await (await ctx.backend()).createWallet(ws, { address: opts.address, chain: opts.chain, label: opts.label, xpub: opts.xpub });
  ctx.out.result(w, () => printWallets(ctx.out, [w]));
}

export function register(parent: Command): void {
  parent
    .command('add')
    .description('add a wallet')
    .option('--address <address>', '0x address; on bitcoin a mainnet address (1…, 3…, bc1q…, bc1p…)')
    .requiredOption('--chain <chain>', CHAINS.join(', '))
    .option('--xpub <key>', "bitcoin only: the account's xpub, ypub or zpub (receive and change addresses, gap limit 20), instead of --address")
    .option('--label <label>', 'a name for it')
    .action(action<AddOptions>((ctx, flags) => run(ctx, flags)));
}
