/**
 * Holding period (docs/accounting.md, "Short and long term"). Days are UTC calendar days. The IRS
 * counts from the day after acquisition, so a lot is held "more than one year" when it is
 * disposed of after the anniversary of its acquisition day. A lot acquired on 29 February has its
 * anniversary on 28 February of a common year, so it turns long-term on 1 March, as the IRS
 * counts periods for property acquired on the last day of a month.
 */
export type Term = 'short' | 'long';

/** `YYYY-MM-DD` one year later; 29 February becomes 28 February when the next year has none. */
export function anniversary(day: string): string {
  const year = Number(day.slice(0, 4)) + 1;
  const monthDay = day.slice(5);
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return `${String(year).padStart(4, '0')}-${monthDay === '02-29' && !leap ? '02-28' : monthDay}`;
}

/** `long` when the disposal day is after the acquisition's anniversary, else `short`. */
export function termOf(acquiredAt: string, disposedAt: string): Term {
  return disposedAt.slice(0, 10) > anniversary(acquiredAt.slice(0, 10)) ? 'long' : 'short';
}
