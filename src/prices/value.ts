/**
 * A row's fiat value from a price, exactly: amount × price ÷ rate in integer cents, rounded half
 * to even (as src/core/money.ts rounds), all in BigInt, never binary floating point. `rate` is the
 * workspace's rate for the price's currency (1 base unit = rate units of it; "1" when the price is
 * in the base currency already).
 */
import { divRoundHalfEven, normalizeDecimal, scaleOf, toBaseUnits } from '../core/money.js';

/** The largest value a ledger row carries (docs/transfers.md "Fiat value sources and values by hand": below 10,000,000,000,000). */
const MAX_CENTS = 10n ** 15n;

function parts(decimal: string): { units: bigint; scale: number } {
  const canonical = normalizeDecimal(decimal);
  if (canonical === null) throw new Error(`not a decimal: ${decimal}`);
  const scale = scaleOf(canonical);
  return { units: toBaseUnits(canonical, scale), scale };
}

/** The value in cents, or null when it is too large for a ledger row (a spam token's made-up price). */
export function valueCents(amount: string, price: string, rate = '1'): number | null {
  const a = parts(amount);
  const p = parts(price);
  const r = parts(rate);
  // cents = (A / 10^sa) × (P / 10^sp) × 100 ÷ (R / 10^sr); R > 0 (rates and prices are positive)
  const cents = divRoundHalfEven(a.units * p.units * 100n * 10n ** BigInt(r.scale), r.units * 10n ** BigInt(a.scale + p.scale));
  return (cents < 0n ? -cents : cents) >= MAX_CENTS ? null : Number(cents);
}
