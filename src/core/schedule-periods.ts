/**
 * The periods of scheduled reports (docs/server.md "Scheduled reports"): which period a run
 * exports and when it becomes due. A period is whole calendar days of the schedule's time zone
 * (yesterday, the last ISO week from Monday, last month, last quarter). The export reads its days
 * as whole UTC days, as every export's dates are (docs/exports.md), so a period is due once it has
 * ended both in its time zone and in UTC: its last UTC day must be complete too. Pure: no clock
 * of its own, the caller passes the instant.
 */
import { TxaError } from './errors.js';

export const FREQUENCIES = ['daily', 'weekly', 'monthly', 'quarterly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

const DAY_MS = 86_400_000;

/** A period as epoch days (UTC day numbers of its local calendar dates), both inclusive. */
export interface Period {
  start: number;
  end: number;
}

/** `YYYY-MM-DD` of an epoch day. */
export function dayText(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(tz, f);
  }
  return f;
}

/** The wall-clock time of an instant in `tz`, as if it were UTC (milliseconds). */
function wallClock(ms: number, tz: string): number {
  const p: Record<string, number> = {};
  for (const part of formatter(tz).formatToParts(new Date(ms))) if (part.type !== 'literal') p[part.type] = Number(part.value);
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
}

/** The epoch day of the local date of an instant in `tz`. */
export function localDay(ms: number, tz: string): number {
  return Math.floor(wallClock(ms, tz) / DAY_MS);
}

/** The instant local midnight starts `day` in `tz` (the offset found twice, so a DST change that day is taken into account). */
export function localMidnight(day: number, tz: string): number {
  const wall = day * DAY_MS;
  let t = wall - (wallClock(wall, tz) - wall);
  t = wall - (wallClock(t, tz) - t);
  return t;
}

/**
 * A time zone name: an IANA name of the current database (`Europe/Berlin`, `UTC`), in any case.
 * A name the database keeps only as a link to another (`US/Pacific-New`, `EST`) or does not know
 * is refused, naming the current one where there is one.
 */
export function parseTimeZone(name: string, field: string): string {
  const known = Intl.supportedValuesOf('timeZone');
  const exact = known.find((z) => z.toLowerCase() === name.toLowerCase());
  if (exact) return exact;
  if (/^(utc|etc\/utc|gmt|etc\/gmt|z)$/i.test(name)) return 'UTC';
  let current: string | undefined;
  try {
    current = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    current = undefined;
  }
  const hint = current && known.includes(current) ? `; its current name is ${current}` : '';
  throw new TxaError('INVALID_FIELD', `'${name}' is not a time zone of the IANA database${hint} (e.g. UTC, Europe/Berlin, America/New_York)`, { field });
}

/** The period of `every` that holds local day `day`. */
export function periodContaining(every: Frequency, day: number): Period {
  const d = new Date(day * DAY_MS);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  const epochDay = (yy: number, mm: number) => Date.UTC(yy, mm, 1) / DAY_MS;
  switch (every) {
    case 'daily':
      return { start: day, end: day };
    case 'weekly': {
      // ISO weeks start on Monday: getUTCDay() is 0 on Sunday.
      const start = day - ((d.getUTCDay() + 6) % 7);
      return { start, end: start + 6 };
    }
    case 'monthly':
      return { start: epochDay(y, m), end: epochDay(y, m + 1) - 1 };
    case 'quarterly': {
      const q = m - (m % 3);
      return { start: epochDay(y, q), end: epochDay(y, q + 3) - 1 };
    }
  }
}

/** When a period's report is due: it has ended in its time zone and its last UTC day has ended. */
export function dueAt(p: Period, tz: string): number {
  return Math.max(localMidnight(p.end + 1, tz), (p.end + 1) * DAY_MS);
}

/** The latest period that is due at `nowMs`: the last complete one before it. */
export function latestDue(every: Frequency, tz: string, nowMs: number): Period {
  const current = periodContaining(every, localDay(nowMs, tz));
  const last = periodContaining(every, current.start - 1);
  // Ended locally, but its last UTC day has not (a zone east of UTC, just after midnight): the one before.
  return dueAt(last, tz) <= nowMs ? last : periodContaining(every, last.start - 1);
}

/** The period after `p`. */
export function nextPeriod(every: Frequency, p: Period): Period {
  return periodContaining(every, p.end + 1);
}
