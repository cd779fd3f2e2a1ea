/**
 * Daily token flows: per workspace, wallet, token (symbol and address) and UTC day, the exact sums
 * of the day's inflow and outflow amounts (canonical decimals). Every row counts, spam and zero
 * amounts too, as in a running balance: a day of zero rows only has its entry (of zeros), so
 * the walk still stops on it. `txa check` walks a wallet's balance by day on them and reads rows
 * only on a day whose opening balance minus its outflows is below zero (checks/kinds.ts).
 *
 * Rows are inserted (insert-transactions.ts) and removed with their wallet, never changed in
 * amount, token, direction or time, so those two places keep the table in step. A ledger that had
 * rows before the table existed gets it filled on first use (`ensureBalanceDays`); until then the
 * setting `balance_days` is absent.
 */
import type { Db } from './db.js';
import { prepareCached } from './statements.js';
import { ExactSum } from '../core/money.js';
import { epochDay } from '../core/dates.js';

/** What a row adds to the table. */
export interface FlowRow {
  workspace_id: string;
  wallet_id: string;
  token_symbol: string;
  token_address: string | null;
  amount: string;
  direction: string;
  ts: number;
}

export interface BalanceDay {
  wallet_id: string;
  token_symbol: string;
  /** `''` for a native coin (NULL in transactions). */
  token_address: string;
  day: number;
  inflow: string;
  outflow: string;
}

const COMPLETE = 'balance_days';
interface Pending {
  key: [string, string, string, string, number];
  inflow: ExactSum;
  outflow: ExactSum;
}

/** The rows' amounts by day, summed exactly. */
function fold(rows: Iterable<FlowRow>): Map<string, Pending> {
  const pending = new Map<string, Pending>();
  for (const r of rows) {
    const address = r.token_address ?? '';
    const day = epochDay(r.ts);
    const id = `${r.workspace_id}\0${r.wallet_id}\0${r.token_symbol}\0${address}\0${day}`;
    let p = pending.get(id);
    if (!p) pending.set(id, (p = { key: [r.workspace_id, r.wallet_id, r.token_symbol, address, day], inflow: new ExactSum(), outflow: new ExactSum() }));
    (r.direction === 'inflow' ? p.inflow : p.outflow).add(r.amount);
  }
  return pending;
}

/** Adds folded flows to the days' rows. */
function write(db: Db, pending: Map<string, Pending>): void {
  const read = prepareCached(
    db,
    'SELECT inflow, outflow FROM balance_days WHERE workspace_id = ? AND wallet_id = ? AND token_symbol = ? AND token_address = ? AND day = ?',
  );
  const put = prepareCached(
    db,
    'INSERT OR REPLACE INTO balance_days (workspace_id, wallet_id, token_symbol, token_address, day, inflow, outflow) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  for (const { key, inflow, outflow } of pending.values()) {
    const old = read.get(...key) as { inflow: string; outflow: string } | undefined;
    if (old) {
      inflow.add(old.inflow);
      outflow.add(old.outflow);
    }
    put.run(...key, inflow.toString(), outflow.toString());
  }
}

/** Adds the flows of new rows to their days. Call inside the write transaction that inserts them. */
export function addToBalanceDays(db: Db, rows: Iterable<FlowRow>): void {
  write(db, fold(rows));
}

export function removeWalletBalanceDays(db: Db, walletId: string): void {
  db.prepare('DELETE FROM balance_days WHERE wallet_id = ?').run(walletId);
}

/**
 * Fills the table from the ledger's rows once (a ledger older than it), in the caller's write
 * transaction; a no-op when it is complete.
 */
export function ensureBalanceDays(db: Db): void {
  if (balanceDaysComplete(db)) return;
  db.prepare('DELETE FROM balance_days').run();
  const rows = db
    .prepare('SELECT workspace_id, wallet_id, token_symbol, token_address, amount, direction, ts FROM transactions')
    .iterate() as IterableIterator<FlowRow>;
  // Folded whole before the first write: better-sqlite3 cannot write while a statement iterates.
  write(db, fold(rows));
  db.prepare('INSERT INTO settings (key, value) VALUES (?, ?)').run(COMPLETE, 'complete');
}

export function balanceDaysComplete(db: Db): boolean {
  return db.prepare('SELECT 1 FROM settings WHERE key = ?').pluck().get(COMPLETE) !== undefined;
}

/** A workspace's days up to `lastDay`, by wallet, token and day (the table's order: no sort). */
export function balanceDays(db: Db, workspaceId: string, lastDay: number): IterableIterator<BalanceDay> {
  return db
    .prepare(
      'SELECT wallet_id, token_symbol, token_address, day, inflow, outflow FROM balance_days WHERE workspace_id = ? AND day <= ? ORDER BY wallet_id, token_symbol, token_address, day',
    )
    .iterate(workspaceId, lastDay) as IterableIterator<BalanceDay>;
}
