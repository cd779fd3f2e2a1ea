/**
 * The matching transactions cut into consecutive ranges of a fixed number of rows in
 * (ts, id) order, so two readers can each make the text of whole ranges while the file is
 * written in order (exporters/range-readers.ts). A range is (bounds[i], bounds[i + 1]].
 */
import type { Db } from './db.js';
import type { Where } from './transactions.js';
import { TX_FROM } from './sql-exact.js';

/** A row's place in export order; the timestamp as BigInt so any stored integer binds back exactly. */
export type RowKey = [ts: bigint, id: string];

/** Before every row: no stored timestamp is below -2^63, and no id is empty. */
const BEFORE_ALL: RowKey = [-(2n ** 63n), ''];

const IN_RANGE = '(t.ts, t.id) > (?, ?) AND (t.ts, t.id) <= (?, ?) ORDER BY t.ts ASC, t.id ASC';

/** A query over `TX_FROM WHERE where` that reads one range: append a range's four bounds to `params`. */
export interface RangeQuery {
  sql: string;
  params: unknown[];
}

/** `SELECT select TX_FROM WHERE where`, limited to one range and in export order. */
export function rangeQuery(select: string, where: Where): RangeQuery {
  return { sql: `SELECT ${select} ${TX_FROM} WHERE ${where.sql} AND ${IN_RANGE}`, params: where.params };
}

/** Consecutive ranges: range i is (bounds[i], bounds[i + 1]]; `total` rows in all. */
export interface KeyRanges {
  bounds: RowKey[];
  total: number;
}

/**
 * Ranges of `rows` rows each (the last may be shorter) over the rows `where` matches. The walk
 * reads the index alone (no wallet join, which the foreign key makes a no-op): ≈ 0.1 s for 1M rows.
 */
export function keyRanges(db: Db, where: Where, rows: number): KeyRanges {
  const after = `SELECT t.ts, t.id FROM transactions t WHERE ${where.sql} AND (t.ts, t.id) > (?, ?) ORDER BY t.ts ASC, t.id ASC`;
  const next = db.prepare(`${after} LIMIT 1 OFFSET ?`).raw().safeIntegers();
  const bounds = [BEFORE_ALL];
  for (;;) {
    const end = next.get(...where.params, ...bounds.at(-1)!, rows - 1) as RowKey | undefined;
    if (!end) break;
    bounds.push(end);
  }
  // Fewer than `rows` rows are left: the last range ends at the last of them.
  let total = (bounds.length - 1) * rows;
  let last: RowKey | undefined;
  for (const key of db
    .prepare(after)
    .raw()
    .safeIntegers()
    .iterate(...where.params, ...bounds.at(-1)!)) {
    last = key as RowKey;
    total++;
  }
  if (last) bounds.push(last);
  return { bounds, total };
}

/** The four bounds of range `i`, to append to a RangeQuery's params. */
export function rangeParams(bounds: readonly RowKey[], i: number): unknown[] {
  return [...bounds[i]!, ...bounds[i + 1]!];
}

/** True when SQLite reads `query` in index order, with no sort per range (each range then costs only its rows). */
export function readsInIndexOrder(db: Db, query: RangeQuery): boolean {
  const plan = db.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...query.params, ...BEFORE_ALL, ...BEFORE_ALL) as { parent: number; detail: string }[];
  // Subqueries (a row's tags) may sort their few rows; the outer query must not.
  return !plan.some((step) => step.parent === 0 && step.detail.includes('TEMP B-TREE FOR ORDER BY'));
}

/**
 * The range query of `select` over the rows `where` matches, and its ranges of `rows` rows; null
 * when SQLite would sort each range (no index serves the filter in time order).
 */
export function keyRangesOf(db: Db, select: string, where: Where, rows: number): { query: RangeQuery; ranges: KeyRanges } | null {
  const query = rangeQuery(select, where);
  return readsInIndexOrder(db, query) ? { query, ranges: keyRanges(db, where, rows) } : null;
}
