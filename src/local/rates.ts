/** `txa rates`: daily FX rates from the workspace's base currency, for the export option --currency. */
import type { Engine } from '../engine/engine.js';
import { importRates, listRates } from '../engine/rates.js';
import { EcbClient } from '../prices/ecb.js';
import { fillRates, type RatesFillOptions } from '../prices/fx-fill.js';
import type { FxSettings } from '../prices/settings.js';

export function ratesService(engine: Engine) {
  return {
    /** A CSV of date,currency,rate: all rows or none (IMPORT_FAILED names the bad ones). */
    import: (ws: string, file: string) => importRates(engine, ws, file),
    list: (ws: string, currency?: string) => listRates(engine, ws, currency),
    /** The European Central Bank's reference rates, through the ledger's cache (docs/prices.md "Exchange rates"). */
    fill: (ws: string, opts: RatesFillOptions, settings: FxSettings, onNotice: (message: string) => void) =>
      fillRates(engine, ws, opts, new EcbClient(settings, onNotice)),
  };
}

export type RatesService = ReturnType<typeof ratesService>;
