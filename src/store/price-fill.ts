/** What `txa prices fill` reads (prices/fill.ts): the rows without a value, and the workspace's rates. */
import type { Db } from './db.js';

/** A row to value: its token, amount and time. */
export interface UnpricedRow {
  id: string;
  chain: string;
  token_symbol: string;
  token_address: string | null;
  amount: string;
  ts: number;
}

export interface UnpricedScope {
  /** Unix seconds, start inclusive, end exclusive. */
  startTs?: number;
  endTs?: number;
  /** Only these wallets' rows. */
  walletIds?: string[];
}

/** The workspace's rows without a fiat value that are not spam, in time order. */
export function unpricedRows(db: Db, workspaceId: string, scope: UnpricedScope): UnpricedRow[] {
  const where = ['workspace_id = ?', 'fiat_cents IS NULL', 'spam = 0'];
  const args: (string | number)[] = [workspaceId];
  const add = (clause: string, ...values: (string | number)[]) => {
    where.push(clause);
    args.push(...values);
  };
  if (scope.startTs !== undefined) add('ts >= ?', scope.startTs);
  if (scope.endTs !== undefined) add('ts < ?', scope.endTs);
  if (scope.walletIds) add(`wallet_id IN (${scope.walletIds.map(() => '?').join(', ')})`, ...scope.walletIds);
  const sql = `SELECT id, chain, token_symbol, token_address, amount, ts FROM transactions WHERE ${where.join(' AND ')} ORDER BY ts, id`;
  return db.prepare(sql).all(...args) as UnpricedRow[];
}
