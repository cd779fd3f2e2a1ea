/**
 * The open lots of a TaxLedger, lot by lot, and one book's remaining totals: what `positions`
 * and `rollforward` need beyond the ledger's `open()` (per-book totals only).
 *
 * The ledger keeps its books private; until it offers these itself, this module is the one place
 * that reads them (its `books` map of `{scope, asset, lots: LotBook}` keyed `scope asset-key`,
 * and its `transits`). A ledger without them fails loudly here rather than giving a wrong report.
 */
import type { Asset } from './assets.js';
import { share, type LotBook } from './lots.js';
import type { Quantity } from './quantity.js';
import type { TaxLedger } from './tax-ledger.js';

export interface OpenLot {
  /** The book: a wallet id, `*` (the universal pool) or `transit` (an own transfer on its way). */
  scope: string;
  asset: Asset;
  /** The acquiring transaction's id (the lot's name). */
  id: string;
  acquiredAt: string;
  quantity: Quantity;
  /** The cost of what is left of the lot. */
  costCents: bigint;
}

interface Book {
  scope: string;
  asset: Asset;
  lots: LotBook;
}

interface Internals {
  books: Map<string, Book>;
  transits: Map<string, { lots: LotBook; tx: { chain: string; token: never } }>;
  opts: { assets: { assetOf(chain: string, token: never): Asset } };
}

function internals(ledger: TaxLedger): Internals {
  const i = ledger as unknown as Partial<Internals>;
  if (!(i.books instanceof Map) || !(i.transits instanceof Map) || !i.opts) {
    throw new Error('the tax ledger no longer keeps its books as src/accounting/open-lots.ts reads them');
  }
  return i as Internals;
}

function lotsOf(scope: string, asset: Asset, book: LotBook, out: OpenLot[]): void {
  for (const lot of book.open()) {
    const left = lot.quantity - lot.consumed;
    if (left <= 0n) continue;
    out.push({
      scope,
      asset,
      id: lot.id,
      acquiredAt: lot.acquiredAt,
      quantity: { units: left, scale: book.scale },
      costCents: lot.cost - share(lot.cost, 0n, lot.consumed, lot.quantity),
    });
  }
}

/** One book's open lots, read when asked (a book at a time keeps memory to one book's lots). */
export interface OpenBook {
  scope: string;
  asset: Asset;
  /** Oldest acquisition first. */
  lots(): OpenLot[];
}

const byAcquisition = (x: OpenLot, y: OpenLot) => (x.acquiredAt < y.acquiredAt ? -1 : x.acquiredAt > y.acquiredAt ? 1 : x.id < y.id ? -1 : x.id > y.id ? 1 : 0);

/** The books (a used-up one gives no lots), then the lots in transit (scope `transit`). */
export function openBooks(ledger: TaxLedger): OpenBook[] {
  const i = internals(ledger);
  const books: OpenBook[] = [];
  const add = (scope: string, asset: Asset, lots: LotBook) => {
    books.push({
      scope,
      asset,
      lots: () => {
        const out: OpenLot[] = [];
        lotsOf(scope, asset, lots, out);
        return out.sort(byAcquisition);
      },
    });
  };
  for (const b of i.books.values()) add(b.scope, b.asset, b.lots);
  for (const t of i.transits.values()) add('transit', i.opts.assets.assetOf(t.tx.chain, t.tx.token), t.lots);
  return books;
}

/** Every open lot, by book, oldest acquisition first within a book. */
export function openLots(ledger: TaxLedger): OpenLot[] {
  return openBooks(ledger).flatMap((b) => b.lots());
}

/** What one book holds now (quantity at its scale, cost left); zero when it has no book yet. */
export function bookTotals(ledger: TaxLedger, scope: string, assetKey: string): { quantity: Quantity; costCents: bigint } {
  const book = internals(ledger).books.get(`${scope} ${assetKey}`);
  if (!book) return { quantity: { units: 0n, scale: 0 }, costCents: 0n };
  const r = book.lots.remaining();
  return { quantity: { units: r.quantity, scale: book.lots.scale }, costCents: r.cost };
}
