/**
 * Prepared statements kept per connection, by SQL text. Preparing costs tens of microseconds,
 * a noticeable share of a list request; filters produce a bounded set of SQL texts. Only for
 * statements run to completion (`get`, `all`, `run`): an iterating statement is busy until it
 * ends, so a nested use of the same text would fail, and those are prepared fresh.
 */
import type Database from 'better-sqlite3';
import type { Db } from './db.js';

const MAX_PER_CONNECTION = 256;
const caches = new WeakMap<Db, Map<string, Database.Statement>>();

export function prepareCached(db: Db, sql: string): Database.Statement {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  let stmt = cache.get(sql);
  if (!stmt) {
    if (cache.size >= MAX_PER_CONNECTION) cache.delete(cache.keys().next().value!);
    stmt = db.prepare(sql);
    cache.set(sql, stmt);
  }
  return stmt;
}
