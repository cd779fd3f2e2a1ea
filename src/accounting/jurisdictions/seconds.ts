/**
 * The rows of one second for a pooled jurisdiction's report (uk, ca): put in the order of
 * order.ts (acquisitions before disposals, fees last) and given each its share of a fee of the
 * same transaction (tax-ledger.ts feeShares, docs/accounting.md "Fees"), so a fee paid for a trade
 * is part of the trade's cost: added to what an acquisition cost, or an allowable cost / outlay of
 * a disposal. The fee row itself stays a disposal of the coin it was paid in.
 */
import type { LedgerRow } from '../ledger-row.js';
import { sortSecond } from '../order.js';
import { feeShares } from '../tax-ledger.js';

export interface SecondRow {
  tx: LedgerRow;
  reported: boolean;
  /** A fee's share to add to this acquisition's cost, or to this disposal's costs (cents; 0 if none). */
  fee: bigint;
}

/** Holds the rows of the current second; `add` answers the previous second's when a new one starts. */
export class SecondRows {
  private group: { tx: LedgerRow; reported: boolean }[] = [];

  add(tx: LedgerRow, reported: boolean): SecondRow[] {
    const last = this.group[this.group.length - 1];
    const out = last && last.tx.timestamp !== tx.timestamp ? this.flush() : [];
    this.group.push({ tx, reported });
    return out;
  }

  end(): SecondRow[] {
    return this.flush();
  }

  private flush(): SecondRow[] {
    const g = this.group;
    this.group = [];
    if (g.length === 1) return [{ ...g[0]!, fee: 0n }];
    // Wallets rank equal: the pool is one, and the order's own keys decide among equals.
    sortSecond(g, () => 0);
    const shares = g.some((r) => r.tx.type === 'fee') ? feeShares(g.map((r) => r.tx)) : null;
    return g.map(({ tx, reported }) => ({ tx, reported, fee: shares?.cost.get(tx) ?? shares?.proceeds.get(tx) ?? 0n }));
  }
}
