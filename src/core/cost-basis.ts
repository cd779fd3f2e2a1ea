/**
 * Realised gains by lot matching (FIFO, LIFO, HIFO), exactly: quantities are BigInt base units
 * and money is BigInt cents. Acquisitions are inflows with a fiat value (cost = that value);
 * disposals are outflows (proceeds = their value). Each disposal consumes open lots of the same
 * asset in the method's order; the part no lot covers is reported as uncovered, never costed at 0.
 *
 * Pro-rating: a piece of a lot (or of a disposal's proceeds) costs
 * round(total × consumedAfter / whole) − round(total × consumedBefore / whole), rounded half to
 * even once per piece. The pieces of a lot therefore add up to its cost exactly, to the cent.
 */
import { decimalToCents, normalizeDecimal, toBaseUnits } from './money.js';
import type { Chain, Direction, Transaction } from './types.js';

/** The export option `cost_basis` (core cannot import the exporters' list, so it names its own). */
export type CostBasisMethod = 'fifo' | 'lifo' | 'hifo';

export interface Asset {
  /** `chain:address` for a contract token, `chain:SYMBOL` for a chain's native coin. */
  key: string;
  symbol: string;
  chain: Chain;
  decimals: number;
}

/** One movement of an asset, the input of the matcher. */
export interface Movement {
  id: string;
  timestamp: string;
  asset: Asset;
  direction: Direction;
  /** Base units, > 0 (zero movements are ignored). */
  quantity: bigint;
  /** Fiat value in cents; null when the source had no price. */
  valueCents: bigint | null;
}

export interface LotMatch {
  disposalId: string;
  disposedAt: string;
  acquisitionId: string;
  acquiredAt: string;
  quantity: bigint;
  costCents: bigint;
  /** null when the disposal has no fiat value. */
  proceedsCents: bigint | null;
  gainCents: bigint | null;
}

/** The part of a disposal that no acquired lot covers ("missing cost basis"). */
export interface UncoveredDisposal {
  disposalId: string;
  disposedAt: string;
  quantity: bigint;
  proceedsCents: bigint | null;
}

export interface AssetGains {
  asset: Asset;
  /** Quantity matched against lots, with and without proceeds. */
  matchedQuantity: bigint;
  /** Totals over the matches whose disposal has a value (gain = proceeds − cost). */
  proceedsCents: bigint;
  costCents: bigint;
  gainCents: bigint;
  /** Matched quantity of disposals without a fiat value: lots consumed, gain unknown. */
  unpricedQuantity: bigint;
  uncoveredQuantity: bigint;
  matches: LotMatch[];
  uncovered: UncoveredDisposal[];
  /** What is still held in open lots at the end. */
  openQuantity: bigint;
  openCostCents: bigint;
}

interface Lot {
  id: string;
  acquiredAt: string;
  seq: number;
  quantity: bigint;
  cost: bigint;
  consumed: bigint;
}

/** n / d rounded half to even; d > 0. */
export function divRoundHalfEven(n: bigint, d: bigint): bigint {
  if (d <= 0n) throw new RangeError('divisor must be positive');
  const q = n / d;
  const r = n % d;
  const twice = 2n * (r < 0n ? -r : r);
  if (twice < d) return q;
  const away = n < 0n ? q - 1n : q + 1n;
  if (twice > d) return away;
  return q % 2n === 0n ? q : away;
}

/** The share of `total` for the slice (before, after] of `whole`, rounded once (see module note). */
function slice(total: bigint, before: bigint, after: bigint, whole: bigint): bigint {
  return divRoundHalfEven(total * after, whole) - divRoundHalfEven(total * before, whole);
}

/** Open lots of one asset, taken in the method's order. */
class LotBook {
  private lots: Lot[] = [];
  private head = 0;

  constructor(private readonly method: CostBasisMethod) {}

  add(lot: Lot): void {
    if (this.method !== 'hifo') {
      this.lots.push(lot);
      return;
    }
    // Sorted ascending by unit cost (cost/quantity, compared by cross-multiplying), later
    // acquisitions first among equals, so the next lot is always the last element.
    let lo = 0;
    let hi = this.lots.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const other = this.lots[mid]!;
      const cmp = lot.cost * other.quantity - other.cost * lot.quantity;
      if (cmp > 0n || (cmp === 0n && lot.seq < other.seq)) lo = mid + 1;
      else hi = mid;
    }
    this.lots.splice(lo, 0, lot);
  }

  next(): Lot | undefined {
    if (this.method === 'fifo') return this.lots[this.head];
    return this.lots[this.lots.length - 1];
  }

  /** Drops the lot `next()` returned once it is used up. */
  dropNext(): void {
    if (this.method === 'fifo') {
      this.head++;
      // Compact now and then so a long FIFO queue does not keep every used lot alive.
      if (this.head > 1024 && this.head * 2 > this.lots.length) {
        this.lots = this.lots.slice(this.head);
        this.head = 0;
      }
    } else {
      this.lots.pop();
    }
  }

  open(): Lot[] {
    return this.method === 'fifo' ? this.lots.slice(this.head) : this.lots;
  }
}

