/** Daily exchange rates from the workspace's base currency (`txa rates import`), and the days a conversion needs. */
import type { Db } from './db.js';
import { prepareCached } from './statements.js';
import type { Where } from './transactions.js';
import { DAY_SECONDS } from '../core/dates.js';

export interface RateRow {
  date: string;
  currency: string;
  rate: string;
}

/** Stores a day's rate, replacing the one stored before. */
export function upsertRate(db: Db, workspaceId: string, r: RateRow): void {
  prepareCached(
    db,
    'INSERT INTO rates (workspace_id, day, currency, rate) VALUES (?, ?, ?, ?) ON CONFLICT (workspace_id, currency, day) DO UPDATE SET rate = excluded.rate',
  ).run(workspaceId, r.date, r.currency, r.rate);
}

/** The workspace's rates (of one currency, when given), by currency and day. */
export function listRateRows(db: Db, workspaceId: string, currency?: string): RateRow[] {
  const where = currency ? 'workspace_id = ? AND currency = ?' : 'workspace_id = ?';
  const args = currency ? [workspaceId, currency] : [workspaceId];
  return prepareCached(db, `SELECT day AS date, currency, rate FROM rates WHERE ${where} ORDER BY currency, day`).all(...args) as RateRow[];
}

/** The matching rows' days (Unix days) that have a fiat value to convert, in order. */
export function valuedDays(db: Db, w: Where): number[] {
  return prepareCached(db, `SELECT DISTINCT t.ts / ${DAY_SECONDS} AS d FROM transactions t WHERE ${w.sql} AND t.fiat_cents IS NOT NULL ORDER BY d`)
    .pluck()
    .all(...w.params) as number[];
}

/** Looks up the workspace's rate of a currency on a day (undefined when missing), on one statement prepared here. */
export function rateReader(db: Db, workspaceId: string): (currency: string, day: string) => string | undefined {
  const stmt = db.prepare('SELECT rate FROM rates WHERE workspace_id = ? AND currency = ? AND day = ?').pluck();
  return (currency, day) => stmt.get(workspaceId, currency, day) as string | undefined;
}
