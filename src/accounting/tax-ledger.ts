/**
 * The tax ledger: a stream of transactions in time order in, disposal and income lines out
 * (docs/accounting.md has every rule with a worked example). Memory holds the open lots and the
 * rows of one second, never the whole stream.
 *
 * - The rows of one timestamp are taken together, in the order of order.ts, so the result never
 *   depends on row ids; `add` answers the lines of the seconds it completed, `end` the last's.
 * - Zero amounts and approvals move nothing. (Failed transactions reach the ledger as their fee
 *   row only: the importers drop a failed transaction's value rows, and the fee was paid.)
 * - An own transfer (`transfer` set) is neither acquisition, income nor disposal, and takes effect
 *   whole at its first leg: in a pool it changes nothing; between two books (per wallet) the lots
 *   leave one and enter the other at once, with their acquisition date and cost. What the receiver
 *   got less than was sent is disposed of (at the sent value's share); what it got more opens a
 *   lot. The other leg then does nothing.
 * - Other inflows open a lot at their fiat value (none without one); one carrying an income-type
 *   tag is income at that value too.
 * - Other outflows (payments, swaps out, fees) dispose of lots in the method's order (`specific`:
 *   the picked lots, then FIFO); what no lot covers is reported as missing cost basis with its
 *   quantity, never at a cost of zero.
 * - Fees (`adjust`): a fee row of a transaction that acquires or disposes of something in the same
 *   wallet adds its value to the acquired lots' cost, else takes it from the disposals' proceeds.
 * Books are per wallet (`wallet` scope) or one per asset (`universal`), by the asset table; with
 * no scope given, pooled before TRANSITION_AT and per wallet from then on, the pool split between
 * the wallets at that moment by an allocation (allocation.ts).
 */
import type { BasisScope, CostBasis, FeeTreatment } from '../core/export-values.js';
import { normalizeDecimal, scaleOf, toBaseUnits, fromBaseUnits } from '../core/money.js';
import { allocate, type AllocatedLot, type AllocationOrder, type PoolLot, type WalletBalance } from './allocate.js';
import type { Asset, AssetTable } from './assets.js';
import { termOf, type Term } from './holding.js';
import { LotBook, lotOf, share, type Piece } from './lots.js';
import type { LedgerRow, TransferCounterpart } from './ledger-row.js';
import { secondOrder, sortSecond } from './order.js';
import { quantityOf, upscale, type Quantity } from './quantity.js';

/** US lots per wallet from this moment (Rev. Proc. 2024-28): the pool is allocated then. */
export const TRANSITION_AT = '2025-01-01T00:00:00Z';

export type { FeeTreatment };
export type { LedgerRow, TransferCounterpart } from './ledger-row.js';

/** One lot a disposal names (specific identification): all it holds when `quantity` is null. */
export interface LotPick {
  lotId: string;
  quantity: string | null;
  /** When the pick was recorded (ISO time): after the disposal's time, it is noted. */
  recordedAt: string;
}

export interface TaxOptions {
  method: CostBasis;
  /** Forced for every year; absent: pooled before TRANSITION_AT, per wallet from then. */
  scope?: BasisScope;
  assets: AssetTable;
  /** Default `adjust`. */
  feeTreatment?: FeeTreatment;
  /** Wallet ids in the order they were added to the workspace (the allocation's order, order.ts's tie-break). */
  walletOrder?: readonly string[];
  /** Picks by disposing transaction id (`specific`). */
  picks?: ReadonlyMap<string, readonly LotPick[]>;
  /** The transition's allocation: the recorded one, else the `order`'s (default `fifo`) computed then. */
  allocation?: { recorded?: readonly AllocatedLot[] | null; order?: AllocationOrder };
  /** The transition's moment (default TRANSITION_AT). */
  transitionAt?: string;
  /** Told of every change of a book's lots that is not a disposal (the roll-forward counts them). */
  onLots?: (change: LotChange) => void;
}

/**
 * A change of one book's lots besides a disposal: a lot opened by an inflow (`acquired`, or
 * `income` when tagged), or lots moved in or out by an own transfer (into `transit` for a sent
 * leg alone; a transfer's excess opens a lot, told as `transfer_in`) or by the pool's split at the
 * transition (`tx` null). What a transfer's shortfall takes is a disposal line, not a change.
 */
