/**
 * The environment a local command's outside calls read (TXA_SYNC_*, TXA_ETHERSCAN_*,
 * TXA_BLOCKSCOUT_URL_*, TXA_PRICES_*, …), read and checked by the command as its input: before the
 * workspace, the ledger or the backend (docs/architecture.md "Output and exit codes"), so a bad
 * value is its usage error whatever the backend, and creates no ledger file. The services are
 * handed the settings read here.
 */
import type { Context } from './context.js';

/** The explorers' settings of `wallet sync`; the profile's `etherscan_api_key` under TXA_ETHERSCAN_API_KEY. */
export async function syncEnv(ctx: Context) {
  const { syncSettings } = await import('../sync/settings.js');
  return syncSettings(process.env, ctx.profile.etherscan_api_key);
}

/** The price APIs' settings of `prices fill` and `wallet sync --prices`. */
export async function pricesEnv() {
  const { priceSettings } = await import('../prices/settings.js');
  return priceSettings(process.env);
}

/** The ECB's settings of `rates fill` (TXA_FX_URL, TXA_FX_RPS, TXA_FX_TIMEOUT). */
export async function fxEnv() {
  const { fxSettings } = await import('../prices/settings.js');
  return fxSettings(process.env);
}
