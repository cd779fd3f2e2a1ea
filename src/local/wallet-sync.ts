/**
 * `txa wallet sync` on the local ledger (docs/sync.md): a run over wallets of one workspace, the
 * rules of `--rules` applied to each batch's new rows inside the batch's transaction, and the
 * price fill of `--prices` (docs/prices.md "`wallet sync --prices`").
 */
import type { Engine } from '../engine/engine.js';
import type { FillResult, Unpriced } from '../prices/fill.js';
import type { PriceSettings } from '../prices/settings.js';
import type { SyncSettings } from '../sync/settings.js';
import type { SyncOptions, SyncResult } from '../sync/wallet-sync.js';

/** A rules file checked against the workspace and run on new rows (src/cli/rules-run.ts `rulesHook`). */
export interface LedgerRules {
  check(engine: Engine, ws: string): void;
  run(engine: Engine, ws: string, ids: string[]): void;
}

export interface SyncRunOptions extends Omit<SyncOptions, 'onInserted'> {
  /** Read by the command from the environment and the profile (src/cli/env-settings.ts), before the ledger was opened. */
  settings: SyncSettings;
  rules?: LedgerRules;
}

/** One price client for a run: its rate limit and cache span every wallet. */
export interface WalletPricer {
  source: string;
  fill(walletId: string): Promise<{ result: FillResult; unpriced: Unpriced[] }>;
}

export function walletSyncService(engine: Engine) {
  return {
    /** A run with one explorer rate limit over every wallet it syncs (the limit is per account). */
    async start(ws: string, opts: SyncRunOptions): Promise<{ sync(walletId: string): Promise<SyncResult> }> {
      const { WalletSync } = await import('../sync/wallet-sync.js');
      const { settings, rules, ...options } = opts;
      const onInserted = rules && ((ids: string[]) => rules.run(engine, ws, ids));
      const sync = new WalletSync(engine, ws, settings, { ...options, onInserted });
      return { sync: (walletId) => sync.sync(walletId) };
    },

    /** Every wallet of the workspace, oldest first (`--all`). */
    async walletIds(ws: string): Promise<string[]> {
      const { walletIdsOf } = await import('../sync/wallet-sync.js');
      return walletIdsOf(engine, ws);
    },

    /** Checks a rules file against the workspace before anything is fetched. */
    checkRules(ws: string, rules: LedgerRules): void {
      rules.check(engine, ws);
    },

    /** `settings`: read by the command from the environment (src/cli/env-settings.ts). */
    async pricer(ws: string, settings: PriceSettings, onNotice: (message: string) => void): Promise<WalletPricer> {
      const { priceApi } = await import('../prices/apis.js');
      const { fillPrices } = await import('../prices/fill.js');
      const api = priceApi(undefined, settings, onNotice);
      return { source: api.http.name, fill: (walletId) => fillPrices(engine, ws, api, { walletIds: [walletId] }) };
    },
  };
}

export type WalletSyncService = ReturnType<typeof walletSyncService>;
