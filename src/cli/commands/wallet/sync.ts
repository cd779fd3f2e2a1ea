/** `txa wallet sync [ID...] [--all] [--dry-run] [--prices]`: a wallet's history from its chain's explorer API (docs/sync.md), priced as it goes (docs/prices.md). */
import type { Command } from 'commander';
import { TxaError } from '../../../core/errors.js';
import type { Context } from '../../context.js';
import { action } from '../../run.js';
import { printRulesResult, rulesHook, type RulesHook } from '../../rules-run.js';
import { progressView, type ProgressView } from '../export/progress.js';
import type { SyncResult } from '../../../sync/wallet-sync.js';
import type { Output } from '../../output.js';
import type { Engine } from '../../../engine/engine.js';
import type { FillResult } from '../../../prices/fill.js';

/** How this run syncs one wallet, and lists the wallets for `--all`. */
interface Syncer {
  sync(id: string): Promise<SyncResult>;
  all(): Promise<string[]>;
  /** The local ledger, where `--prices` fills each wallet after its sync. */
  engine?: Engine;
}

/** In this process, on the local ledger. */
async function localSyncer(ctx: Context, ws: string, dryRun: boolean | undefined, view: () => ProgressView | undefined, rules?: RulesHook): Promise<Syncer> {
  const { syncSettings } = await import('../../../sync/settings.js');
  const settings = syncSettings(process.env, ctx.profile.etherscan_api_key);
  const local = await ctx.local('wallet sync');
  const { WalletSync, walletIdsOf } = await import('../../../sync/wallet-sync.js');
  const sync = new WalletSync(local.engine, ws, settings, {
    dryRun,
    onInserted: rules && ((ids) => rules.run(local.engine, ws, ids)),
    onNotice: (m) => ctx.out.notice(m),
    onProgress: (p) => view()?.update(Math.floor((p.done / p.lists) * 100), `${p.list}, block ${p.block}, ${p.newTransactions} new`),
  });
  return { sync: (id) => sync.sync(id), all: async () => walletIdsOf(local.engine, ws), engine: local.engine };
}

/** By the API's server (its worker and its explorer settings), polled until done. */
async function remoteSyncer(ctx: Context, ws: string, dryRun: boolean | undefined, view: () => ProgressView | undefined): Promise<Syncer> {
  if (dryRun)
    throw new TxaError('LOCAL_ONLY', 'txa wallet sync --dry-run works on the local ledger only, but a remote backend is selected', { field: 'dry-run' });
  const backend = await ctx.backend();
  const { remoteSync, remoteWalletIds } = await import('./sync-remote.js');
  return {
    sync: (id) => remoteSync(backend, ws, id, (r) => view()?.update(r.status === 'queued' ? 0 : 50, `${r.status}, ${r.new_transactions} new`)),
    all: () => remoteWalletIds(backend, ws),
  };
}

/** `--prices`: one price client for the run (its rate limit and cache span every wallet); each wallet's fill printed as it ends. */
async function pricer(out: Output) {
  const { priceSettings } = await import('../../../prices/settings.js');
  const { priceApi } = await import('../../../prices/apis.js');
  const { fillPrices } = await import('../../../prices/fill.js');
  const { printFill } = await import('../prices/fill.js');
  const api = priceApi(undefined, priceSettings(process.env), (m) => out.notice(m));
  return async (engine: Engine, ws: string, walletId: string): Promise<FillResult> => {
    const { result, unpriced } = await fillPrices(engine, ws, api, { walletIds: [walletId] });
    if (!out.json) printFill(out, api.http.name, result, unpriced, true);
    return result;
  };
}

export function registerWalletSync(wallet: Command): void {
  wallet
    .command('sync')
    .description("fetch wallets' transactions from the chain's explorer API (through the API's server when remote)")
    .argument('[ids...]', 'wallet ids')
    .option('--all', 'every wallet of the workspace')
    .option('--dry-run', 'fetch and count, write nothing')
    .option('--prices', "then value each wallet's rows without a fiat value, as txa prices fill does (DefiLlama)")
    .option('--rules <file>', "apply a rules file (docs/rules.md) to the new rows, in each batch's transaction")
    .action(
      action<{ all?: boolean; dryRun?: boolean; prices?: boolean; rules?: string }, [string[]]>(async (ctx, o, [named]) => {
        if (named.length > 0 && o.all) throw new TxaError('USAGE_ERROR', 'name wallet ids or pass --all, not both', { field: 'all' });
        if (named.length === 0 && !o.all) {
          throw new TxaError('USAGE_ERROR', 'name the wallets to sync, or pass --all', { field: 'ids', hint: 'List wallets with: txa wallet list' });
        }
        const ws = ctx.workspace();
        const rules = await rulesHook(o.rules, o.dryRun);
        let view: ProgressView | undefined;
        const syncOne = ctx.isRemote() ? await remoteSyncer(ctx, ws, o.dryRun, () => view) : await localSyncer(ctx, ws, o.dryRun, () => view, rules);
        const walletIds = o.all ? await syncOne.all() : named;
        if (o.prices && !syncOne.engine)
          throw new TxaError('LOCAL_ONLY', 'txa wallet sync --prices works on the local ledger only, but a remote backend is selected', { field: 'prices' });
        if (rules && !syncOne.engine)
          throw new TxaError('LOCAL_ONLY', 'txa wallet sync --rules works on the local ledger only, but a remote backend is selected', { field: 'rules' });
        if (rules) rules.check(syncOne.engine!, ws);
        const prices = o.prices && !o.dryRun ? await pricer(ctx.out) : undefined;
        const results = [];
        for (const id of walletIds) {
          view = await progressView(ctx.out, `Syncing ${id}`);
          try {
            const r = await syncOne.sync(id);
            // Each wallet's entry carries the outcome of the rules on its new rows.
            const ruled = rules?.take();
            view.stop(
              `${o.dryRun ? 'Would sync' : 'Synced'} ${id}: ${r.new_transactions} new, ${r.duplicates} already in the ledger (${r.requests} requests to ${r.source})`,
              true,
            );
            results.push({ ...r, rules: ruled, prices: prices && (await prices(syncOne.engine!, ws, id)) });
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
            if (!r.rules || r.new_transactions === 0) continue;
            ctx.out.line();
            ctx.out.heading(`rules on the new transactions of ${r.wallet_id}`);
            printRulesResult(ctx.out, r.rules);
          }
        }
      }),
    );
}
