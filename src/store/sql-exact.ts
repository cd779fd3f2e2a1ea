/**
 * What the export fast paths (csv-rows.ts, json-rows.ts) share: the ranges in which SQLite
 * prints a value exactly as the JS writers do, and the tag order check.
 */
import type { Db } from './db.js';
import { compareTagRefs } from './transactions.js';

/** Years 0000–9999: where `strftime` and `Date#toISOString` print the same digits. */
const MIN_TS = -62167219200;
const MAX_TS = 253402300799;
/** Below 2^51 cents the JS writers' cents → number → text round trip is exact. */
const MAX_CENTS = 1e15;

/** SQL: true when the row's timestamp prints in SQL as in JS. */
export const TS_EXACT = `(typeof(t.ts) = 'integer' AND t.ts BETWEEN ${MIN_TS} AND ${MAX_TS})`;
/** SQL: true when the row's fiat value (or its absence) prints in SQL as in JS. */
export const FIAT_EXACT = `(t.fiat_cents IS NULL OR (typeof(t.fiat_cents) = 'integer' AND abs(t.fiat_cents) < ${MAX_CENTS}))`;

export const TX_FROM = 'FROM transactions t JOIN wallets w ON w.id = t.wallet_id';

/** True when SQLite's `name COLLATE NOCASE, id` orders every tag as compareTagRefs does (UTF-8 vs UTF-16 order can differ). */
export function tagOrderAgrees(db: Db): boolean {
  const sql = db.prepare('SELECT id, name, color FROM tags ORDER BY name COLLATE NOCASE, id').all() as { id: string; name: string; color: string }[];
  const js = [...sql].sort(compareTagRefs);
  return js.every((t, i) => t === sql[i]);
}