export interface LotChange {
  kind: 'acquired' | 'income' | 'transfer_in' | 'transfer_out';
  /** The book: a wallet id, `*` for the pool, `transit`. */
  scope: string;
  asset: Asset;
  quantity: Quantity;
  costCents: bigint;
  tx: LedgerRow | null;
}

/** Notes a disposal line may carry besides the report's own (`missing cost basis`, `no fiat value`). */
export type LineNote = 'not identified' | 'identified after the sale';

/** One disposed lot piece, or the part of a disposal no lot covers (`acquired` null). */
export interface DisposalLine {
  kind: 'disposal';
  /** The row that disposed of it (for a transfer's shortfall, the sending leg). */
  tx: LedgerRow;
  asset: Asset;
  quantity: Quantity;
  /** The lot: its id is the acquiring transaction's id. */
  acquired: { id: string; at: string } | null;
  /** null when the disposal has no fiat value. Net of `feeCents`. */
  proceedsCents: bigint | null;
  /** null when no lot covers the piece. */
  costCents: bigint | null;
  gainCents: bigint | null;
  term: Term | null;
  /** The line's share of a fee taken from the proceeds (fee treatment `adjust`), else absent. */
  feeCents?: bigint;
  /** Specific identification's note, else absent. */
  note?: LineNote;
  /** The scope whose lots it took: the wallet id, or null for the pool. */
  walletId: string | null;
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

/** What is still held, per book: a wallet id, `*` for the pool, `transit` for one-leg transfers' lots. */
export interface OpenPosition {
  scope: string;
  /** The wallet, null for the pool and transit. */
  walletId: string | null;
  asset: Asset;
  quantity: Quantity;
  costCents: bigint;
}

/** One open lot (or what is left of it) in a book. */
export interface OpenLot {
  walletId: string | null;
  scope: string;
  asset: Asset;
  lotId: string;
  acquiredAt: string;
  quantity: Quantity;
  costCents: bigint;
}

/** How the ledger split the pool at the transition, when it did. */
export interface Transition {
  at: string;
  /** `recorded`: the allocation given; `computed`: the `fifo` (or given order's) allocation made then. */
  source: 'recorded' | 'computed';
  lots: AllocatedLot[];
}

interface Book {
  scope: string;
  asset: Asset;
  lots: LotBook;
  /** While pooled: each wallet's balance of the asset (the sum of its rows), at the book's scale. */
  balances: Map<string, bigint> | null;
}

const UNIVERSAL = '*';
const TRANSIT = 'transit';

/** Per row of a second: a fee's share added to the lot it opens, or taken from its proceeds. */
interface FeeShares {
  cost: Map<LedgerRow, bigint>;
  proceeds: Map<LedgerRow, bigint>;
}

export class TaxLedger {
  private readonly books = new Map<string, Book>();
  private bookByToken = new WeakMap<LedgerRow['token'], { chain: string; walletId: string; book: Book }>();
  /** Own transfers already done at their first leg. */
  private readonly moved = new Set<string>();
  private seq = 0;
  /** The rows of the current second. */
  private group: { tx: LedgerRow; reported: boolean; quantity: Quantity | undefined }[] = [];
  private pooledNow: boolean;
  private readonly walletRank: (walletId: string) => number;
  private readonly plainOrder: (a: LedgerRow, b: LedgerRow) => number;
  /** Set when the pool was split between the wallets. */
  transition: Transition | null = null;

  constructor(private readonly opts: TaxOptions) {
    this.pooledNow = opts.scope !== 'wallet';
    const rank = new Map((opts.walletOrder ?? []).map((id, i) => [id, i]));
    this.walletRank = (id) => rank.get(id) ?? rank.size;
    this.plainOrder = secondOrder(this.walletRank);
  }

  /**
   * Takes a row (in time order); answers the lines of the seconds before it, now complete. A row
   * not `reported` yields no line. `quantity`: the row's amount as quantityOf reads it, when the
   * caller read it already (the roll-forward sums every row's), so it is not read twice.
   */
  add(tx: LedgerRow, reported: boolean, quantity?: Quantity): TaxLine[] {
    const g = this.group;
    if (g.length > 0 && g[0]!.tx.timestamp !== tx.timestamp) {
      const out = this.flush();
      this.group.push({ tx, reported, quantity });
      return out;
    }
    g.push({ tx, reported, quantity });
    return [];
  }

