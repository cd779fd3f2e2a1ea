/**
 * The rows of one second for a pooled jurisdiction's report (uk, ca): put in the order of
 * order.ts (acquisitions before disposals, fees last) and given each its share of a fee of the
 * same transaction (tax-ledger.ts feeShares, docs/accounting.md "Fees"), so a fee paid for a trade
 * is part of the trade's cost: added to what an acquisition cost, or an allowable cost / outlay of
 * a disposal. The fee row itself stays a disposal of the coin it was paid in.
 */
import type { LedgerRow } from '../ledger-row.js';
import { share } from '../lots.js';
import { secondOrder, sortSecond } from '../order.js';
import { feeShares } from '../tax-ledger.js';

export interface SecondRow {
  tx: LedgerRow;
  reported: boolean;
  /** A fee's share to add to this acquisition's cost, or to this disposal's costs (cents; 0 if none). */
  fee: bigint;
  /**
   * With `exchange`, a leg of a crypto-to-crypto exchange: its value by what the other side was
   * worth (a disposal's consideration is what it received, an acquisition's cost what was given
   * for it); else its own value.
   */
  value: bigint | null;
}

const NONE: SecondRow[] = [];
/** Wallets rank equal: the pool is one, and the order's own keys decide among equals. */
const EQUAL = () => 0;
const PLAIN = secondOrder(EQUAL);

/** Holds the rows of the current second; `add` answers the previous second's when a new one starts. */
export class SecondRows {
  private readonly group: { tx: LedgerRow; reported: boolean }[] = [];

  /** `exchange`: value each leg of an exchange by its other side (the UK's reading, CRYPTO22257). */
  constructor(private readonly exchange = false) {}

  add(tx: LedgerRow, reported: boolean): SecondRow[] {
    const last = this.group[this.group.length - 1];
    const out = last && last.tx.timestamp !== tx.timestamp ? this.flush() : NONE;
    this.group.push({ tx, reported });
    return out;
  }

  end(): SecondRow[] {
    return this.flush();
  }

  private flush(): SecondRow[] {
    const g = this.group;
    if (g.length === 0) return NONE;
    if (g.length === 1) {
      const { tx, reported } = g[0]!;
      g.length = 0;
      return [{ tx, reported, fee: 0n, value: tx.fiat_cents }];
    }
    sortSecond(g, EQUAL, PLAIN);
    const rows = g.map((r) => r.tx);
    const shares = rows.some((r) => r.type === 'fee') ? feeShares(rows) : null;
    const swapped = this.exchange ? exchangeValues(rows) : null;
    const out = g.map(({ tx, reported }) => ({
      tx,
      reported,
      fee: shares?.cost.get(tx) ?? shares?.proceeds.get(tx) ?? 0n,
      value: swapped?.get(tx) ?? tx.fiat_cents,
    }));
    // The array is kept for the next second (one row a second is the common case).
    g.length = 0;
    return out;
  }
}

/**
 * The legs of each exchange among one second's rows (one wallet, one transaction hash, valued
 * outflows and inflows, no own-transfer leg, fees apart): the outflows' consideration is what the
 * inflows were worth, the inflows' cost what the outflows were worth, each side split by its own
 * values. Legs already of equal worth keep their values.
 */
function exchangeValues(rows: readonly LedgerRow[]): Map<LedgerRow, bigint> {
  const out = new Map<LedgerRow, bigint>();
  const byTx = new Map<string, LedgerRow[]>();
  for (const r of rows) {
    if (r.type === 'fee' || r.type === 'approval' || r.tx_hash === '') continue;
    const key = `${r.wallet_id} ${r.tx_hash}`;
    const list = byTx.get(key);
    if (list) list.push(r);
    else byTx.set(key, [r]);
  }
  for (const legs of byTx.values()) {
    if (legs.some((r) => r.transfer || r.fiat_cents === null)) continue;
    const outs = legs.filter((r) => r.direction === 'outflow');
    const ins = legs.filter((r) => r.direction === 'inflow');
    if (outs.length === 0 || ins.length === 0) continue;
    const given = outs.reduce((s, r) => s + r.fiat_cents!, 0n);
    const received = ins.reduce((s, r) => s + r.fiat_cents!, 0n);
    if (given === received) continue;
    spreadOver(received, outs, out);
    spreadOver(given, ins, out);
  }
  return out;
}

/** `amount` over `rows` by their values (all to the first when they are all 0). */
function spreadOver(amount: bigint, rows: LedgerRow[], into: Map<LedgerRow, bigint>): void {
  const whole = rows.reduce((s, r) => s + r.fiat_cents!, 0n);
  let before = 0n;
  rows.forEach((r, i) => {
    into.set(r, whole > 0n ? share(amount, before, before + r.fiat_cents!, whole) : i === 0 ? amount : 0n);
    before += r.fiat_cents!;
  });
}
