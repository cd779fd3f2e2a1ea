/**
 * Open lots of one asset in one scope (a wallet, or the universal pool), taken in the order of
 * the cost-basis method. Exact: quantities are BigInt units at the book's scale, costs BigInt cents.
 *
 * Pro-rating: taking `q` from a lot of quantity `Q` and cost `C` of which `u` is already used
 * costs round(C × (u+q) / Q) − round(C × u / Q), each rounded half to even to the cent. Every
 * piece is rounded once and the pieces of a lot add up to its cost exactly. A disposal's
 * proceeds are split over its pieces by the same rule (`share`).
 */
import type { CostBasis } from '../core/export-values.js';
import { upscale } from './quantity.js';
import { divRoundHalfEven } from '../core/money.js';

export interface Lot {
  /** The acquiring transaction, and when it happened: an own transfer moves a lot keeping both. */
  id: string;
  acquiredAt: string;
  /** Acquisition order (FIFO/LIFO and HIFO's tie-break); kept when a lot moves. */
  seq: number;
  quantity: bigint;
  cost: bigint;
  consumed: bigint;
}

/** A part taken out of a lot, with its pro-rated cost. */
export interface Piece {
  id: string;
  acquiredAt: string;
  seq: number;
  quantity: bigint;
  cost: bigint;
}

/** The share of `total` for the slice (before, after] of `whole`, rounded once (module note). */
export function share(total: bigint, before: bigint, after: bigint, whole: bigint): bigint {
  // The whole of it (a lot taken at once, a disposal one piece covers): no division to make.
  if (before === 0n && after === whole && whole > 0n) return total;
  return divRoundHalfEven(total * after, whole) - divRoundHalfEven(total * before, whole);
}

/** The order a book keeps: `specific` takes what no pick names by FIFO. */
type Order = Exclude<CostBasis, 'specific'>;

/** Whether lot `a` is taken after lot `b` (sorted ascending; fifo takes from the front, the others from the back). */
function takenAfter(method: Order, a: Lot, b: Lot): boolean {
  if (method !== 'hifo') return a.seq > b.seq;
  // Unit cost compared by cross-multiplying; among equals the earlier lot goes last, so it is taken first.
  const cmp = a.cost * b.quantity - b.cost * a.quantity;
  return cmp > 0n || (cmp === 0n && a.seq < b.seq);
}

export class LotBook {
  private lots: Lot[] = [];
  /** FIFO's front: used-up lots before it are dropped now and then, not one by one. */
  private head = 0;
  private readonly method: Order;

  constructor(
    method: CostBasis,
    public scale = 0,
  ) {
    this.method = method === 'specific' ? 'fifo' : method;
  }

  /** Raises the book's scale (never lowers it), so quantities of more decimals fit exactly. */
  rescale(scale: number): void {
    if (scale <= this.scale) return;
    for (const lot of this.open()) {
      lot.quantity = upscale(lot.quantity, this.scale, scale);
      lot.consumed = upscale(lot.consumed, this.scale, scale);
    }
    this.scale = scale;
  }

  /**
   * Adds a lot (quantity at the book's scale) at its place in the method's order. Among lots the
   * order ranks equal (pieces of one lot come back to a book by two transfers), the one that
   * came first is taken first: FIFO's front is the array's start, the others' its end.
   */
  add(lot: Lot): void {
    let lo = this.head;
    let hi = this.lots.length;
    const fifo = this.method === 'fifo';
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const other = this.lots[mid]!;
      if (fifo ? !takenAfter(this.method, other, lot) : takenAfter(this.method, lot, other)) lo = mid + 1;
      else hi = mid;
    }
    if (lo === this.lots.length) this.lots.push(lot);
    else this.lots.splice(lo, 0, lot);
  }

  /** Takes up to `quantity` in the method's order; `missing` is what no lot covered. */
  take(quantity: bigint): { pieces: Piece[]; missing: bigint } {
    const pieces: Piece[] = [];
    let left = quantity;
    while (left > 0n && this.head < this.lots.length) {
      const lot = this.method === 'fifo' ? this.lots[this.head]! : this.lots[this.lots.length - 1]!;
      const available = lot.quantity - lot.consumed;
      if (available === 0n) {
        // Used up by a pick (takeLot) while not at the front.
        this.drop();
        continue;
      }
      const q = left < available ? left : available;
      pieces.push({ id: lot.id, acquiredAt: lot.acquiredAt, seq: lot.seq, quantity: q, cost: share(lot.cost, lot.consumed, lot.consumed + q, lot.quantity) });
      lot.consumed += q;
      left -= q;
      if (lot.consumed === lot.quantity) this.drop();
    }
    return { pieces, missing: left };
  }

  /**
   * Takes up to `quantity` from the open lots named `id` (specific identification), wherever
   * they stand in the order; a lot used up there is dropped when `take` reaches it.
   */
  takeLot(id: string, quantity: bigint): Piece[] {
    const pieces: Piece[] = [];
    let left = quantity;
    for (let i = this.head; i < this.lots.length && left > 0n; i++) {
      const lot = this.lots[i]!;
      if (lot.id !== id) continue;
      const available = lot.quantity - lot.consumed;
      const q = left < available ? left : available;
      if (q === 0n) continue;
      pieces.push({ id: lot.id, acquiredAt: lot.acquiredAt, seq: lot.seq, quantity: q, cost: share(lot.cost, lot.consumed, lot.consumed + q, lot.quantity) });
      lot.consumed += q;
      left -= q;
    }
    if (this.method === 'fifo') while (this.head < this.lots.length && this.lots[this.head]!.consumed === this.lots[this.head]!.quantity) this.drop();
    return pieces;
  }

  private drop(): void {
    if (this.method !== 'fifo') {
      this.lots.pop();
      return;
    }
    this.head++;
    // Compact now and then so a long FIFO queue does not keep every used lot alive.
    if (this.head > 1024 && this.head * 2 > this.lots.length) {
      this.lots = this.lots.slice(this.head);
      this.head = 0;
    }
  }

  /** The open lots, in the method's order (last taken first). */
  open(): Lot[] {
    return this.lots.slice(this.head);
  }

  /** What the open lots still hold: quantity at the book's scale and the cost not yet used. */
  remaining(): { quantity: bigint; cost: bigint } {
    let quantity = 0n;
    let cost = 0n;
    for (const lot of this.open()) {
      quantity += lot.quantity - lot.consumed;
      cost += lot.cost - share(lot.cost, 0n, lot.consumed, lot.quantity);
    }
    return { quantity, cost };
  }
}

/** A piece as a lot of its own (an own transfer's lots arrive in the other wallet this way). */
export function lotOf(piece: Piece): Lot {
  return { ...piece, consumed: 0n };
}
