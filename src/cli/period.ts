/** `--period` of the local-only commands (`check`, `rules apply`) as Unix seconds, expanded with the engine's clock. */
import { DAY_SECONDS, expandPeriod, parseDay } from '../core/dates.js';
import { now } from '../core/clock.js';

export interface PeriodSeconds {
  /** Inclusive. */
  startTs?: number;
  /** Exclusive: the start of the day after the period. */
  endTs?: number;
}

export function periodSeconds(value: string | undefined): PeriodSeconds {
  if (value === undefined) return {};
  const range = expandPeriod(value, now());
  return { startTs: parseDay(range.start_date)!, endTs: parseDay(range.end_date)! + DAY_SECONDS };
}
