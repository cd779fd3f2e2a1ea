/**
 * The roll-forward (docs/accounting.md "Form 8949, 1099-DA and the roll-forward"): per book (a
 * wallet, or the universal pool) and asset, the lots at the period's start, what the period's
 * rows added and took, the lots at its end, and the balance the rows themselves add up to.
 *
 * One tax ledger runs over the rows. At the first row of the period it is ended there
 * (`end(start)`: the rows before are settled, the pool split when the start is past the
 * transition) and its open lots are the opening; from then on its own account of each book's
 * changes (`onLots`) and its disposal lines are the period's flows; ended at the period's end, its
 * open lots are the closing:
 * - acquired / income: lots opened by inflows (at their fiat value, with a fee that `adjust` adds;
 *   income: those with an income-type tag); an inflow without a value opens no lot;
 * - disposed: what the period's disposals took from lots (a quantity no lot covers is not here;
 *   an own transfer's shortfall is, from the sending book);
 * - transfer in / out: the lots own transfers moved into and out of the book (a transfer's excess
 *   is a lot in; the pool's split at the transition moves all its lots out to the wallets);
 * - balance: the sum of the book's rows (inflows less outflows) up to the period's end, and
 *   difference = balance − closing quantity: non-zero where rows moved tokens that no lot
 *   accounts for (an inflow without a value, a disposal beyond the lots).
 * So closing = opening + acquired + income − disposed + transfer in − transfer out, in quantity
 * and cost, exactly (the lots the ledger holds, lot by lot).
 */
import type { Asset } from './assets.js';
import { quantityOf, upscale, type Quantity } from './quantity.js';
import { TaxLedger, type LedgerRow, type LotChange, type TaxLine, type TaxOptions } from './tax-ledger.js';

/** A signed quantity (units may be negative). */
export type Signed = Quantity;

export interface Flow {
  quantity: Signed;
  cost: bigint;
}

export const ROLL_FLOWS = ['opening', 'acquired', 'income', 'disposed', 'transfer_in', 'transfer_out', 'closing'] as const;
export type RollFlow = (typeof ROLL_FLOWS)[number];

export interface RollRow {
  /** A wallet id, or `*` for the universal pool. */
  scope: string;
  wallet_label: string;
  asset: Asset;
  flows: Record<RollFlow, Flow>;
  balance: Signed;
  difference: Signed;
}

export function addSigned(a: Signed, b: Signed, sign = 1n): Signed {
  const scale = Math.max(a.scale, b.scale);
  return { units: upscale(a.units, a.scale, scale) + sign * upscale(b.units, b.scale, scale), scale };
}

const ZERO_FLOW = (): Flow => ({ quantity: { units: 0n, scale: 0 }, cost: 0n });
const UNIVERSAL = '*';
const TRANSIT = 'transit';

interface Entry {
  scope: string;
  asset: Asset;
  flows: Record<RollFlow, Flow>;
}

export class RollForward {
  /** The ledger (its open lots are the closing once `rows()` has run). */
  readonly ledger: TaxLedger;
  private readonly entries = new Map<string, Entry>();
  private readonly labels = new Map<string, string>();
  /** Each wallet's balance per asset (the sum of its rows), by `wallet asset-key`. */
  private readonly balances = new Map<string, { walletId: string; asset: Asset; balance: Signed }>();
  private readonly byToken = new WeakMap<LedgerRow['token'], { chain: string; walletId: string; key: string }>();
  private readonly startTs: string | null;
  private readonly endTs: string | null;
  private opened = false;
  private ended = false;

  /**
   * `start` and `end`: the period's first and last days (YYYY-MM-DD), or null (all history; up
   * to the last row). Rows after the end are left out.
   */
  constructor(
    private readonly opts: TaxOptions,
    start: string | null,
    end: string | null = null,
  ) {
    this.startTs = start === null ? null : `${start}T00:00:00Z`;
    this.endTs = end === null ? null : `${end}T23:59:59Z`;
    const told = opts.onLots;
    this.ledger = new TaxLedger({
      ...opts,
      onLots: (c) => {
        told?.(c);
        if (this.opened) this.changed(c);
      },
    });
  }

  /**
   * Feeds one row (in time order). Every row of the period is the ledger's as reported (the
   * roll-forward counts all of its disposals, whatever the filter); the rows before, whose lines
   * nobody reads, as not reported (they never share a second with the period's).
   */
  add(tx: LedgerRow): TaxLine[] | null {
    if (this.endTs !== null && tx.timestamp > this.endTs) return null;
    if (!this.opened && (this.startTs === null || tx.timestamp >= this.startTs)) this.open();
    const lines = this.ledger.add(tx, this.opened, this.balance(tx));
    this.disposed(lines);
    return lines;
  }

  /**
   * Whether the period has begun (the last row added was fed to the ledger as reported). The
   * lines `add` answers (null: a row past the end, left out) and `finish` are the ledger's lines
   * of the period's rows, as a tax report of the period over the same rows has them.
   */
  get inPeriod(): boolean {
    return this.opened;
  }

