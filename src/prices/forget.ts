/**
 * `txa prices forget` (docs/prices.md, "txa prices forget"): removes cache entries, so the next
 * fill asks the API again for their token-days. Fetched entries only, unless `import` is the
 * source asked for: imported prices are the user's data, not a cache. Transactions are not
 * touched: a value once filled stays until the row's value is cleared.
 */
import { TxaError } from '../core/errors.js';
import { requireDay } from '../core/dates.js';
import type { Engine } from '../engine/engine.js';
import { deletePrices, listPrices, type PriceSource } from '../store/prices.js';
import { soundEntry } from './points.js';

export interface ForgetOptions {
  /** Default: both APIs' entries. */
  source?: PriceSource;
  token?: string;
  /** Inclusive days, YYYY-MM-DD. */
  startDate?: string;
  endDate?: string;
  /** Only entries today's checks would not have cached (an older txa's). */
  invalid?: boolean;
  dryRun?: boolean;
}

/** The `--json` data of a forget. */
export interface ForgetResult {
  forgotten: number;
  dry_run: boolean;
  /** Entries forgotten per source. */
  sources: Record<PriceSource, number>;
}

const FETCHED: readonly PriceSource[] = ['defillama', 'coingecko'];

export function forgetPrices(engine: Engine, opts: ForgetOptions): ForgetResult {
  checkDays(opts.startDate, opts.endDate);
  return engine.write(() => {
    const matched = listPrices(engine.db, { sources: opts.source ? [opts.source] : FETCHED, token: opts.token, from: opts.startDate, to: opts.endDate });
    const entries = opts.invalid ? matched.filter((e) => !soundEntry(e)) : matched;
    if (!opts.dryRun) deletePrices(engine.db, entries);
    const sources: Record<PriceSource, number> = { defillama: 0, coingecko: 0, import: 0 };
    for (const e of entries) sources[e.source]++;
    return { forgotten: entries.length, dry_run: Boolean(opts.dryRun), sources };
  });
}

/** The days as `tx list` takes them: real dates, the end not before the start. */
function checkDays(start: string | undefined, end: string | undefined): void {
  const from = start === undefined ? undefined : requireDay(start, 'start_date');
  const to = end === undefined ? undefined : requireDay(end, 'end_date');
  if (from !== undefined && to !== undefined && to < from) {
    throw new TxaError('INVALID_DATE_RANGE', 'end_date must not be before start_date', { field: 'end_date' });
  }
}
