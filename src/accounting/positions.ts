/**
 * Positions (docs/accounting.md "Form 8949, 1099-DA and the roll-forward"): every open lot at the
 * end of a day with its market value that day, its unrealized gain and the term a sale that day
 * would have. Exact: a unit price is a fraction of cents per token, a value rounded once, half to
 * even, to the cent.
 */
import { divRoundHalfEven } from '../core/money.js';
import { termOf, type Term } from './holding.js';
import type { OpenLot } from './tax-ledger.js';
import type { Quantity } from './quantity.js';

/** Cents per whole token, as num / den. */
export interface UnitPrice {
  num: bigint;
  den: bigint;
}

/** The unit price a row shows: its value over its quantity. */
export function rowPrice(cents: bigint, q: Quantity): UnitPrice | null {
  return q.units === 0n ? null : { num: cents * 10n ** BigInt(q.scale), den: q.units };
}

/** A decimal price per token (the price cache's) as cents per token. */
export function decimalPrice(text: string): UnitPrice | null {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return null;
  const frac = m[2] ?? '';
  return { num: BigInt(m[1]! + frac) * 100n, den: 10n ** BigInt(frac.length) };
}

export function valueAtPrice(q: Quantity, p: UnitPrice): bigint {
  return divRoundHalfEven(q.units * p.num, 10n ** BigInt(q.scale) * p.den);
}

export interface Position {
  lot: OpenLot;
  marketValue: bigint | null;
  unrealizedGain: bigint | null;
  termIfSold: Term;
}

/** The positions of `lots` at the end of `day`, valued by `priceOf` (null: unpriced). */
export function positionsOf(lots: readonly OpenLot[], day: string, priceOf: (lot: OpenLot) => UnitPrice | null): Position[] {
  const end = `${day}T23:59:59Z`;
  return lots.map((lot) => {
    const price = priceOf(lot);
    const marketValue = price === null ? null : valueAtPrice(lot.quantity, price);
    return { lot, marketValue, unrealizedGain: marketValue === null ? null : marketValue - lot.costCents, termIfSold: termOf(lot.acquiredAt, end) };
  });
}
