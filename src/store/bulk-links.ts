/**
 * Tag links written in bulk (an import of many tagged rows). Each link fires three triggers
 * (migrations 6 and 16: its row's tag_count, the tag rollups, its tag's usage_count) that cost
 * an import about a third of its time (bench/RESULTS.md, "Session 7"). For many links it is
 * cheaper to drop them for the write and do their work once, set-based, over the rows the write
 * added. Like withIndexesRebuilt, the DDL is part of the caller's transaction: a rollback leaves
 * the triggers as they were, and other connections only ever see them in place.
 */
import type { Db } from './db.js';

/** The AFTER INSERT triggers of transaction_tags, whose work the caller (tag_count) and catchUp do for new rows. */
const LINK_TRIGGERS = ['tag_link_added', 'tag_rollup_link_added', 'tag_usage_added'];

/**
 * Runs `fn` with the link triggers dropped, then does their work for every link of a row added
 * during `fn` and creates them again from their stored SQL. `fn` may add rows and link them; it
 * must not link rows that existed before it nor remove links (their work would be missed).
 * It inserts each row with its `tag_count` already set (the number of links it will give it):
 * counting them afterwards would rewrite every tagged row (≈ 0.4 s per 100k).
 * Must run inside a write transaction with no statement in progress.
 */
export function withLinkTriggersDeferred<T>(db: Db, fn: () => T): T {
  if (!db.inTransaction) throw new Error('link triggers are only deferred inside a write transaction');
  const lastBefore = (db.prepare('SELECT max(rowid) FROM transactions').pluck().get() as number | null) ?? 0;
  const marks = LINK_TRIGGERS.map(() => '?').join(', ');
  const triggers = db.prepare(`SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND name IN (${marks})`).all(...LINK_TRIGGERS) as {
    name: string;
    sql: string;
  }[];
  for (const { name } of triggers) db.exec(`DROP TRIGGER "${name}"`);
  const result = fn();
  catchUp(db, lastBefore);
  for (const { sql } of triggers) db.exec(sql);
  return result;
}

/**
 * What the link triggers would have done for the links of the rows after rowid `lastBefore`
 * (rowids only grow, so those are the rows added since), but their rows' `tag_count`: count them
 * on their tags, and add each row that is not spam to the tag rollups under each of its tags and
 * under '' once.
 */
function catchUp(db: Db, lastBefore: number): void {
  // Driven from the new rows' rowid range (CROSS JOIN keeps that order: without statistics,
  // SQLite would scan every link or every row).
  const linked = 'FROM transactions t CROSS JOIN transaction_tags x ON x.transaction_id = t.id WHERE t.rowid > ?';
  db.prepare(
    `UPDATE tags SET usage_count = usage_count + c.n FROM (SELECT x.tag_id, count(*) AS n ${linked} GROUP BY x.tag_id) AS c WHERE tags.id = c.tag_id`,
  ).run(lastBefore);
  // The day as the triggers compute it (migration 16).
  db.prepare(
    `INSERT INTO tag_rollup_daily (workspace_id, tag_id, day, wallet_id, chain, token_symbol, direction, tx_count, fiat_cents)
     SELECT workspace_id, tag_id, unixepoch(ts, 'unixepoch', 'start of day') / 86400 AS day, wallet_id, min(chain), token_symbol, direction, count(*), ifnull(sum(fiat_cents), 0)
     FROM (SELECT t.workspace_id, x.tag_id, t.ts, t.wallet_id, t.chain, t.token_symbol, t.direction, t.fiat_cents ${linked} AND t.spam = 0
           UNION ALL
           SELECT workspace_id, '', ts, wallet_id, chain, token_symbol, direction, fiat_cents FROM transactions WHERE rowid > ? AND spam = 0 AND tag_count > 0)
     WHERE true
     GROUP BY workspace_id, tag_id, day, wallet_id, token_symbol, direction
     ON CONFLICT (workspace_id, tag_id, day, wallet_id, token_symbol, direction)
     DO UPDATE SET tx_count = tx_count + excluded.tx_count, fiat_cents = fiat_cents + excluded.fiat_cents`,
  ).run(lastBefore, lastBefore);
}
