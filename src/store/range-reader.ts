/**
 * Reading an export's key ranges (key-ranges.ts) on one connection, the main thread's or the file
 * worker's (worker-reader.ts): the range statements are prepared once per export and run per range.
 */
import type { Db } from './db.js';
import { rangeParams, type RangeQuery, type RowKey } from './key-ranges.js';

export interface RangeReader {
  /** The row texts of range i. */
  rows(i: number): string[];
  /** Range i through the packed query, as its one row [UTF-8 bytes, row count, placeholder count]; null without a packed query. */
  packed: ((i: number) => [Uint8Array, number, number]) | null;
}

/** A reader of the ranges `bounds` cuts: `query`'s rows are one text each, `packed`'s one row per range. */
export function rangeReader(db: Db, bounds: readonly RowKey[], query: RangeQuery, packed?: RangeQuery): RangeReader {
  const stmt = db.prepare(query.sql).pluck();
  const packedStmt = packed && db.prepare(packed.sql).raw();
  return {
    rows: (i) => stmt.all(...query.params, ...rangeParams(bounds, i)) as string[],
    packed: packedStmt ? (i) => packedStmt.get(...packed.params, ...rangeParams(bounds, i)) as [Uint8Array, number, number] : null,
  };
}
