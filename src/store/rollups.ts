/**
 * Daily rollups: per workspace, day, wallet, token and direction, the count and the fiat sum
 * of transactions. They are updated in the same database transaction as the rows they count,
 * so summaries over dates, wallets, chains, tokens and directions read a few thousand rollup
 * rows instead of scanning every matching transaction, and stay exact (integer cents).
 */
import type { Db } from './db.js';
import type { TxFilter } from '../core/filters.js';
import { rollupCanAnswer } from '../core/filters.js';
import { DAY_SECONDS, epochDay } from '../core/dates.js';
import { dimensionClauses, whereOf } from './transactions.js';
import type { NewTransaction } from './transactions.js';

export interface Totals {
  inflowCents: number;
  outflowCents: number;
  count: number;
}

export function addToRollups(db: Db, rows: NewTransaction[]): void {
  if (rows.length === 0) return;
  const acc = new Map<string, { r: NewTransaction; day: number; n: number; cents: number }>();
  for (const r of rows) {
    const day = epochDay(r.ts);
    const key = `${r.workspace_id}\0${day}\0${r.wallet_id}\0${r.token_symbol}\0${r.direction}`;
    const a = acc.get(key);
    if (a) {
      a.n += 1;
      a.cents += r.fiat_cents ?? 0;
    } else {
      acc.set(key, { r, day, n: 1, cents: r.fiat_cents ?? 0 });
    }
  }
  const upsert = db.prepare(
    `INSERT INTO rollup_daily (workspace_id, day, wallet_id, chain, token_symbol, direction, tx_count, fiat_cents)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (workspace_id, day, wallet_id, token_symbol, direction)
     DO UPDATE SET tx_count = tx_count + excluded.tx_count, fiat_cents = fiat_cents + excluded.fiat_cents`,
  );
  for (const { r, day, n, cents } of acc.values()) {
    upsert.run(r.workspace_id, day, r.wallet_id, r.chain, r.token_symbol, r.direction, n, cents);
  }
}

export function removeWalletRollups(db: Db, walletId: string): void {
  db.prepare('DELETE FROM rollup_daily WHERE wallet_id = ?').run(walletId);
}

function totalsOf(rows: { direction: string; n: number; cents: number | null }[]): Totals {
  const t: Totals = { inflowCents: 0, outflowCents: 0, count: 0 };
  for (const row of rows) {
    t.count += row.n;
    if (row.direction === 'inflow') t.inflowCents += row.cents ?? 0;
    else t.outflowCents += row.cents ?? 0;
  }
  return t;
}

/** Exact totals of a filter: from the rollups where they can answer it, else by scanning rows. */
export function totals(db: Db, workspaceId: string, f: TxFilter): Totals {
  return rollupCanAnswer(f) ? totalsFromRollups(db, workspaceId, f) : totalsFromRows(db, workspaceId, f);
}

export function totalsFromRows(db: Db, workspaceId: string, f: TxFilter): Totals {
  const w = whereOf(workspaceId, f);
  const rows = db
    .prepare(`SELECT t.direction, count(*) AS n, sum(t.fiat_cents) AS cents FROM transactions t WHERE ${w.sql} GROUP BY t.direction`)
    .all(...w.params) as { direction: string; n: number; cents: number | null }[];
  return totalsOf(rows);
}

/**
 * Totals from the daily rollups. Whole days only, which is what start_date/end_date are
 * (both are whole UTC days); the filter's bounds are day starts.
 */
export function totalsFromRollups(db: Db, workspaceId: string, f: TxFilter): Totals {
  const w = dimensionClauses(workspaceId, f);
  if (f.startTs !== undefined) w.add('day >= ?', Math.floor(f.startTs / DAY_SECONDS));
  if (f.endTs !== undefined) w.add('day < ?', Math.floor(f.endTs / DAY_SECONDS));
  const { sql, params } = w.build();
  const rows = db
    .prepare(`SELECT direction, sum(tx_count) AS n, sum(fiat_cents) AS cents FROM rollup_daily WHERE ${sql} GROUP BY direction`)
    .all(...params) as { direction: string; n: number; cents: number | null }[];
  return totalsOf(rows);
}
