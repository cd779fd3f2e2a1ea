/** Calendar dates (`YYYY-MM-DD`, whole UTC days, both ends inclusive) and report periods. */
import { TxaError } from './errors.js';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
export const DAY_SECONDS = 86_400;

/** Unix seconds of 00:00:00 UTC on a valid `YYYY-MM-DD`, or null when it is not a real date. */
export function parseDay(text: string): number | null {
  const m = DATE.exec(text);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return ms / 1000;
}

/** Like parseDay, but a bad date is an error naming its field: INVALID_PARAMETERS in a query, INVALID_FIELD in a body. */
export function requireDay(text: string, field: string, code: 'INVALID_PARAMETERS' | 'INVALID_FIELD' = 'INVALID_PARAMETERS'): number {
  const seconds = parseDay(text);
  if (seconds === null) {
    throw new TxaError(code, `${field} must be a valid date in the format YYYY-MM-DD, got '${text}'`, { field });
  }
  return seconds;
}

/** Unix seconds → `YYYY-MM-DD` (UTC). */
export function dayOf(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 10);
}

/** Days since the Unix epoch, the key of the daily rollups. */
export function epochDay(seconds: number): number {
  return Math.floor(seconds / DAY_SECONDS);
}

export interface DateRange {
  start_date: string;
  end_date: string;
}

/** The `--period` values that are words (the others are `YYYY`, `YYYY-Qn`, `YYYY-MM`). */
export const NAMED_PERIODS = ['this-month', 'last-month', 'last-quarter', 'last-year', 'ytd'] as const;
const PERIOD_HELP = `YYYY, YYYY-Qn, YYYY-MM, ${NAMED_PERIODS.slice(0, -1).join(', ')} or ${NAMED_PERIODS.at(-1)}`;

/** Expands `--period` to inclusive start/end days in UTC, relative to `today`. */
export function expandPeriod(period: string, today: Date): DateRange {
  const ymd = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d)).toISOString().slice(0, 10);
  const monthRange = (y: number, m: number) => ({ start_date: ymd(y, m, 1), end_date: ymd(y, m + 1, 0) });
  const quarterRange = (y: number, q: number) => ({ start_date: ymd(y, q * 3, 1), end_date: ymd(y, q * 3 + 3, 0) });
  const y = today.getUTCFullYear();
  const m = today.getUTCMonth();
  let match: RegExpExecArray | null;
  if ((match = /^(\d{4})$/.exec(period))) return { start_date: ymd(Number(match[1]), 0, 1), end_date: ymd(Number(match[1]), 11, 31) };
  if ((match = /^(\d{4})-Q([1-4])$/i.exec(period))) return quarterRange(Number(match[1]), Number(match[2]) - 1);
  if ((match = /^(\d{4})-(\d{2})$/.exec(period)) && Number(match[2]) >= 1 && Number(match[2]) <= 12) {
    return monthRange(Number(match[1]), Number(match[2]) - 1);
  }
  switch (period) {
    case 'this-month':
      return monthRange(y, m);
    case 'last-month':
      return monthRange(y, m - 1);
    case 'last-quarter': {
      const q = Math.floor(m / 3) - 1;
      return q < 0 ? quarterRange(y - 1, 3) : quarterRange(y, q);
    }
    case 'last-year':
      return { start_date: ymd(y - 1, 0, 1), end_date: ymd(y - 1, 11, 31) };
    case 'ytd':
      return { start_date: ymd(y, 0, 1), end_date: ymd(y, m, today.getUTCDate()) };
    default:
      throw new TxaError('USAGE_ERROR', `--period must be one of ${PERIOD_HELP}, got '${period}'`, { field: 'period' });
  }
}
