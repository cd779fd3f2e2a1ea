/** `txa wallet sync [ID...] [--all] [--dry-run] [--prices]`: a wallet's history from its chain's explorer API (docs/sync.md), priced as it goes (docs/prices.md). */
import type { Command } from 'commander';
import { TxaError } from '../../../core/errors.js';
import type { FillResult, PriceSettings, SyncResult, SyncSettings, WalletSyncService } from '../../../local/services.js';
import type { Context } from '../../context.js';
import { pricesEnv, syncEnv } from '../../env-settings.js';
import type { Output } from '../../output.js';
import { printRulesResult, type RulesHook, rulesHook } from '../../rules-run.js';
import { action } from '../../run.js';
import { type ProgressView, progressView } from '../export/progress.js';

export interface SyncOptions {
  /** The wallets named; none with `--all`. */
  ids: string[];
  all?: boolean;
  dryRun?: boolean;
  prices?: boolean;
  /** A rules file (docs/rules.md). */
  rules?: string;
}

/** How this run syncs one wallet, and lists the wallets for `--all`. */
interface Syncer {
  sync(id: string): Promise<SyncResult>;
  all(): Promise<string[]>;
  /** The local ledger's sync service, where `--rules` is checked and `--prices` fills each wallet after its sync. */
  local?: WalletSyncService;
}

/** The progress line of the wallet being synced, which the syncer's callbacks update. */
type CurrentView = () => ProgressView | undefined;

/** One wallet's entry of the output: the sync, the rules on its new rows, its price fill. */
type WalletOutcome = SyncResult & { rules?: ReturnType<RulesHook['take']>; prices?: FillResult };

/** In this process, on the local ledger. */
async function localSyncer(ctx: Context, ws: string, env: RunEnv, dryRun: boolean | undefined, view: CurrentView, rules?: RulesHook): Promise<Syncer> {
  const local = await (await ctx.local('wallet sync')).walletSync();
  const run = await local.start(ws, {
    settings: env.sync!,
    dryRun,
    rules,
    onNotice: (m) => ctx.out.notice(m),
    onProgress: (p) => view()?.update(Math.floor((p.done / p.lists) * 100), `${p.list}, block ${p.block}, ${p.newTransactions} new`),
  });
  return { sync: (id) => run.sync(id), all: () => local.walletIds(ws), local };
}

/** By the API's server (its worker and its explorer settings), polled until done. */
async function remoteSyncer(ctx: Context, ws: string, view: CurrentView): Promise<Syncer> {
  const backend = await ctx.backend();
  const { remoteSync, remoteWalletIds } = await import('./sync-remote.js');
  return {
    sync: (id) => remoteSync(backend, ws, id, (r) => view()?.update(r.status === 'queued' ? 0 : 50, `${r.status}, ${r.new_transactions} new`)),
    all: () => remoteWalletIds(backend, ws),
  };
}

/** `--prices`: one price client for the run (its rate limit and cache span every wallet); each wallet's fill printed as it ends. */
async function pricer(out: Output, local: WalletSyncService, ws: string, settings: PriceSettings) {
  const { printFill } = await import('../prices/fill.js');
  const prices = await local.pricer(ws, settings, (m) => out.notice(m));
  return async (walletId: string): Promise<FillResult> => {
    const { result, unpriced } = await prices.fill(walletId);
    if (!out.json) printFill(out, prices.source, result, unpriced, true);
    return result;
  };
}

function checkWallets(opts: SyncOptions): void {
  if (opts.ids.length > 0 && opts.all) throw new TxaError('USAGE_ERROR', 'name wallet ids or pass --all, not both', { field: 'all' });
  if (opts.ids.length === 0 && !opts.all) {
    throw new TxaError('USAGE_ERROR', 'name the wallets to sync, or pass --all', { field: 'ids', hint: 'List wallets with: txa wallet list' });
  }
}

/** What a run reads from the environment: the explorers' settings when it syncs in this process, the price APIs' with `--prices`. */
interface RunEnv {
  sync?: SyncSettings;
  prices?: PriceSettings;
}

