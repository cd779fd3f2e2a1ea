import type { Command } from 'commander';
import { TxaError } from '../../../core/errors.js';
import { CHAINS } from '../../../core/types.js';
import { action, confirm } from '../../run.js';
import { printWallets } from '../../views.js';
import { registerAssertions } from './assert.js';
import { registerWalletSync } from './sync.js';

// The wallet verbs are a few lines each, so they share this file (as gh does for small nouns).
export function registerWallet(program: Command): void {
  const wallet = program.command('wallet').description('wallets of the workspace, with balances');

  wallet
    .command('add')
    .description('add a wallet')
    .requiredOption('--address <address>', '0x address')
    .requiredOption('--chain <chain>', CHAINS.join(', '))
    .option('--label <label>', 'a name for it')
    .action(
      action<{ address: string; chain: string; label?: string }>(async (ctx, o) => {
        const ws = ctx.workspace();
        const w = await (await ctx.backend()).createWallet(ws, { address: o.address, chain: o.chain, label: o.label });
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
    .description('rename a wallet')
    .argument('<id>', 'wallet id')
    .requiredOption('--label <label>', 'new label')
    .action(
      action<{ label: string }>(async (ctx, o, [id]) => {
        const ws = ctx.workspace();
        const w = await (await ctx.backend()).updateWallet(ws, id!, { label: o.label });
        if (ctx.out.json) ctx.out.body({ success: true, data: w });
        else printWallets(ctx.out, [w]);
      }),
    );

  wallet
    .command('remove')
    .description('remove a wallet and all its transactions')
    .argument('<id>', 'wallet id')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(
      action<{ yes?: boolean }>(async (ctx, o, [id]) => {
        const ws = ctx.workspace();
        const backend = await ctx.backend();
        if (!(await confirm(o.yes, `Remove wallet ${id} and all its transactions?`))) {
          throw new TxaError('USAGE_ERROR', 'cancelled');
        }
        const res = await backend.deleteWallet(ws, id!);
        if (ctx.out.json) ctx.out.body({ success: true, data: res });
        else ctx.out.notice(`Removed wallet ${res.id}.`);
      }),
    );

  registerAssertions(wallet);
  registerWalletSync(wallet);
}
