/**
 * Exact balances: inflows minus outflows on BigInt base units, as SQLite's own sums are 64-bit
 * integers or binary floats and token amounts have up to 78 digits. `Balance` folds rows in
 * JavaScript (the running balances of `txa check`); `txa_balance(amount, decimals, direction)` is
 * the same sum as a SQL aggregate (an assertion's balance at a day's end), giving a canonical decimal.
 */
import type { Db } from '../store/db.js';
import { fromBaseUnits, scaleOf, toBaseUnits } from '../core/money.js';
import { upscale } from '../accounting/quantity.js';

export class Balance {
  private units = 0n;
  /** Decimals of `units`: the most any row has had (a token's rows all have the same). */
  private scale = 0;

  /** Adds a row's amount (inflow) or subtracts it (outflow). */
  add(amount: string, decimals: number, inflow: boolean): void {
    const scale = Math.max(this.scale, decimals);
    const units = upscale(toBaseUnits(amount, decimals), decimals, scale);
    this.units = upscale(this.units, this.scale, scale) + (inflow ? units : -units);
    this.scale = scale;
  }

  /** A copy less `amount` (a canonical decimal): this balance after that outflow. */
  minus(amount: string): Balance {
    const after = new Balance();
    after.units = this.units;
    after.scale = this.scale;
    after.add(amount, scaleOf(amount), false);
    return after;
  }

  get negative(): boolean {
    return this.units < 0n;
  }

  toString(): string {
    return fromBaseUnits(this.units, this.scale);
  }
}

const registered = new WeakSet<Db>();

/** Registers `txa_balance` on the connection (once). */
export function registerBalanceFunction(db: Db): void {
  if (registered.has(db)) return;
  db.aggregate('txa_balance', {
    start: () => new Balance(),
    step: (sum: Balance, ...row: unknown[]) => sum.add(row[0] as string, row[1] as number, row[2] === 'inflow'),
    result: (sum: Balance) => sum.toString(),
    deterministic: true,
    varargs: true,
  });
  registered.add(db);
}