  /**
   * The lines of the last second. It may also be called between seconds (a roll-forward's
   * opening): the rows added after it go on as if it had not been called, `until` then being the
   * next row's moment or earlier. `until`, the moment the open lots are wanted at (a positions
   * report's date), splits the pool by year when it reaches the transition and no row did.
   */
  end(until?: string): TaxLine[] {
    const out = this.flush();
    if (until !== undefined && this.byYear() && until >= (this.opts.transitionAt ?? TRANSITION_AT)) this.splitPool();
    return out;
  }

  /** Still pooled, with the scope following the year. */
  private byYear(): boolean {
    return this.pooledNow && this.opts.scope === undefined;
  }

  /** Open lots at the end, per book (call `end` first). */
  open(): OpenPosition[] {
    this.settled();
    const positions: OpenPosition[] = [];
    for (const b of this.books.values()) {
      const r = b.lots.remaining();
      if (r.quantity > 0n) {
        positions.push({
          scope: b.scope,
          walletId: walletOf(b.scope),
          asset: b.asset,
          quantity: { units: r.quantity, scale: b.lots.scale },
          costCents: r.cost,
        });
      }
    }
    return positions;
  }

  /** Every open lot (call `end` first), book by book, each in its method's order. */
  openLots(): OpenLot[] {
    this.settled();
    const out: OpenLot[] = [];
    for (const b of this.books.values()) {
      for (const lot of b.lots.open()) {
        const left = lot.quantity - lot.consumed;
        if (left === 0n) continue;
        out.push({
          walletId: walletOf(b.scope),
          scope: b.scope,
          asset: b.asset,
          lotId: lot.id,
          acquiredAt: lot.acquiredAt,
          quantity: { units: left, scale: b.lots.scale },
          costCents: lot.cost - share(lot.cost, 0n, lot.consumed, lot.quantity),
        });
      }
    }
    return out;
  }

  /** The pool's open lots and each wallet's balances, while pooled (the allocation's input). */
  pooled(): { pool: PoolLot[]; balances: WalletBalance[] } {
    const pool: PoolLot[] = [];
    const balances: WalletBalance[] = [];
    for (const b of this.books.values()) {
      if (b.scope !== UNIVERSAL) continue;
      const scale = b.lots.scale;
      for (const lot of b.lots.open()) {
        const left = lot.quantity - lot.consumed;
        if (left === 0n) continue;
        pool.push({
          assetKey: b.asset.key,
          assetSymbol: b.asset.symbol,
          lotId: lot.id,
          quantity: fromBaseUnits(left, scale),
          acquiredAt: lot.acquiredAt,
          costCents: lot.cost - share(lot.cost, 0n, lot.consumed, lot.quantity),
          seq: lot.seq,
        });
      }
      for (const [walletId, units] of b.balances ?? []) {
        balances.push({ walletId, assetKey: b.asset.key, assetSymbol: b.asset.symbol, quantity: signed(units, scale) });
      }
    }
    return { pool, balances };
  }

  private settled(): void {
    if (this.group.length > 0) throw new Error('TaxLedger: call end() before reading the open lots');
  }

  /** The current second's rows, in order, with the transition first when the second reaches it. */
  private flush(): TaxLine[] {
    const g = this.group;
    if (g.length === 0) return [];
    const out: TaxLine[] = [];
    if (this.byYear() && g[0]!.tx.timestamp >= (this.opts.transitionAt ?? TRANSITION_AT)) this.splitPool();
    if (g.length === 1) {
      this.take(g[0]!.tx, g[0]!.reported, g[0]!.quantity, null, out);
    } else {
      sortSecond(g, this.walletRank, this.plainOrder);
      const fees = this.opts.feeTreatment === 'separate' || !g.some((r) => r.tx.type === 'fee') ? null : feeShares(g.map((r) => r.tx));
      for (const { tx, reported, quantity } of g) this.take(tx, reported, quantity, fees, out);
    }
    // The array is kept for the next second (one row a second is the common case).
    g.length = 0;
    return out;
  }

