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

/** Which entries a list or a forget takes: of these sources, this token (case-insensitive), days from `from` to `to` (inclusive). */
export interface PriceFilter {
  sources?: readonly PriceSource[];
  token?: string;
  from?: string;
  to?: string;
}

/** Entries by source, token and day. */
export function listPrices(db: Db, filter: PriceFilter = {}): PriceEntry[] {
  const where: string[] = [];
  const args: string[] = [];
  if (filter.sources) {
    where.push(`source IN (${filter.sources.map(() => '?').join(', ')})`);
    args.push(...filter.sources);
  }
  if (filter.token) {
    where.push('lower(token) = lower(?)');
    args.push(filter.token);
  }
  if (filter.from !== undefined) {
    where.push('day >= ?');
    args.push(filter.from);
  }
  if (filter.to !== undefined) {
    where.push('day <= ?');
    args.push(filter.to);
  }
  const sql = `SELECT * FROM prices ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY source, token, day`;
  return db.prepare(sql).all(...args) as PriceEntry[];
}

/** Removes entries by their key (source, token, day). Call inside a write transaction. */
export function deletePrices(db: Db, entries: Pick<PriceEntry, 'source' | 'token' | 'day'>[]): void {
  const stmt = prepareCached(db, 'DELETE FROM prices WHERE source = ? AND token = ? AND day = ?');
  for (const e of entries) stmt.run(e.source, e.token, e.day);
}
