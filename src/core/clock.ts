/**
 * The engine's clock. `TXA_NOW` (ISO 8601) pins it, so tests can move time, e.g. past a
 * download link's 24-hour expiry. It is a testing aid, documented in the README.
 */
import { parseDay } from './dates.js';
import { TxaError } from './errors.js';

/** A calendar day, optionally with a time of day and its UTC offset (a local time would depend on the machine). */
const INSTANT = /^(\d{4}-\d{2}-\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/**
 * The time `TXA_NOW` pins, or undefined when it is not set. A value that is not such a time is an
 * error rather than the system clock: a test that meant to move time must not silently run now.
 * The CLI calls this at start-up, so the error comes before any work.
 */
export function pinnedNow(): Date | undefined {
  const pinned = process.env.TXA_NOW;
  if (!pinned) return undefined;
  const day = INSTANT.exec(pinned)?.[1];
  const date = new Date(pinned);
  if (day !== undefined && parseDay(day) !== null && !Number.isNaN(date.getTime())) return date;
  throw new TxaError('USAGE_ERROR', `TXA_NOW must be an ISO 8601 time such as 2026-01-02T00:00:00Z or a day such as 2026-01-02, got '${pinned}'`, {
    field: 'TXA_NOW',
    hint: 'Unset TXA_NOW to use the system clock.',
  });
}

export function now(): Date {
  return pinnedNow() ?? new Date();
}

export function nowSeconds(): number {
  return Math.floor(now().getTime() / 1000);
}

export function nowIso(): string {
  return isoSeconds(nowSeconds());
}

/** Unix seconds → `YYYY-MM-DDTHH:MM:SSZ` (ISO 8601 UTC, no fraction). */
export function isoSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
