/** `txa wallet sync [ID...] [--all] [--dry-run]`: a wallet's history from its chain's explorer API (docs/sync.md). */
import type { Command } from 'commander';
import { TxaError } from '../../../core/errors.js';
import { action } from '../../run.js';
import { printRulesResult, rulesHook } from '../../rules-run.js';
import { progressView, type ProgressView } from '../export/progress.js';

export function registerWalletSync(wallet: Command): void {
  wallet
    .command('sync')
    .description('fetch wallets\' transactions from the chain\'s explorer API (local only)')
    .argument('[ids...]', 'wallet ids')
    .option('--all', 'every wallet of the workspace')
    .option('--dry-run', 'fetch and count, write nothing')
    .option('--rules <file>', 'apply a rules file (docs/rules.md) to the new rows, in each batch\'s transaction')
    .action(
      action<{ all?: boolean; dryRun?: boolean; rules?: string }, [string[]]>(async (ctx, o, [named]) => {
        if (named.length > 0 && o.all) throw new TxaError('USAGE_ERROR', 'name wallet ids or pass --all, not both', { field: 'all' });
        if (named.length === 0 && !o.all) {
          throw new TxaError('USAGE_ERROR', 'name the wallets to sync, or pass --all', { field: 'ids', hint: 'List wallets with: txa wallet list' });
        }
        const ws = ctx.workspace();
        const rules = await rulesHook(o.rules, o.dryRun);
        const { syncSettings } = await import('../../../sync/settings.js');
        const settings = syncSettings(process.env, ctx.profile.etherscan_api_key);
        const local = await ctx.local('wallet sync');
        const { WalletSync, walletIdsOf } = await import('../../../sync/wallet-sync.js');
        const walletIds = o.all ? walletIdsOf(local.engine, ws) : named;
        rules?.check(local.engine, ws);
        let view: ProgressView | undefined;
        const sync = new WalletSync(local.engine, ws, settings, {
          dryRun: o.dryRun,
          onInserted: rules && ((ids) => rules.run(local.engine, ws, ids)),
          onNotice: (m) => ctx.out.notice(m),
          onProgress: (p) => view?.update(Math.floor((p.done / p.lists) * 100), `${p.list}, block ${p.block}, ${p.newTransactions} new`),
        });
        const results = [];
        for (const id of walletIds) {
          view = await progressView(ctx.out, `Syncing ${id}`);
          try {
            const r = await sync.sync(id);
            // Each wallet's entry carries the outcome of the rules on its new rows.
            const ruled = rules?.take();
            results.push(ruled ? { ...r, rules: ruled } : r);
            view.stop(`${o.dryRun ? 'Would sync' : 'Synced'} ${id}: ${r.new_transactions} new, ${r.duplicates} already in the ledger (${r.requests} requests to ${r.source})`, true);
          } catch (err) {
            view.stop(`Sync of ${id} stopped`, false);
            throw err;
          }
        }
        if (ctx.out.json) ctx.out.body({ success: true, data: results });
        else {
          ctx.out.table(
            ['WALLET', 'CHAIN', 'SOURCE', 'NEW', 'DUPLICATES', 'REQUESTS', 'LAST BLOCK', 'LAST SYNCED'],
            results.map((r) => [r.wallet_id, r.chain, r.source, r.new_transactions, r.duplicates, r.requests, r.last_block, r.last_synced]),
            ['left', 'left', 'left', 'right', 'right', 'right', 'right', 'left'],
          );
          for (const r of results) {
            if (!('rules' in r) || r.new_transactions === 0) continue;
            ctx.out.line();
            ctx.out.heading(`rules on the new transactions of ${r.wallet_id}`);
            printRulesResult(ctx.out, r.rules);
          }
        }
      }),
    );
}