  private take(tx: LedgerRow, reported: boolean, quantity: Quantity | undefined, fees: FeeShares | null, out: TaxLine[]): void {
    const q = quantity ?? quantityOf(tx.amount, tx.token.decimals);
    if (q.units === 0n || tx.type === 'approval') return;
    if (tx.transfer) {
      this.transferLeg(tx, q, reported, out);
      return;
    }
    const book = this.bookOf(tx);
    const units = this.quantityIn(book, q);
    if (book.balances) addBalance(book, tx.wallet_id, tx.direction === 'inflow' ? units : -units);
    if (tx.direction === 'inflow') {
      this.acquire(book, tx, units, fees?.cost.get(tx) ?? 0n, reported, out);
    } else {
      const fee = fees?.proceeds.get(tx);
      const proceeds = tx.fiat_cents === null ? null : tx.fiat_cents - (fee ?? 0n);
      this.dispose(book, tx, units, proceeds, fee ?? null, reported, out);
    }
  }

  private bookOf(tx: Pick<LedgerRow, 'chain' | 'token' | 'wallet_id'>): Book {
    // Rows of one wallet and token often share their token object (engine/ledger-rows.ts): its
    // book is kept for it, checked against the row's chain and wallet.
    const known = this.bookByToken.get(tx.token);
    if (known && known.chain === tx.chain && known.walletId === tx.wallet_id) return known.book;
    const book = this.findBook(tx.wallet_id, this.opts.assets.assetOf(tx.chain, tx.token));
    this.bookByToken.set(tx.token, { chain: tx.chain, walletId: tx.wallet_id, book });
    return book;
  }

  private findBook(walletId: string, asset: Asset): Book {
    const scope = this.pooledNow ? UNIVERSAL : walletId;
    const key = `${scope} ${asset.key}`;
    let book = this.books.get(key);
    if (!book) {
      // While pooled, each wallet's balance is kept for a transition (allocationAt's too).
      const balances = this.pooledNow ? new Map<string, bigint>() : null;
      book = { scope, asset, lots: new LotBook(this.opts.method), balances };
      this.books.set(key, book);
    }
    return book;
  }

  /** Raises a book's scale (lots and balances) to at least `scale`. */
  private fit(book: Book, scale: number): void {
    const from = book.lots.scale;
    if (scale <= from) return;
    book.lots.rescale(scale);
    if (book.balances) for (const [w, units] of book.balances) book.balances.set(w, upscale(units, from, scale));
  }

  /** A row's quantity at the book's scale (raising the scale when the row has more decimals). */
  private quantityIn(book: Book, q: Quantity): bigint {
    this.fit(book, q.scale);
    return upscale(q.units, q.scale, book.lots.scale);
  }

  private acquire(book: Book, tx: LedgerRow, quantity: bigint, fee: bigint, reported: boolean, out: TaxLine[]): void {
    const value = tx.fiat_cents;
    if (value !== null) {
      book.lots.add({ id: tx.id, acquiredAt: tx.timestamp, seq: this.seq++, quantity, cost: value + fee, consumed: 0n });
      this.changed(tx.income_tags.length > 0 ? 'income' : 'acquired', book, tx, quantity, value + fee);
    }
    if (reported && tx.income_tags.length > 0) {
      out.push({ kind: 'income', tx, asset: book.asset, quantity: { units: quantity, scale: book.lots.scale }, valueCents: value, tags: [...tx.income_tags] });
    }
  }

  private changed(kind: LotChange['kind'], book: Book, tx: LedgerRow | null, units: bigint, cost: bigint): void {
    if (this.opts.onLots && units > 0n)
      this.opts.onLots({ kind, scope: book.scope, asset: book.asset, quantity: { units, scale: book.lots.scale }, costCents: cost, tx });
  }

