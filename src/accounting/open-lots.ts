/**
 * The open lots of a TaxLedger grouped by book (a wallet, `*` for the pool, `transit`) and asset,
 * oldest acquisition first in each: what `positions` lists. Read from the ledger's public
 * `openLots()` (so after its `end()`).
 */
import type { Asset } from './assets.js';
import type { OpenLot, TaxLedger } from './tax-ledger.js';

export type { OpenLot } from './tax-ledger.js';

export interface OpenBook {
  scope: string;
  asset: Asset;
  /** Oldest acquisition first (then by lot id). */
  lots: OpenLot[];
}

const byAcquisition = (x: OpenLot, y: OpenLot) =>
  x.acquiredAt < y.acquiredAt ? -1 : x.acquiredAt > y.acquiredAt ? 1 : x.lotId < y.lotId ? -1 : x.lotId > y.lotId ? 1 : 0;

/** The ledger's open lots by book and asset (a used-up book has none and is left out). */
export function openBooks(ledger: TaxLedger): OpenBook[] {
  const books = new Map<string, OpenBook>();
  for (const lot of ledger.openLots()) {
    const key = `${lot.scope} ${lot.asset.key}`;
    let b = books.get(key);
    if (!b) books.set(key, (b = { scope: lot.scope, asset: lot.asset, lots: [] }));
    b.lots.push(lot);
  }
  for (const b of books.values()) b.lots.sort(byAcquisition);
  return [...books.values()];
}
