/**
 * Exact balances: inflows minus outflows on BigInt base units, as SQLite's own sums are 64-bit
 * integers or binary floats and token amounts have up to 78 digits. core/money.ts's `ExactSum`
 * folds rows in JavaScript (the running balances of `txa check`); `txa_balance(amount, decimals,
 * direction)` is the same sum as a SQL aggregate (an assertion's balance at a day's end), giving a
 * canonical decimal.
 */
import type { Db } from '../store/db.js';
import { ExactSum } from '../core/money.js';

const registered = new WeakSet<Db>();

/** Registers `txa_balance` on the connection (once). */
export function registerBalanceFunction(db: Db): void {
  if (registered.has(db)) return;
  db.aggregate('txa_balance', {
    start: () => new ExactSum(),
    step: (sum: ExactSum, ...row: unknown[]) =>
      row[2] === 'inflow' ? sum.add(row[0] as string, row[1] as number) : sum.subtract(row[0] as string, row[1] as number),
    result: (sum: ExactSum) => sum.toString(),
    deterministic: true,
    varargs: true,
  });
  registered.add(db);
}