  /** The pieces a disposal takes (at the book's scale): `specific` the picked lots first (noted), the rest in the method's order. */
  private pieces(
    book: Book,
    tx: LedgerRow,
    quantity: bigint,
    picks: readonly LotPick[],
  ): { pieces: Piece[]; notes?: (LineNote | undefined)[]; missing: bigint } {
    // Without picks, the method's order alone: no notes (no array of them made per disposal).
    if (this.opts.method !== 'specific') return book.lots.take(quantity);
    const taken: Piece[] = [];
    const notes: (LineNote | undefined)[] = [];
    let left = quantity;
    for (const pick of picks) {
      if (left === 0n) break;
      let want = left;
      if (pick.quantity !== null) {
        const units = toBaseUnits(normalizeDecimal(pick.quantity) ?? '0', book.lots.scale);
        if (units < want) want = units;
      }
      const late = Date.parse(pick.recordedAt) > Date.parse(tx.timestamp);
      for (const piece of book.lots.takeLot(pick.lotId, want)) {
        left -= piece.quantity;
        taken.push(piece);
        notes.push(late ? 'identified after the sale' : undefined);
      }
    }
    const { pieces, missing } = book.lots.take(left);
    for (const piece of pieces) {
      taken.push(piece);
      notes.push('not identified');
    }
    return { pieces: taken, notes, missing };
  }

  /** Takes `quantity` (at the book's scale) for `tx`, whose proceeds for all of it are `proceeds` (`fee` already taken from them). */
  private dispose(book: Book, tx: LedgerRow, quantity: bigint, proceeds: bigint | null, fee: bigint | null, reported: boolean, out: TaxLine[]): void {
    const picks = this.opts.method === 'specific' ? (this.opts.picks?.get(tx.id) ?? []) : [];
    // A pick's quantity of more decimals than the book's raises its scale first.
    const from = book.lots.scale;
    for (const pick of picks) if (pick.quantity !== null) this.fit(book, scaleOf(normalizeDecimal(pick.quantity) ?? '0'));
    const scale = book.lots.scale;
    const whole = upscale(quantity, from, scale);
    const { pieces, notes, missing } = this.pieces(book, tx, whole, picks);
    if (!reported) return;
    let done = 0n;
    const walletId = walletOf(book.scope);
    const line = (q: bigint, acquired: Piece | null): DisposalLine => {
      const before = done;
      done += q;
      const got = proceeds === null ? null : share(proceeds, before, done, whole);
      const cost = acquired ? acquired.cost : null;
      const l: DisposalLine = {
        kind: 'disposal',
        tx,
        asset: book.asset,
        quantity: { units: q, scale },
        acquired: acquired && { id: acquired.id, at: acquired.acquiredAt },
        proceedsCents: got,
        costCents: cost,
        gainCents: got === null || cost === null ? null : got - cost,
        term: acquired && termOf(acquired.acquiredAt, tx.timestamp),
        walletId,
      };
      if (fee !== null) l.feeCents = share(fee, before, done, whole);
      return l;
    };
    for (let i = 0; i < pieces.length; i++) {
      const l = line(pieces[i]!.quantity, pieces[i]!);
      const note = notes?.[i];
      if (note) l.note = note;
      out.push(l);
    }
    if (missing > 0n) out.push(line(missing, null));
  }

  /** An own transfer's leg: the whole movement at the first leg; the second does nothing. */
  private transferLeg(tx: LedgerRow, q: Quantity, reported: boolean, out: TaxLine[]): void {
    const transfer = tx.transfer!;
    if (this.moved.delete(transfer.id)) return;
    const other = transfer.counterpart ? counterpartRow(tx, transfer.counterpart) : null;
    if (!other) {
      this.oneLeg(tx, q);
      return;
    }
    this.moved.add(transfer.id);
    const [sending, receiving] = tx.direction === 'outflow' ? [tx, other] : [other, tx];
    this.move(sending, receiving, reported, out);
  }

  /** A leg whose other leg is not in the ledger: in a pool nothing moves; per wallet a sent leg's lots are set aside (in transit, never sold). */
  private oneLeg(tx: LedgerRow, q: Quantity): void {
    const book = this.bookOf(tx);
    const units = this.quantityIn(book, q);
    if (book.balances) addBalance(book, tx.wallet_id, tx.direction === 'inflow' ? units : -units);
    if (tx.direction === 'inflow' || book.scope === UNIVERSAL) return;
    const key = `${TRANSIT} ${book.asset.key}`;
    let aside = this.books.get(key);
    if (!aside) this.books.set(key, (aside = { scope: TRANSIT, asset: book.asset, lots: new LotBook(this.opts.method, book.lots.scale), balances: null }));
    const from = book.lots.scale;
    this.fit(book, aside.lots.scale);
    this.fit(aside, book.lots.scale);
    let moved = 0n;
    let cost = 0n;
    for (const p of book.lots.take(upscale(units, from, book.lots.scale)).pieces) {
      aside.lots.add(lotOf(p));
      moved += p.quantity;
      cost += p.cost;
    }
    this.changed('transfer_out', book, tx, moved, cost);
    this.changed('transfer_in', aside, tx, moved, cost);
  }