  /** Ends the ledger at the period's end (after the last `add`; once): the lines of its last second. */
  finish(): TaxLine[] {
    if (!this.opened) this.open();
    if (this.ended) return [];
    this.ended = true;
    const lines = this.ledger.end(this.endTs ?? undefined);
    this.disposed(lines);
    return lines;
  }

  /** The rows, after the last `add`: one per book and asset, by wallet label then asset. */
  rows(): RollRow[] {
    this.finish();
    for (const p of this.ledger.open()) {
      if (p.scope !== TRANSIT) this.entry(p.scope, p.asset).flows.closing = { quantity: p.quantity, cost: p.costCents };
    }
    // The balances in the books' scope at the end: the pool's while the ledger is still pooled.
    const pooled = this.opts.scope === 'universal' || (this.opts.scope === undefined && this.ledger.transition === null);
    const balances = new Map<string, Signed>();
    for (const b of this.balances.values()) {
      const scope = pooled ? UNIVERSAL : b.walletId;
      const key = `${scope} ${b.asset.key}`;
      this.entry(scope, b.asset);
      balances.set(key, addSigned(balances.get(key) ?? { units: 0n, scale: 0 }, b.balance));
    }
    const rows = [...this.entries.entries()].map(([key, e]) => {
      const balance = balances.get(key) ?? { units: 0n, scale: 0 };
      return {
        scope: e.scope,
        wallet_label: e.scope === UNIVERSAL ? 'All wallets' : (this.labels.get(e.scope) ?? e.scope),
        asset: e.asset,
        flows: e.flows,
        balance,
        difference: addSigned(balance, e.flows.closing.quantity, -1n),
      };
    });
    // A wallet and asset that only saw zero amounts (approvals, calls) has nothing to roll forward.
    const moved = (r: RollRow) => r.balance.units !== 0n || ROLL_FLOWS.some((f) => r.flows[f].quantity.units !== 0n || r.flows[f].cost !== 0n);
    return rows
      .filter(moved)
      .sort((a, b) => a.wallet_label.localeCompare(b.wallet_label) || a.asset.symbol.localeCompare(b.asset.symbol) || a.scope.localeCompare(b.scope));
  }

  /** The books as the period opens: the rows before it settled (their lines are an earlier period's). */
  private open(): void {
    if (this.startTs !== null) this.ledger.end(this.startTs);
    this.opened = true;
    for (const p of this.ledger.open()) {
      if (p.scope !== TRANSIT) this.entry(p.scope, p.asset).flows.opening = { quantity: p.quantity, cost: p.costCents };
    }
  }

  private changed(c: LotChange): void {
    if (c.scope !== TRANSIT) this.count(this.entry(c.scope, c.asset), c.kind, c.quantity, c.costCents);
  }

  /** The period's disposal lines: what they took from lots, in the book they took it from. */
  private disposed(lines: TaxLine[]): void {
    if (!this.opened) return;
    for (const l of lines) {
      if (l.kind !== 'disposal' || l.acquired === null || l.costCents === null) continue;
      this.count(this.entry(l.walletId ?? UNIVERSAL, l.asset), 'disposed', l.quantity, l.costCents);
    }
  }

  /** The balance is every row's, as the journal export and `txa check` count them. Answers the row's quantity (the ledger's too). */
  private balance(tx: LedgerRow): Quantity {
    const q = quantityOf(tx.amount, tx.token.decimals);
    const b = this.balances.get(this.balanceKey(tx))!;
    if (q.units === 0n) return q;
    const sign = tx.direction === 'inflow' ? 1n : -1n;
    if (b.balance.scale === q.scale) b.balance.units += sign * q.units;
    else b.balance = addSigned(b.balance, q, sign);
    return q;
  }

  /**
   * The row's balance key. Rows of one wallet and token often share their token object
   * (engine/ledger-rows.ts): its key is kept for it, checked against the row's chain and wallet.
   */
  private balanceKey(tx: LedgerRow): string {
    const known = this.byToken.get(tx.token);
    if (known && known.chain === tx.chain && known.walletId === tx.wallet_id) return known.key;
    this.labels.set(tx.wallet_id, tx.wallet_label);
    const asset = this.opts.assets.assetOf(tx.chain, tx.token);
    const key = `${tx.wallet_id} ${asset.key}`;
    if (!this.balances.has(key)) this.balances.set(key, { walletId: tx.wallet_id, asset, balance: { units: 0n, scale: 0 } });
    this.byToken.set(tx.token, { chain: tx.chain, walletId: tx.wallet_id, key });
    return key;
  }

  private count(e: Entry, flow: RollFlow, quantity: Signed, cost: bigint): void {
    const f = e.flows[flow];
    // Mostly at the scale already: added in place (each flow's quantity is its own object).
    if (f.quantity.scale === quantity.scale) f.quantity.units += quantity.units;
    else f.quantity = addSigned(f.quantity, quantity);
    f.cost += cost;
  }

  private entry(scope: string, asset: Asset): Entry {
    const key = `${scope} ${asset.key}`;
    let e = this.entries.get(key);
    if (!e) {
      const flows = Object.fromEntries(ROLL_FLOWS.map((f) => [f, ZERO_FLOW()])) as Record<RollFlow, Flow>;
      this.entries.set(key, (e = { scope, asset, flows }));
    }
    return e;
  }
}