async function readEnv(ctx: Context, opts: SyncOptions): Promise<RunEnv> {
  return {
    // On a remote backend the API's server syncs, with its own settings.
    sync: ctx.isRemote() ? undefined : await syncEnv(ctx),
    prices: opts.prices && !opts.dryRun ? await pricesEnv() : undefined,
  };
}

/** `--dry-run` is the local sync's; `--prices` and `--rules` write to the ledger inside the sync: local only, said before the backend is opened. */
function requireLocal(remote: boolean, opts: SyncOptions, rules: RulesHook | undefined): void {
  if (!remote) return;
  if (opts.dryRun)
    throw new TxaError('LOCAL_ONLY', 'txa wallet sync --dry-run works on the local ledger only, but a remote backend is selected', { field: 'dry-run' });
  if (opts.prices)
    throw new TxaError('LOCAL_ONLY', 'txa wallet sync --prices works on the local ledger only, but a remote backend is selected', { field: 'prices' });
  if (rules) throw new TxaError('LOCAL_ONLY', 'txa wallet sync --rules works on the local ledger only, but a remote backend is selected', { field: 'rules' });
}

function printOutcomes(out: Output, results: WalletOutcome[]): void {
  out.table(
    ['WALLET', 'CHAIN', 'SOURCE', 'NEW', 'DUPLICATES', 'REQUESTS', 'LAST BLOCK', 'LAST SYNCED'],
    results.map((r) => [r.wallet_id, r.chain, r.source, r.new_transactions, r.duplicates, r.requests, r.last_block, r.last_synced]),
    ['left', 'left', 'left', 'right', 'right', 'right', 'right', 'left'],
  );
  for (const r of results) {
    if (!r.rules || r.new_transactions === 0) continue;
    out.line();
    out.heading(`rules on the new transactions of ${r.wallet_id}`);
    printRulesResult(out, r.rules);
  }
}

export async function run(ctx: Context, opts: SyncOptions): Promise<void> {
  // The command's input, then LOCAL_ONLY, then the backend (docs/architecture.md "Output and exit codes").
  checkWallets(opts);
  const ws = ctx.workspace();
  const rules = await rulesHook(opts.rules, opts.dryRun);
  const env = await readEnv(ctx, opts);
  requireLocal(ctx.isRemote(), opts, rules);
  let view: ProgressView | undefined;
  const current = () => view;
  const syncer = ctx.isRemote() ? await remoteSyncer(ctx, ws, current) : await localSyncer(ctx, ws, env, opts.dryRun, current, rules);
  const walletIds = opts.all ? await syncer.all() : opts.ids;
  if (rules) syncer.local!.checkRules(ws, rules);
  const prices = env.prices ? await pricer(ctx.out, syncer.local!, ws, env.prices) : undefined;
  const results: WalletOutcome[] = [];
  for (const id of walletIds) {
    view = await progressView(ctx.out, `Syncing ${id}`);
    try {
      const r = await syncer.sync(id);
      // Each wallet's entry carries the outcome of the rules on its new rows.
      const ruled = rules?.take();
      view.stop(
        `${opts.dryRun ? 'Would sync' : 'Synced'} ${id}: ${r.new_transactions} new, ${r.duplicates} already in the ledger (${r.requests} requests to ${r.source})`,
        true,
      );
      results.push({ ...r, rules: ruled, prices: prices && (await prices(id)) });
    } catch (err) {
      view.stop(`Sync of ${id} stopped`, false);
      throw err;
    }
  }
  ctx.out.result(results, () => printOutcomes(ctx.out, results));
}

export function register(parent: Command): void {
  parent
    .command('sync')
    .description("fetch wallets' transactions from the chain's explorer API (through the API's server when remote)")
    .argument('[ids...]', 'wallet ids')
    .option('--all', 'every wallet of the workspace')
    .option('--dry-run', 'fetch and count, write nothing')
    .option('--prices', "then value each wallet's rows without a fiat value, as txa prices fill does (DefiLlama)")
    .option('--rules <file>', "apply a rules file (docs/rules.md) to the new rows, in each batch's transaction")
    .action(action<Omit<SyncOptions, 'ids'>, [string[]]>((ctx, flags, [ids]) => run(ctx, { ...flags, ids })));
}
