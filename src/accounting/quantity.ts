/**
 * Token quantities as exact scaled integers: `units` × 10^−`scale`. Rows of one pooled asset may
 * come with different decimals (a table entry joining an 18- and a 6-decimal token), so a book's
 * scale only grows, and quantities of different scales are aligned before they are compared.
 */
import { fromBaseUnits, normalizeDecimal, pow10, toBaseUnits } from '../core/money.js';

export interface Quantity {
  units: bigint;
  scale: number;
}

/** `units` at `from` decimals, expressed at `to` ≥ `from` decimals. */
export function upscale(units: bigint, from: number, to: number): bigint {
  if (to === from) return units;
  if (to < from) throw new RangeError(`cannot lower a quantity's scale from ${from} to ${to}`);
  return units * pow10(to - from);
}

/** An amount already canonical but for leading zeros and the sign, as the ledger stores them: digits, and a fraction not ending in 0. */
const PLAIN_AMOUNT = /^-?(\d+)(?:\.(\d*[1-9]))?$/;

/** A transaction's amount (unsigned, exact) at its token's decimals. */
export function quantityOf(amount: string, decimals: number): Quantity {
  // The ledger's own amounts take the short way (a third of the tax report's parsing time);
  // leading zeros change nothing for BigInt, and anything else is normalized first.
  const plain = PLAIN_AMOUNT.exec(amount);
  const fraction = plain?.[2] ?? '';
  if (plain && fraction.length <= decimals) return { units: BigInt(plain[1]! + fraction.padEnd(decimals, '0')), scale: decimals };
  const canonical = normalizeDecimal(amount);
  if (canonical === null) throw new RangeError(`'${amount}' is not an amount`);
  return { units: toBaseUnits(canonical.replace(/^-/, ''), decimals), scale: decimals };
}

export function quantityText(q: Quantity): string {
  return fromBaseUnits(q.units, q.scale);
}

export function addQuantity(a: Quantity, b: Quantity): Quantity {
  const scale = Math.max(a.scale, b.scale);
  return { units: upscale(a.units, a.scale, scale) + upscale(b.units, b.scale, scale), scale };
}

export const ZERO: Quantity = { units: 0n, scale: 0 };
