/**
 * The tax ledger: a stream of transactions in time order in, disposal and income lines out
 * (docs/accounting.md has every rule with a worked example). Memory holds the open lots, never
 * the rows.
 *
 * - Zero amounts and approvals move nothing. (Failed transactions reach the ledger as their fee
 *   row only: the importers drop a failed transaction's value rows, and the fee was paid.)
 * - Legs of an own transfer (`transfer` set) are neither acquisition, income nor disposal: the
 *   outflow leg takes lots out of its wallet's book, the inflow leg puts them into its own, with
 *   their acquisition date and cost. What the receiver got less than was sent is disposed of
 *   (a fee paid in the token, at the sent value's share); what it got more opens a lot.
 * - Other inflows open a lot at their fiat value (none without one); one carrying an income-type
 *   tag is income at that value too.
 * - Other outflows (payments, swaps out, fees) dispose of lots in the method's order; what no lot
 *   covers is reported as missing cost basis with its quantity, never at a cost of zero.
 * Books are per wallet (`wallet` scope) or one per asset (`universal`), by the asset table.
 */
import type { BasisScope, CostBasis } from '../core/export-values.js';
import type { Direction, Token } from '../core/types.js';
import type { Asset, AssetTable } from './assets.js';
import { termOf, type Term } from './holding.js';
import { LotBook, lotOf, share } from './lots.js';
import { quantityOf, upscale, type Quantity } from './quantity.js';

export interface TaxOptions {
  method: CostBasis;
  scope: BasisScope;
  assets: AssetTable;
}

/**
 * What the ledger reads of a transaction: the API Transaction's fields of these names, the value
 * as exact cents in the report's currency, and the names of its income-type tags (in the order
 * of its tags). The engine reads just these columns (engine/ledger-rows.ts).
 */
export interface LedgerRow {
  id: string;
  /** `YYYY-MM-DDTHH:MM:SSZ`. */
  timestamp: string;
  wallet_id: string;
  wallet_label: string;
  chain: string;
  /** '' when the read leaves it out: only the tax PDF prints it. */
  tx_hash: string;
  token: Pick<Token, 'symbol' | 'address' | 'decimals'>;
  amount: string;
  direction: Direction;
  type: string;
  transfer: { id: string; counterpart_id: string | null } | null;
  fiat_cents: bigint | null;
  income_tags: readonly string[];
}

/** One disposed lot piece, or the part of a disposal no lot covers (`acquired` null). */
export interface DisposalLine {
  kind: 'disposal';
  /** The row that disposed of it (for a transfer's shortfall, the sending leg). */
  tx: LedgerRow;
  asset: Asset;
  quantity: Quantity;
  acquired: { id: string; at: string } | null;
  /** null when the disposal has no fiat value. */
  proceedsCents: bigint | null;
  /** null when no lot covers the piece. */
  costCents: bigint | null;
  gainCents: bigint | null;
  term: Term | null;
}

export interface IncomeLine {
  kind: 'income';
  tx: LedgerRow;
  asset: Asset;
  quantity: Quantity;
  valueCents: bigint | null;
  /** Names of the row's income-type tags. */
  tags: string[];
}

export type TaxLine = DisposalLine | IncomeLine;

/** What is still held at the end, per book (and what is still in transit between wallets). */
export interface OpenPosition {
  scope: string;
  asset: Asset;
  quantity: Quantity;
  costCents: bigint;
}

interface Book {
  scope: string;
  asset: Asset;
  lots: LotBook;
}

/** An own transfer's sending leg, its lots on the way. */
interface Transit {
  tx: LedgerRow;
  reported: boolean;
  sent: bigint;
  lots: LotBook;
}

const UNIVERSAL = '*';

export class TaxLedger {
  private readonly books = new Map<string, Book>();
  /** Own transfers seen by one leg, by transfer id: the lots sent, or the leg received first. */
  private readonly transits = new Map<string, Transit>();
  private readonly early = new Map<string, LedgerRow>();
  private readonly bookByToken = new WeakMap<LedgerRow['token'], { chain: string; walletId: string; book: Book }>();
  private seq = 0;

  constructor(private readonly opts: TaxOptions) {}

  /** The lines a row produces; a row that is not `reported` still moves lots but yields none. */
  add(tx: LedgerRow, reported: boolean): TaxLine[] {
    const q = quantityOf(tx.amount, tx.token.decimals);
    if (q.units === 0n || tx.type === 'approval') return [];
    const out: TaxLine[] = [];
    if (tx.transfer) {
      this.transferLeg(tx, q, reported, out);
    } else if (tx.direction === 'inflow') {
      this.acquire(tx, q, reported, out);
    } else {
      const book = this.bookOf(tx);
      this.dispose(book, tx, this.quantityIn(book, q), tx.fiat_cents, reported, out);
    }
    return out;
  }

  /** Open lots at the end, per book, then lots still in transit (scope `transit`). */
  open(): OpenPosition[] {
    const positions: OpenPosition[] = [];
    const add = (scope: string, asset: Asset, lots: LotBook) => {
      const r = lots.remaining();
      if (r.quantity > 0n) positions.push({ scope, asset, quantity: { units: r.quantity, scale: lots.scale }, costCents: r.cost });
    };
    for (const b of this.books.values()) add(b.scope, b.asset, b.lots);
    for (const t of this.transits.values()) add('transit', this.opts.assets.assetOf(t.tx.chain, t.tx.token), t.lots);
    return positions;
  }

