import type { Command } from 'commander';
import { TxaError } from '../../../core/errors.js';
import { CHAINS } from '../../../core/types.js';
import { action, confirm } from '../../run.js';
import { printWallets } from '../../views.js';
import { registerAssertions } from './assert.js';
import { registerWalletSync } from './sync.js';

// The four wallet verbs are a few lines each, so they share this file (as gh does for small nouns).
export function registerWallet(program: Command): void {
  const wallet = program.command('wallet').description('wallets of the workspace, with balances');

  wallet
    .command('add')
    .description('add a wallet (local only)')
    .requiredOption('--address <address>', '0x address')
    .requiredOption('--chain <chain>', CHAINS.join(', '))
    .option('--label <label>', 'a name for it')
    .action(
      action<{ address: string; chain: string; label?: string }>(async (ctx, o) => {
        const ws = ctx.workspace();
        const local = await ctx.local('wallet add');
        const { addWallet } = await import('../../../engine/wallets.js');
        const w = addWallet(local.engine, ws, { address: o.address, chain: o.chain, label: o.label });
        if (ctx.out.json) ctx.out.body({ success: true, data: w });
        else printWallets(ctx.out, [w]);
      }),
    );

  wallet
    .command('list')
    .description('wallets with balances (inflows − outflows per token) and values')
    .option('--chain <chain>', CHAINS.join(', '))
    .option('--page <n>', 'page number')
    .option('--limit <n>', 'wallets per page, 1 to 100 (default 50)')
    .action(
      action<{ chain?: string; page?: string; limit?: string }>(async (ctx, o) => {
        const ws = ctx.workspace();
        const res = await (await ctx.backend()).listWallets(ws, { workspace_id: ws, chain: o.chain, page: o.page, limit: o.limit });
        if (ctx.out.json) ctx.out.body({ success: true, ...res });
        else printWallets(ctx.out, res.data);
      }),
    );

  wallet
    .command('update')
    .description('rename a wallet (local only)')
    .argument('<id>', 'wallet id')
    .requiredOption('--label <label>', 'new label')
    .action(
      action<{ label: string }>(async (ctx, o, [id]) => {
        const ws = ctx.workspace();
        const local = await ctx.local('wallet update');
        const { updateWallet } = await import('../../../engine/wallets.js');
        const w = updateWallet(local.engine, ws, id!, o.label);
        if (ctx.out.json) ctx.out.body({ success: true, data: w });
        else printWallets(ctx.out, [w]);
      }),
    );

  wallet
    .command('remove')
    .description('remove a wallet and all its transactions (local only)')
    .argument('<id>', 'wallet id')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(
      action<{ yes?: boolean }>(async (ctx, o, [id]) => {
        const ws = ctx.workspace();
        const local = await ctx.local('wallet remove');
        if (!(await confirm(o.yes, `Remove wallet ${id} and all its transactions?`))) {
          throw new TxaError('USAGE_ERROR', 'cancelled');
        }
        const { removeWallet } = await import('../../../engine/wallets.js');
        const res = removeWallet(local.engine, ws, id!);
        if (ctx.out.json) ctx.out.body({ success: true, data: res });
        else ctx.out.notice(`Removed wallet ${res.id}.`);
      }),
    );

  registerAssertions(wallet);
  registerWalletSync(wallet);
}
