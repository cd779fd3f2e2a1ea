/** The price cache (migration 12, docs/prices.md): one entry per source, token and UTC day. */
import type { Db } from './db.js';
import { prepareCached } from './statements.js';

export type PriceSource = 'import' | 'defillama' | 'coingecko';

export interface PriceEntry {
  source: PriceSource;
  token: string;
  /** YYYY-MM-DD, UTC. */
  day: string;
  /** Exact decimal text; null: the source had no price that day. */
  price: string | null;
  currency: string;
  /** The source's own time of the price point (Unix seconds), where it gives one. */
  price_ts: number | null;
  fetched_at: string;
}

/** The cached entry, or undefined when the cache has never asked or been told. */
export function getPrice(db: Db, source: PriceSource, token: string, day: string): PriceEntry | undefined {
  return prepareCached(db, 'SELECT * FROM prices WHERE source = ? AND token = ? AND day = ?').get(source, token, day) as PriceEntry | undefined;
}

/** Adds or replaces entries. Call inside a write transaction. */
export function putPrices(db: Db, entries: PriceEntry[]): void {
  const stmt = prepareCached(
    db,
    `INSERT INTO prices (source, token, day, price, currency, price_ts, fetched_at) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (source, token, day) DO UPDATE SET price = excluded.price, currency = excluded.currency, price_ts = excluded.price_ts, fetched_at = excluded.fetched_at`,
  );
  for (const e of entries) stmt.run(e.source, e.token, e.day, e.price, e.currency, e.price_ts, e.fetched_at);
}

/** Entries by source, token and day; optionally of one source or token (case-insensitive). */
export function listPrices(db: Db, filter: { source?: PriceSource; token?: string } = {}): PriceEntry[] {
  const where: string[] = [];
  const args: string[] = [];
  if (filter.source) {
    where.push('source = ?');
    args.push(filter.source);
  }
  if (filter.token) {
    where.push('lower(token) = lower(?)');
    args.push(filter.token);
  }
  const sql = `SELECT * FROM prices ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY source, token, day`;
  return db.prepare(sql).all(...args) as PriceEntry[];
}
