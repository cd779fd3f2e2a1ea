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

/** A stored rate and where it came from: `import` (a file), or `ecb` with the day the ECB published it (an earlier one on a day it did not publish). */
export interface StoredRate extends RateRow {
  source: 'import' | 'ecb';
  published_day: string | null;
}

/** Stores an imported day's rate, replacing the one stored before (an ECB one too: the user's file wins). */
export function upsertRate(db: Db, workspaceId: string, r: RateRow): void {
  prepareCached(
    db,
    `INSERT INTO rates (workspace_id, day, currency, rate, source, published_day) VALUES (?, ?, ?, ?, 'import', NULL)
     ON CONFLICT (workspace_id, currency, day) DO UPDATE SET rate = excluded.rate, source = 'import', published_day = NULL`,
  ).run(workspaceId, r.date, r.currency, r.rate);
}

/** Stores a day's ECB rate unless the day has an imported one (kept, as manual values are); false when kept. */
export function upsertEcbRate(db: Db, workspaceId: string, r: RateRow, publishedDay: string): boolean {
  const { changes } = prepareCached(
    db,
    `INSERT INTO rates (workspace_id, day, currency, rate, source, published_day) VALUES (?, ?, ?, ?, 'ecb', ?)
     ON CONFLICT (workspace_id, currency, day) DO UPDATE SET rate = excluded.rate, published_day = excluded.published_day WHERE rates.source = 'ecb'`,
  ).run(workspaceId, r.date, r.currency, r.rate, publishedDay);
  return changes > 0;
}

/** The workspace's rates (of one currency, when given), by currency and day. */
export function listRateRows(db: Db, workspaceId: string, currency?: string): StoredRate[] {
  const where = currency ? 'workspace_id = ? AND currency = ?' : 'workspace_id = ?';
  const args = currency ? [workspaceId, currency] : [workspaceId];
  return prepareCached(db, `SELECT day AS date, currency, rate, source, published_day FROM rates WHERE ${where} ORDER BY currency, day`).all(
    ...args,
  ) as StoredRate[];
}

/** The day (Unix days) of the workspace's earliest row with a fiat value or opening lot (its cost converts too), undefined when it has none. */
export function firstValuedDay(db: Db, workspaceId: string): number | undefined {
  const d = prepareCached(
    db,
    `SELECT min(d) FROM (
       SELECT min(ts) / ${DAY_SECONDS} AS d FROM transactions WHERE workspace_id = ? AND fiat_cents IS NOT NULL
       UNION ALL SELECT unixepoch(min(acquired_on)) / ${DAY_SECONDS} FROM opening_lots WHERE workspace_id = ?)`,
  )
    .pluck()
    .get(workspaceId, workspaceId) as number | null;
  return d ?? undefined;
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