  /** Moves `sending`'s quantity to `receiving`'s book at once: a shortfall is disposed of, an excess opens a lot. */
  private move(sending: LedgerRow, receiving: LedgerRow, reported: boolean, out: TaxLine[]): void {
    const from = this.bookOf(sending);
    const to = this.bookOf(receiving);
    const qs = quantityOf(sending.amount, sending.token.decimals);
    const qr = quantityOf(receiving.amount, receiving.token.decimals);
    const scale = Math.max(from.lots.scale, to.lots.scale, qs.scale, qr.scale);
    this.fit(from, scale);
    this.fit(to, scale);
    const sent = upscale(qs.units, qs.scale, scale);
    const received = upscale(qr.units, qr.scale, scale);
    if (from.balances) addBalance(from, sending.wallet_id, -sent);
    if (to.balances) addBalance(to, receiving.wallet_id, received);
    const shortfall = received < sent ? sent - received : 0n;
    const proceeds = shortfall > 0n && sending.fiat_cents !== null ? share(sending.fiat_cents, 0n, shortfall, sent) : null;
    if (from === to) {
      // One pool: nothing moves; a shortfall is a disposal from it, an excess a new lot in it.
      if (shortfall > 0n) this.dispose(from, sending, shortfall, proceeds, null, reported, out);
    } else {
      // Two books: the lots sent leave at once (in the method's order), the shortfall takes from them, the rest arrive.
      const carried: Book = { scope: from.scope, asset: from.asset, lots: new LotBook(this.opts.method, scale), balances: null };
      for (const p of from.lots.take(sent).pieces) carried.lots.add(lotOf(p));
      if (shortfall > 0n) this.dispose(carried, sending, shortfall, proceeds, null, reported, out);
      let q = 0n;
      let cost = 0n;
      for (const p of carried.lots.take(received).pieces) {
        to.lots.add(lotOf(p));
        q += p.quantity;
        cost += p.cost;
      }
      this.changed('transfer_out', from, sending, q, cost);
      this.changed('transfer_in', to, receiving, q, cost);
    }
    const value = receiving.fiat_cents;
    if (received > sent && value !== null) {
      const cost = share(value, 0n, received - sent, received);
      to.lots.add({ id: receiving.id, acquiredAt: receiving.timestamp, seq: this.seq++, quantity: received - sent, cost, consumed: 0n });
      this.changed('transfer_in', to, receiving, received - sent, cost);
    }
  }

