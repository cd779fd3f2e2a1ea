/**
 * The roll-forward (docs/accounting.md "Form 8949, 1099-DA and the roll-forward"): per book (a
 * wallet, or the universal pool) and asset, the lots at the period's start, what the period's
 * rows added and took, the lots at its end, and the balance the rows themselves add up to.
 *
 * - opening and closing: the lots the tax ledger holds before the period's first row and after
 *   its last (quantity and cost still open);
 * - acquired / income: lots opened by inflows at their fiat value (income: those with an
 *   income-type tag); an inflow without a value opens no lot;
 * - disposed: what the period's disposals took from lots (a quantity no lot covers is not here);
 * - transfer in / out: the lots own transfers moved into and out of the book;
 * - balance: the sum of the book's rows (inflows less outflows) up to the period's end, and
 *   difference = balance − closing quantity: non-zero where rows moved tokens that no lot
 *   accounts for (an inflow without a value, a disposal beyond the lots).
 * So closing = opening + acquired + income − disposed + transfer in − transfer out, in quantity
 * and cost, where the rows of the period are all reported.
 */
import type { BasisScope } from '../core/export-values.js';
import type { Asset, AssetTable } from './assets.js';
import { bookTotals } from './open-lots.js';
import { quantityOf, upscale, type Quantity } from './quantity.js';
import type { LedgerRow, TaxLedger, TaxLine } from './tax-ledger.js';

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

interface Entry {
  scope: string;
  asset: Asset;
  flows: Record<RollFlow, Flow>;
  balance: Signed;
}

export class RollForward {
  private readonly entries = new Map<string, Entry>();
  private readonly labels = new Map<string, string>();
  private readonly byToken = new WeakMap<LedgerRow['token'], { chain: string; walletId: string; entry: Entry }>();
  /** Own transfers whose receiving leg came first: its book, for when the sending leg moves the lots. */
  private readonly earlyIn = new Map<string, { scope: string; asset: Asset }>();
  private readonly sent = new Set<string>();
  private opened = false;

  constructor(
    private readonly ledger: TaxLedger,
    private readonly assets: AssetTable,
    private readonly scope: BasisScope,
    /** The period's first day (YYYY-MM-DD), or null: all history is in the period. */
    private readonly start: string | null,
  ) {}

  /** Feeds one row to the ledger, counting what it does to the books; returns the ledger's lines. */
  add(tx: LedgerRow, reported: boolean): TaxLine[] {
    if (!this.opened && (this.start === null || tx.timestamp.slice(0, 10) >= this.start)) this.open();
    const e = this.entryOf(tx);
    const { asset, scope } = e;
    // The balance is every row's, as the journal export and `txa check` count them.
    const q = quantityOf(tx.amount, tx.token.decimals);
    if (q.units !== 0n) {
      const b = e.balance;
      if (b.scale === q.scale) b.units += tx.direction === 'inflow' ? q.units : -q.units;
      else e.balance = addSigned(b, q, tx.direction === 'inflow' ? 1n : -1n);
    }
    const counted = this.opened && reported;
    if (!counted || q.units === 0n || tx.type === 'approval') return this.ledger.add(tx, reported);
    if (tx.transfer) return this.transferLeg(tx, scope, asset, reported);
    if (tx.direction === 'inflow' && tx.fiat_cents !== null) {
      this.count(e, tx.income_tags.length > 0 ? 'income' : 'acquired', q, tx.fiat_cents);
    }
    const lines = this.ledger.add(tx, reported);
    for (const l of lines) {
      if (l.kind !== 'disposal' || l.acquired === null || l.costCents === null || l.tx.transfer) continue;
      // A row's own disposal lines (own transfers' shortfalls are left out above) are its entry's.
      this.count(l.tx === tx ? e : this.entry(this.scope === 'wallet' ? l.tx.wallet_id : UNIVERSAL, l.asset), 'disposed', l.quantity, l.costCents);
    }
    return lines;
  }

