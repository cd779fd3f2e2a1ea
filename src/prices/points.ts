/**
 * What a price API's point must be before it is used or cached (docs/prices.md, "Bad answers"):
 * a time within the asked UTC day and a positive price no larger than MAX_PRICE. A point that
 * fails is the source sending garbage, which is never cached; a day without a point is "no price",
 * which is. The same checks tell which cache entries an older txa stored from such points.
 */
import { isoSeconds } from '../core/clock.js';
import { DAY_SECONDS, parseDay } from '../core/dates.js';
import { compareDecimal, normalizeDecimal } from '../core/money.js';
import type { PriceEntry } from '../store/prices.js';

/** The largest USD price per unit taken from an API: above it, a price is a spam token's or a bug's. */
export const MAX_PRICE = '1000000000000';
const MAX_PRICE_NUMBER = 1e12; // exact as a double, so comparing the JSON number is exact
/** Date's range in seconds (±8.64e15 ms): a time beyond it has no calendar day. */
const MAX_TIME = 8.64e12;

/** A point's price as exact decimal text, or why it is none. */
export type Checked = { price: string } | { bad: string };

/** A JSON number as the decimal it was written as (its shortest form), if it is a usable price. */
export function checkPrice(value: unknown): Checked {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return { bad: 'a price that is not a positive number' };
  if (value > MAX_PRICE_NUMBER) return { bad: 'a price above 10^12 USD' };
  const price = normalizeDecimal(String(value));
  // Only below 1e-100 (normalizeDecimal's exponent limit): no token is worth that little.
  return price === null ? { bad: 'a price too small to be one' } : { price };
}

/** Unix seconds of a point's time written in `unit` seconds (1000: milliseconds), or null when it is no whole, calendar time. */
export function pointSeconds(value: unknown, unit: 1 | 1000): number | null {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) return null;
  const seconds = Math.floor(value / unit);
  return Math.abs(seconds) <= MAX_TIME ? seconds : null;
}

/** Whether Unix seconds `ts` lie within the UTC day `day` (00:00 inclusive, the next 00:00 exclusive). */
export function withinDay(ts: number, day: string): boolean {
  const start = parseDay(day);
  return start !== null && ts >= start && ts < start + DAY_SECONDS;
}

/** A cached entry's time as ISO text; null when there is none or it is no calendar time (an older txa cached such). */
export function entryTime(ts: number | null): string | null {
  return ts === null || pointSeconds(ts, 1) === null ? null : isoSeconds(ts);
}

/**
 * Whether a cache entry is one these checks let in: imported prices are the user's and always
 * are; an API's entry is "no price" without a time, or a usable price with a time of its day.
 */
export function soundEntry(e: PriceEntry): boolean {
  if (e.source === 'import') return true;
  if (e.price === null) return e.price_ts === null;
  const price = normalizeDecimal(e.price);
  if (price === null || price.startsWith('-') || price === '0' || compareDecimal(price, MAX_PRICE) > 0) return false;
  return e.price_ts !== null && pointSeconds(e.price_ts, 1) !== null && withinDay(e.price_ts, e.day);
}
