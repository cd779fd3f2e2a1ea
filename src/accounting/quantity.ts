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

/**
 * A transaction's amount (unsigned, exact) at its token's decimals. The ledger's own amounts
 * (digits, a fraction not ending in 0, at most `decimals` long; a sign) are read by a scan of
 * their characters, without a regular expression or padding (the tax ledger reads one per row:
 * this halved its cost); anything else is normalized first.
 */
export function quantityOf(amount: string, decimals: number): Quantity {
  const plain = plainUnits(amount, decimals);
  if (plain !== null) return { units: plain, scale: decimals };
  const canonical = normalizeDecimal(amount);
  if (canonical === null) throw new RangeError(`'${amount}' is not an amount`);
  return { units: toBaseUnits(canonical.replace(/^-/, ''), decimals), scale: decimals };
}

/** `-?digits(.digits ending in 1–9)?` with at most `decimals` fraction digits, as units; else null. */
function plainUnits(amount: string, decimals: number): bigint | null {
  const n = amount.length;
  const start = amount.charCodeAt(0) === 45 ? 1 : 0;
  let dot = -1;
  for (let i = start; i < n; i++) {
    const c = amount.charCodeAt(i);
    if (c >= 48 && c <= 57) continue;
    if (c !== 46 || dot !== -1) return null;
    dot = i;
  }
  if (dot === -1) return n > start ? BigInt(start === 0 ? amount : amount.slice(1)) * pow10(decimals) : null;
  const fraction = n - dot - 1;
  if (dot === start || fraction === 0 || fraction > decimals || amount.charCodeAt(n - 1) === 48) return null;
  return BigInt(amount.slice(start, dot) + amount.slice(dot + 1)) * pow10(decimals - fraction);
}

export function quantityText(q: Quantity): string {
  return fromBaseUnits(q.units, q.scale);
}

export function addQuantity(a: Quantity, b: Quantity): Quantity {
  const scale = Math.max(a.scale, b.scale);
  return { units: upscale(a.units, a.scale, scale) + upscale(b.units, b.scale, scale), scale };
}

export const ZERO: Quantity = { units: 0n, scale: 0 };
