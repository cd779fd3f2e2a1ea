/**
 * The per-asset books of a pooled jurisdiction (`uk`, `ca`: every wallet in one pool per asset,
 * docs/jurisdictions.md): the book a row moves, with its quantity and day.
 */
import type { Asset, AssetTable } from '../assets.js';
import type { LedgerRow } from '../ledger-row.js';
import { type Quantity, quantityOf } from '../quantity.js';

export interface PoolMove<B> {
  asset: Asset;
  book: B;
  q: Quantity;
  day: string;
}

export class PoolBooks<B> {
  private readonly byKey = new Map<string, { asset: Asset; book: B }>();

  constructor(
    private readonly assets: AssetTable,
    private readonly open: () => B,
  ) {}

  /** The book `tx` moves; null for an own transfer (its units stay in the one pool), an approval or a zero amount. */
  move(tx: LedgerRow): PoolMove<B> | null {
    if (tx.transfer || tx.type === 'approval') return null;
    const q = quantityOf(tx.amount, tx.token.decimals);
    if (q.units === 0n) return null;
    const asset = this.assets.assetOf(tx.chain, tx.token);
    let entry = this.byKey.get(asset.key);
    if (!entry) {
      entry = { asset, book: this.open() };
      this.byKey.set(asset.key, entry);
    }
    return { asset, book: entry.book, q, day: tx.timestamp.slice(0, 10) };
  }

  /** Every asset's book, in the order first moved. */
  values(): IterableIterator<{ asset: Asset; book: B }> {
    return this.byKey.values();
  }
}
