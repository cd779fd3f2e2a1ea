/**
 * The ledger-wide cache of the European Central Bank's euro reference rates (docs/prices.md
 * "Exchange rates"): each currency's quotes per euro as the ECB wrote them, and per currency the
 * days the cache is complete for (every day the ECB published from `first_day` to `through_day`
 * is in it), so a fill asks again only for days outside them.
 */
import type { Db } from './db.js';
import { prepareCached } from './statements.js';

export interface FxCoverage {
  first_day: string;
  through_day: string;
  fetched_at: string;
}

export function fxCoverage(db: Db, currency: string): FxCoverage | undefined {
  return prepareCached(db, 'SELECT first_day, through_day, fetched_at FROM fx_coverage WHERE currency = ?').get(currency) as FxCoverage | undefined;
}

export function setFxCoverage(db: Db, currency: string, c: FxCoverage): void {
  prepareCached(
    db,
    `INSERT INTO fx_coverage (currency, first_day, through_day, fetched_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (currency) DO UPDATE SET first_day = excluded.first_day, through_day = excluded.through_day, fetched_at = excluded.fetched_at`,
  ).run(currency, c.first_day, c.through_day, c.fetched_at);
}

/** Stores a published quote, replacing the one stored before (the ECB's own corrections win). */
export function putFxQuote(db: Db, currency: string, day: string, perEur: string): void {
  prepareCached(db, 'INSERT OR REPLACE INTO fx_reference (currency, day, per_eur) VALUES (?, ?, ?)').run(currency, day, perEur);
}

/** A currency's quotes from `from` to `to` (inclusive days), by day. */
export function fxQuotes(db: Db, currency: string, from: string, to: string): { day: string; per_eur: string }[] {
  return prepareCached(db, 'SELECT day, per_eur FROM fx_reference WHERE currency = ? AND day BETWEEN ? AND ? ORDER BY day').all(currency, from, to) as {
    day: string;
    per_eur: string;
  }[];
}