  /** The transition: the pool's lots go to the wallets by the allocation, and books are per wallet from now on. */
  private splitPool(): void {
    const { pool, balances } = this.pooled();
    const recorded = this.opts.allocation?.recorded ?? null;
    const lots = recorded ? [...recorded] : allocate(pool, balances, [...(this.opts.walletOrder ?? [])], this.opts.allocation?.order ?? 'fifo');
    this.transition = { at: this.opts.transitionAt ?? TRANSITION_AT, source: recorded ? 'recorded' : 'computed', lots };
    const seqOf = new Map(pool.map((l) => [l.lotId, l.seq!]));
    const scales = new Map<string, number>();
    for (const b of this.books.values()) {
      scales.set(b.asset.key, b.lots.scale);
      const r = b.lots.remaining();
      this.changed('transfer_out', b, null, r.quantity, r.cost);
    }
    this.books.clear();
    this.bookByToken = new WeakMap();
    this.pooledNow = false;
    for (const a of lots) {
      if (a.lotId === '' || a.costCents === null) continue;
      const book = this.findBook(a.walletId, { key: a.assetKey, symbol: a.assetSymbol });
      const canonical = normalizeDecimal(a.quantity) ?? '0';
      this.fit(book, Math.max(scales.get(a.assetKey) ?? 0, scaleOf(canonical)));
      const quantity = toBaseUnits(canonical, book.lots.scale);
      if (quantity <= 0n) continue;
      book.lots.add({ id: a.lotId, acquiredAt: a.acquiredAt, seq: seqOf.get(a.lotId) ?? this.seq++, quantity, cost: a.costCents, consumed: 0n });
      this.changed('transfer_in', book, null, quantity, a.costCents);
    }
  }
}

function walletOf(scope: string): string | null {
  return scope === UNIVERSAL || scope === TRANSIT ? null : scope;
}

function addBalance(book: Book, walletId: string, units: bigint): void {
  book.balances!.set(walletId, (book.balances!.get(walletId) ?? 0n) + units);
}

function signed(units: bigint, scale: number): string {
  return units < 0n ? `-${fromBaseUnits(-units, scale)}` : fromBaseUnits(units, scale);
}

/** The other leg of an own transfer as a row (for its book, and as the shortfall's disposing row). */
function counterpartRow(tx: LedgerRow, c: TransferCounterpart): LedgerRow {
  return {
    id: c.id,
    timestamp: c.timestamp,
    wallet_id: c.wallet_id,
    wallet_label: c.wallet_label,
    chain: c.chain,
    tx_hash: c.tx_hash,
    token: c.token,
    amount: c.amount,
    direction: tx.direction === 'outflow' ? 'inflow' : 'outflow',
    type: tx.type,
    transfer: { id: tx.transfer!.id, counterpart_id: tx.id },
    fiat_cents: c.fiat_cents,
    income_tags: [],
  };
}

/** An amount of no units: zeros, a point, a sign. */
const ZERO_AMOUNT = /^[-+0.]*$/;

/**
 * Fee treatment `adjust` over the rows of one second (docs/accounting.md "Fees"): each fee row
 * (type `fee`, not an own-transfer leg, with a value and a tx hash) whose transaction has, in the
 * same wallet, acquisitions that open a lot adds its value to their cost, split by their values;
 * else, where it has disposals with a value, it is taken from their proceeds, split the same way.
 * A transaction with an own-transfer leg in the wallet, or with neither, keeps its fee apart.
 */
export function feeShares(rows: readonly LedgerRow[]): FeeShares {
  const shares: FeeShares = { cost: new Map(), proceeds: new Map() };
  const moves = (r: LedgerRow) => r.type !== 'approval' && !ZERO_AMOUNT.test(r.amount);
  for (const fee of rows) {
    if (fee.type !== 'fee' || fee.direction !== 'outflow' || fee.transfer || fee.tx_hash === '' || fee.fiat_cents === null || !moves(fee)) continue;
    // Its mates: the transaction's other rows in the wallet that move something, in order.
    let acquired: LedgerRow[] | null = null;
    let disposed: LedgerRow[] | null = null;
    let transfer = false;
    for (const r of rows) {
      if (r === fee || r.type === 'fee' || r.wallet_id !== fee.wallet_id || r.tx_hash !== fee.tx_hash || !moves(r)) continue;
      if (r.transfer) {
        transfer = true;
        break;
      }
      if (r.fiat_cents === null) continue;
      if (r.direction === 'inflow') (acquired ??= []).push(r);
      else (disposed ??= []).push(r);
    }
    if (transfer) continue;
    if (acquired) spread(fee.fiat_cents, acquired, shares.cost);
    else if (disposed) spread(fee.fiat_cents, disposed, shares.proceeds);
  }
  return shares;
}

/** Splits `amount` over `rows` by their values (all to the first when they add up to 0), adding to `into`. */
function spread(amount: bigint, rows: LedgerRow[], into: Map<LedgerRow, bigint>): void {
  const whole = rows.reduce((s, r) => s + r.fiat_cents!, 0n);
  let before = 0n;
  rows.forEach((r, i) => {
    const part = whole > 0n ? share(amount, before, before + r.fiat_cents!, whole) : i === 0 ? amount : 0n;
    before += r.fiat_cents!;
    into.set(r, (into.get(r) ?? 0n) + part);
  });
}

/** The lines of a whole stream, as they come. */
export function* taxLines(rows: Iterable<{ tx: LedgerRow; reported: boolean }>, opts: TaxOptions): Generator<TaxLine> {
  const ledger = new TaxLedger(opts);
  for (const { tx, reported } of rows) yield* ledger.add(tx, reported);
  yield* ledger.end();
}