  private bookOf(tx: LedgerRow): Book {
    // Rows of one wallet and token often share their token object (engine/ledger-rows.ts): its
    // book is kept for it, checked against the row's chain and wallet.
    const known = this.bookByToken.get(tx.token);
    if (known && known.chain === tx.chain && known.walletId === tx.wallet_id) return known.book;
    const book = this.findBook(tx);
    this.bookByToken.set(tx.token, { chain: tx.chain, walletId: tx.wallet_id, book });
    return book;
  }

  private findBook(tx: LedgerRow): Book {
    const asset = this.opts.assets.assetOf(tx.chain, tx.token);
    const scope = this.opts.scope === 'wallet' ? tx.wallet_id : UNIVERSAL;
    const key = `${scope} ${asset.key}`;
    let book = this.books.get(key);
    if (!book) {
      book = { scope, asset, lots: new LotBook(this.opts.method) };
      this.books.set(key, book);
    }
    return book;
  }

  /** A row's quantity at the book's scale (raising the scale when the row has more decimals). */
  private quantityIn(book: Book, q: Quantity): bigint {
    book.lots.rescale(q.scale);
    return upscale(q.units, q.scale, book.lots.scale);
  }

  private acquire(tx: LedgerRow, q: Quantity, reported: boolean, out: TaxLine[]): void {
    const book = this.bookOf(tx);
    const quantity = this.quantityIn(book, q);
    const value = tx.fiat_cents;
    if (value !== null) book.lots.add({ id: tx.id, acquiredAt: tx.timestamp, seq: this.seq++, quantity, cost: value, consumed: 0n });
    if (reported && tx.income_tags.length > 0) {
      out.push({ kind: 'income', tx, asset: book.asset, quantity: { units: quantity, scale: book.lots.scale }, valueCents: value, tags: [...tx.income_tags] });
    }
  }

  /** Takes `quantity` (at the book's scale) for `tx`, whose proceeds for all of it are `proceeds`. */
  private dispose(book: Book, tx: LedgerRow, quantity: bigint, proceeds: bigint | null, reported: boolean, out: TaxLine[]): void {
    const { pieces, missing } = book.lots.take(quantity);
    if (!reported) return;
    const scale = book.lots.scale;
    let done = 0n;
    const proceedsOf = (q: bigint) => {
      const before = done;
      done += q;
      return proceeds === null ? null : share(proceeds, before, done, quantity);
    };
    for (const p of pieces) {
      const got = proceedsOf(p.quantity);
      out.push({
        kind: 'disposal',
        tx,
        asset: book.asset,
        quantity: { units: p.quantity, scale },
        acquired: { id: p.id, at: p.acquiredAt },
        proceedsCents: got,
        costCents: p.cost,
        gainCents: got === null ? null : got - p.cost,
        term: termOf(p.acquiredAt, tx.timestamp),
      });
    }
    if (missing > 0n) {
      out.push({
        kind: 'disposal',
        tx,
        asset: book.asset,
        quantity: { units: missing, scale },
        acquired: null,
        proceedsCents: proceedsOf(missing),
        costCents: null,
        gainCents: null,
        term: null,
      });
    }
  }

  private transferLeg(tx: LedgerRow, q: Quantity, reported: boolean, out: TaxLine[]): void {
    const id = tx.transfer!.id;
    if (tx.direction === 'outflow') {
      const book = this.bookOf(tx);
      const sent = this.quantityIn(book, q);
      const lots = new LotBook(this.opts.method, book.lots.scale);
      // Taken now: while on the way the lots are in no wallet. What no lot covers travels uncovered.
      for (const p of book.lots.take(sent).pieces) lots.add(lotOf(p));
      const transit: Transit = { tx, reported, sent, lots };
      const received = this.early.get(id);
      if (received) {
        this.early.delete(id);
        this.arrive(transit, received, out);
      } else {
        this.transits.set(id, transit);
      }
      return;
    }
    const transit = this.transits.get(id);
    if (transit) {
      this.transits.delete(id);
      this.arrive(transit, tx, out);
    } else if (tx.transfer!.counterpart_id !== null) {
      // The receiving leg came first (clocks of two chains): it waits for the lots.
      this.early.set(id, tx);
    }
  }

  /** The lots of `transit` reach the receiving leg's book; a shortfall is disposed of first, an excess opens a lot. */
  private arrive(transit: Transit, inTx: LedgerRow, out: TaxLine[]): void {
    const book = this.bookOf(inTx);
    const q = quantityOf(inTx.amount, inTx.token.decimals);
    const scale = Math.max(book.lots.scale, transit.lots.scale, q.scale);
    book.lots.rescale(scale);
    const sent = upscale(transit.sent, transit.lots.scale, scale);
    transit.lots.rescale(scale);
    const received = upscale(q.units, q.scale, scale);
    if (received < sent) {
      const shortfall = sent - received;
      const proceeds = transit.tx.fiat_cents;
      const from: Book = { scope: book.scope, asset: this.opts.assets.assetOf(transit.tx.chain, transit.tx.token), lots: transit.lots };
      this.dispose(from, transit.tx, shortfall, proceeds === null ? null : share(proceeds, 0n, shortfall, sent), transit.reported, out);
    }
    for (const p of transit.lots.take(received).pieces) book.lots.add(lotOf(p));
    const value = inTx.fiat_cents;
    if (received > sent && value !== null) {
      book.lots.add({
        id: inTx.id,
        acquiredAt: inTx.timestamp,
        seq: this.seq++,
        quantity: received - sent,
        cost: share(value, 0n, received - sent, received),
        consumed: 0n,
      });
    }
  }
}

/** The lines of a whole stream, as they come. */
export function* taxLines(rows: Iterable<{ tx: LedgerRow; reported: boolean }>, opts: TaxOptions): Generator<TaxLine> {
  const ledger = new TaxLedger(opts);
  for (const { tx, reported } of rows) yield* ledger.add(tx, reported);
}
