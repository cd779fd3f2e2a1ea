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
  /** chain → token address (null for a native coin) → symbol → the token's asset and its asset's book. */
  private readonly byToken = new Map<string, Map<string | null, Map<string, { asset: Asset; book: B }>>>();

  constructor(
    private readonly assets: AssetTable,
    private readonly open: () => B,
  ) {}

  /** The book `tx` moves; null for an own transfer (its units stay in the one pool), an approval or a zero amount. */
  move(tx: LedgerRow): PoolMove<B> | null {
    if (tx.transfer || tx.type === 'approval') return null;
    const q = quantityOf(tx.amount, tx.token.decimals);
    if (q.units === 0n) return null;
    const { asset, book } = this.tokenOf(tx.chain, tx.token);
    return { asset, book, q, day: tx.timestamp.slice(0, 10) };
  }

  /**
   * A chain's token's asset (the table's answer for this token) and its asset's book: looked up by
   * the token's own fields, the asset table asked once per token, not once per row.
   */
  private tokenOf(chain: string, token: LedgerRow['token']): { asset: Asset; book: B } {
    let byAddress = this.byToken.get(chain);
    if (!byAddress) this.byToken.set(chain, (byAddress = new Map()));
    let bySymbol = byAddress.get(token.address);
    if (!bySymbol) byAddress.set(token.address, (bySymbol = new Map()));
    let found = bySymbol.get(token.symbol);
    if (!found) {
      const asset = this.assets.assetOf(chain, token);
      let entry = this.byKey.get(asset.key);
      if (!entry) {
        entry = { asset, book: this.open() };
        this.byKey.set(asset.key, entry);
      }
      found = { asset, book: entry.book };
      bySymbol.set(token.symbol, found);
    }
    return found;
  }

  /** Every asset's book, in the order first moved. */
  values(): IterableIterator<{ asset: Asset; book: B }> {
    return this.byKey.values();
  }
}
