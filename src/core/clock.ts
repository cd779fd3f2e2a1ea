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
  // toISOString always ends in `.sssZ`: cut, not matched (an import formats every row's time).
  return `${new Date(seconds * 1000).toISOString().slice(0, -5)}Z`;
}

const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));

/**
 * An isoSeconds for times read in order (a ledger's rows): the date part is made once per UTC
 * day and the time of day from the seconds, instead of a Date and its ISO text per call.
 */
export function isoSecondsByDay(): (seconds: number) => string {
  let dayStart = NaN;
  let datePart = '';
  return (seconds) => {
    if (!Number.isInteger(seconds)) return isoSeconds(seconds);
    let s = seconds - dayStart;
    if (!(s >= 0 && s < 86_400)) {
      dayStart = seconds - (((seconds % 86_400) + 86_400) % 86_400);
      const iso = isoSeconds(dayStart);
      datePart = iso.slice(0, iso.indexOf('T') + 1);
      s = seconds - dayStart;
    }
    // join makes one flat string (41 bytes); `+` or a template would make a chain of cons strings
    // (~190 bytes), and the tax ledger keeps the timestamps of its open lots.
    return [datePart, TWO_DIGITS[Math.floor(s / 3600)], ':', TWO_DIGITS[Math.floor(s / 60) % 60], ':', TWO_DIGITS[s % 60], 'Z'].join('');
  };
}
