/** `txa rates`: daily FX rates from the workspace's base currency, for the export option --currency. */
import type { Engine } from '../engine/engine.js';
import { importRates, listRates } from '../engine/rates.js';

export function ratesService(engine: Engine) {
  return {
    /** A CSV of date,currency,rate: all rows or none (IMPORT_FAILED names the bad ones). */
    import: (ws: string, file: string) => importRates(engine, ws, file),
    list: (ws: string, currency?: string) => listRates(engine, ws, currency),
  };
}

export type RatesService = ReturnType<typeof ratesService>;
