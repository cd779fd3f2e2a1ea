/**
 * What an export reads of its filter besides the rows (engine/export-jobs.ts): the keys of its
 * groups (`group_by`), its first and last timestamps, and the flows a converted summary sums.
 */
import type { Db } from './db.js';
import { prepareCached } from './statements.js';
import type { Where } from './transactions.js';

/** The matching rows' months (`YYYY-MM`, UTC), in order. */
export function monthsOf(db: Db, w: Where): string[] {
  return prepareCached(db, `SELECT DISTINCT strftime('%Y-%m', t.ts, 'unixepoch') AS k FROM transactions t WHERE ${w.sql} ORDER BY k`)
    .pluck()
    .all(...w.params) as string[];
}

/** The matching rows' wallets, by label (case-insensitively), then id. */
export function walletsOf(db: Db, w: Where): { id: string; label: string }[] {
  return prepareCached(
    db,
    `SELECT DISTINCT t.wallet_id AS id, w.label FROM transactions t JOIN wallets w ON w.id = t.wallet_id WHERE ${w.sql} ORDER BY w.label COLLATE NOCASE, w.id`,
  ).all(...w.params) as { id: string; label: string }[];
}

/** The matching rows' token symbols, one per case-insensitive spelling, in that order. */
export function tokensOf(db: Db, w: Where): string[] {
  return prepareCached(db, `SELECT t.token_symbol AS s FROM transactions t WHERE ${w.sql} GROUP BY t.token_symbol COLLATE NOCASE ORDER BY s COLLATE NOCASE`)
    .pluck()
    .all(...w.params) as string[];
}

/** The workspace's tags (only `tagIds`, when given) that some matching row carries, in tag order. */
export function tagsOf(db: Db, workspaceId: string, tagIds: string[] | undefined, w: Where): { id: string; name: string }[] {
  const only = tagIds ? `AND g.id IN (${tagIds.map(() => '?').join(', ')})` : '';
  return prepareCached(
    db,
    `SELECT g.id, g.name FROM tags g WHERE g.workspace_id = ? ${only} AND EXISTS (SELECT 1 FROM transaction_tags x JOIN transactions t ON t.id = x.transaction_id
           WHERE x.tag_id = g.id AND ${w.sql}) ORDER BY g.name_key, g.id`,
  ).all(workspaceId, ...(tagIds ?? []), ...w.params) as { id: string; name: string }[];
}

/** The first (`ASC`) or last (`DESC`) matching timestamp: an index-ordered lookup, where min() or max() would scan every matching row. */
export function edgeTs(db: Db, w: Where, order: 'ASC' | 'DESC'): number | undefined {
  return prepareCached(db, `SELECT t.ts FROM transactions t WHERE ${w.sql} ORDER BY t.ts ${order} LIMIT 1`)
    .pluck()
    .get(...w.params) as number | undefined;
}

export interface Flow {
  ts: number;
  direction: string;
  fiat_cents: number | null;
}

/** The matching rows' value and direction, one by one (iterating: prepared fresh, see statements.ts). */
export function flowsOf(db: Db, w: Where): IterableIterator<Flow> {
  return db.prepare(`SELECT t.ts, t.direction, t.fiat_cents FROM transactions t WHERE ${w.sql}`).iterate(...w.params) as IterableIterator<Flow>;
}