  /** The rows, after the last `add`: one per book and asset, by wallet label then asset. */
  rows(): RollRow[] {
    if (!this.opened) this.open();
    for (const p of this.ledger.open()) {
      if (p.scope === 'transit') continue;
      const e = this.entry(p.scope, p.asset);
      e.flows.closing = { quantity: p.quantity, cost: p.costCents };
    }
    // A wallet and asset that only saw zero amounts (approvals, calls) has nothing to roll forward.
    const moved = (e: Entry) => e.balance.units !== 0n || ROLL_FLOWS.some((f) => e.flows[f].quantity.units !== 0n || e.flows[f].cost !== 0n);
    const rows = [...this.entries.values()].filter(moved).map((e) => ({
      scope: e.scope,
      wallet_label: e.scope === UNIVERSAL ? 'All wallets' : (this.labels.get(e.scope) ?? e.scope),
      asset: e.asset,
      flows: e.flows,
      balance: e.balance,
      difference: addSigned(e.balance, e.flows.closing.quantity, -1n),
    }));
    return rows.sort((a, b) => a.wallet_label.localeCompare(b.wallet_label) || a.asset.symbol.localeCompare(b.asset.symbol) || a.scope.localeCompare(b.scope));
  }

  /** The books as the period opens. */
  private open(): void {
    this.opened = true;
    for (const p of this.ledger.open()) {
      if (p.scope === 'transit') continue;
      this.entry(p.scope, p.asset).flows.opening = { quantity: p.quantity, cost: p.costCents };
    }
  }

  private transferLeg(tx: LedgerRow, scope: string, asset: Asset, reported: boolean): TaxLine[] {
    const id = tx.transfer!.id;
    // The receiving leg that came first gets its lots now; in its own book (another wallet's), or
    // in this one (one pool), where this leg's delta is the net of both.
    const early = tx.direction === 'outflow' ? this.earlyIn.get(id) : undefined;
    const other = early && (early.scope !== scope || early.asset.key !== asset.key) ? early : undefined;
    const before = bookTotals(this.ledger, scope, asset.key);
    const otherBefore = other && bookTotals(this.ledger, other.scope, other.asset.key);
    const lines = this.ledger.add(tx, reported);
    const after = bookTotals(this.ledger, scope, asset.key);
    if (tx.direction === 'outflow') {
      this.sent.add(id);
      this.earlyIn.delete(id);
      this.count(this.entry(scope, asset), 'transfer_out', addSigned(before.quantity, after.quantity, -1n), before.costCents - after.costCents);
      if (other && otherBefore) {
        const otherAfter = bookTotals(this.ledger, other.scope, other.asset.key);
        this.count(
          this.entry(other.scope, other.asset),
          'transfer_in',
          addSigned(otherAfter.quantity, otherBefore.quantity, -1n),
          otherAfter.costCents - otherBefore.costCents,
        );
      }
    } else {
      if (!this.sent.has(id) && tx.transfer!.counterpart_id !== null) this.earlyIn.set(id, { scope, asset });
      this.count(this.entry(scope, asset), 'transfer_in', addSigned(after.quantity, before.quantity, -1n), after.costCents - before.costCents);
    }
    return lines;
  }

  private count(e: Entry, flow: RollFlow, quantity: Signed, cost: bigint): void {
    const f = e.flows[flow];
    f.quantity = addSigned(f.quantity, quantity);
    f.cost += cost;
  }

  private entry(scope: string, asset: Asset): Entry {
    const key = `${scope} ${asset.key}`;
    let e = this.entries.get(key);
    if (!e) {
      const flows = Object.fromEntries(ROLL_FLOWS.map((f) => [f, ZERO_FLOW()])) as Record<RollFlow, Flow>;
      this.entries.set(key, (e = { scope, asset, flows, balance: { units: 0n, scale: 0 } }));
    }
    return e;
  }

  /**
   * The row's entry. Rows of one wallet and token often share their token object
   * (engine/ledger-rows.ts): its entry is kept for it, checked against the row's chain and wallet.
   */
  private entryOf(tx: LedgerRow): Entry {
    const known = this.byToken.get(tx.token);
    if (known && known.chain === tx.chain && known.walletId === tx.wallet_id) return known.entry;
    this.labels.set(tx.wallet_id, tx.wallet_label);
    const entry = this.entry(this.scope === 'wallet' ? tx.wallet_id : UNIVERSAL, this.assets.assetOf(tx.chain, tx.token));
    this.byToken.set(tx.token, { chain: tx.chain, walletId: tx.wallet_id, entry });
    return entry;
  }
}