/** Asset identity of a transaction's token: contract address, else the native symbol, per chain. */
export function assetOf(tx: Pick<Transaction, 'chain' | 'token'>): Asset {
  const id = tx.token.address ? tx.token.address.toLowerCase() : tx.token.symbol.toUpperCase();
  return { key: `${tx.chain}:${id}`, symbol: tx.token.symbol, chain: tx.chain, decimals: tx.token.decimals };
}

/** A transaction as a movement: exact base units and cents (no binary floating point). */
export function movementOf(tx: Transaction): Movement {
  const canonical = normalizeDecimal(tx.amount);
  if (canonical === null) throw new RangeError(`transaction ${tx.id} has a non-numeric amount '${tx.amount}'`);
  const asset = assetOf(tx);
  // The contract keeps amounts within the token's decimals, so one scale serves the whole book.
  const quantity = toBaseUnits(canonical.replace(/^-/, ''), asset.decimals);
  const cents = tx.fiat_value === null ? null : decimalToCents(String(tx.fiat_value));
  return {
    id: tx.id,
    timestamp: tx.timestamp,
    asset,
    direction: tx.direction,
    quantity,
    valueCents: cents === null ? null : BigInt(cents),
  };
}

/**
 * Matches disposals against acquisitions, per asset, in the order the movements are given
 * (chronological): a disposal only consumes lots acquired before it. Only `reported` disposals
 * count in the result; the others (before the report's period, or outside its filter) still
 * use up lots, so the period's disposals meet the lots a full history leaves open.
 */
export function realisedGains(movements: Iterable<Movement>, method: CostBasisMethod, reported: (m: Movement) => boolean = () => true): AssetGains[] {
  const books = new Map<string, { gains: AssetGains; book: LotBook }>();
  let seq = 0;
  for (const m of movements) {
    if (m.quantity <= 0n) continue;
    let entry = books.get(m.asset.key);
    if (!entry) {
      entry = { gains: emptyGains(m.asset), book: new LotBook(method) };
      books.set(m.asset.key, entry);
    }
    if (m.direction === 'inflow') {
      // Inflows without a value carry no cost basis: they open no lot.
      if (m.valueCents !== null) {
        entry.book.add({ id: m.id, acquiredAt: m.timestamp, seq: seq++, quantity: m.quantity, cost: m.valueCents, consumed: 0n });
      }
    } else {
      // A disposal outside the report (before its period, or filtered out) still uses up lots.
      dispose(reported(m) ? entry.gains : emptyGains(m.asset), entry.book, m);
    }
  }
  const result = [...books.values()].map(({ gains, book }) => {
    for (const lot of book.open()) {
      gains.openQuantity += lot.quantity - lot.consumed;
      gains.openCostCents += lot.cost - slice(lot.cost, 0n, lot.consumed, lot.quantity);
    }
    return gains;
  });
  return result.sort((a, b) => cmpText(a.asset.symbol, b.asset.symbol) || cmpText(a.asset.chain, b.asset.chain) || cmpText(a.asset.key, b.asset.key));
}

function dispose(gains: AssetGains, book: LotBook, m: Movement): void {
  let done = 0n;
  // Proceeds are split over the pieces of the disposal by the same rounding rule as costs.
  const proceedsOf = (piece: bigint) => (m.valueCents === null ? null : slice(m.valueCents, done, done + piece, m.quantity));
  while (done < m.quantity) {
    const lot = book.next();
    if (!lot) break;
    const take = min(m.quantity - done, lot.quantity - lot.consumed);
    const cost = slice(lot.cost, lot.consumed, lot.consumed + take, lot.quantity);
    const proceeds = proceedsOf(take);
    const gain = proceeds === null ? null : proceeds - cost;
    gains.matches.push({
      disposalId: m.id, disposedAt: m.timestamp, acquisitionId: lot.id, acquiredAt: lot.acquiredAt,
      quantity: take, costCents: cost, proceedsCents: proceeds, gainCents: gain,
    });
    gains.matchedQuantity += take;
    if (proceeds === null || gain === null) {
      gains.unpricedQuantity += take;
    } else {
      gains.proceedsCents += proceeds;
      gains.costCents += cost;
      gains.gainCents += gain;
    }
    lot.consumed += take;
    done += take;
    if (lot.consumed === lot.quantity) book.dropNext();
  }
  if (done < m.quantity) {
    const rest = m.quantity - done;
    gains.uncovered.push({ disposalId: m.id, disposedAt: m.timestamp, quantity: rest, proceedsCents: proceedsOf(rest) });
    gains.uncoveredQuantity += rest;
  }
}

function emptyGains(asset: Asset): AssetGains {
  return {
    asset, matchedQuantity: 0n, proceedsCents: 0n, costCents: 0n, gainCents: 0n, unpricedQuantity: 0n,
    uncoveredQuantity: 0n, matches: [], uncovered: [], openQuantity: 0n, openCostCents: 0n,
  };
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);
const cmpText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
