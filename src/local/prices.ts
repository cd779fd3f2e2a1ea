/** `txa prices` (docs/prices.md): a fiat value for every row, through the local price cache. */
import type { Engine } from '../engine/engine.js';
import { priceApi } from '../prices/apis.js';
import { fillPrices, type FillOptions } from '../prices/fill.js';
import { forgetPrices, type ForgetOptions } from '../prices/forget.js';
import { importPrices } from '../prices/import-file.js';
import { entryTime } from '../prices/points.js';
import type { PriceSettings } from '../prices/settings.js';
import { listPrices, type PriceFilter } from '../store/prices.js';

export interface FillRequest {
  /** `defillama` (the default) or `coingecko`. */
  source?: string;
  /** Read by the command from the environment (src/cli/env-settings.ts), before the ledger was opened. */
  settings: PriceSettings;
  range?: Pick<FillOptions, 'startTs' | 'endTs'>;
  /** Retries and other news of the price API, for stderr. */
  onNotice: (message: string) => void;
}

export function pricesService(engine: Engine) {
  return {
    /** Values the workspace's rows without a fiat value; `source` is the API's name, for the summary line. */
    async fill(ws: string, req: FillRequest) {
      const api = priceApi(req.source, req.settings, req.onNotice);
      const { result, unpriced } = await fillPrices(engine, ws, api, req.range);
      return { result, unpriced, source: api.http.name };
    },
    /** A CSV of date,token,price[,currency]: all rows or none (IMPORT_FAILED names the bad ones). */
    import: (file: string) => importPrices(engine, file),
    /** The cache's entries in the API's words (docs/prices.md, "txa prices list"). */
    list: (filter: Pick<PriceFilter, 'sources' | 'token'>) =>
      listPrices(engine.db, filter).map((e) => ({
        date: e.day,
        token: e.token,
        source: e.source,
        price: e.price,
        currency: e.currency,
        // An older txa may have cached a time that is none (docs/prices.md, "Bad answers"): null, not a crash.
        price_timestamp: entryTime(e.price_ts),
        fetched_at: e.fetched_at,
      })),
    forget: (opts: ForgetOptions) => forgetPrices(engine, opts),
  };
}

export type PricesService = ReturnType<typeof pricesService>;
