import { describe, expect, it } from 'vitest';
import { expandPeriod, parseDay } from '../../src/core/dates.js';
import { TxaError } from '../../src/core/errors.js';

describe('parseDay', () => {
  it('accepts real calendar days', () => {
    expect(parseDay('2024-02-29')).toBe(Date.UTC(2024, 1, 29) / 1000);
  });
  it.each(['2024-1-1', '2024/01/01', '2024-02-30', '2023-02-29', '2024-13-01', '20240101', ''])('rejects %s', (text) => {
    expect(parseDay(text)).toBeNull();
  });
});

describe('expandPeriod', () => {
  const today = new Date('2026-11-22T10:00:00Z');
  it.each([
    ['2025', '2025-01-01', '2025-12-31'],
    ['2025-Q1', '2025-01-01', '2025-03-31'],
    ['2024-02', '2024-02-01', '2024-02-29'],
    ['this-month', '2026-11-01', '2026-11-30'],
    ['last-month', '2026-10-01', '2026-10-31'],
    ['last-quarter', '2026-07-01', '2026-09-30'],
    ['last-year', '2025-01-01', '2025-12-31'],
    ['ytd', '2026-01-01', '2026-11-22'],
  ])('%s', (period, start, end) => {
    expect(expandPeriod(period, today)).toEqual({ start_date: start, end_date: end });
  });

  it('last-quarter in the first quarter is the previous year’s fourth', () => {
    expect(expandPeriod('last-quarter', new Date('2026-02-10T00:00:00Z'))).toEqual({ start_date: '2025-10-01', end_date: '2025-12-31' });
  });

  it('last-month in January is the previous December', () => {
    expect(expandPeriod('last-month', new Date('2026-01-15T00:00:00Z'))).toEqual({ start_date: '2025-12-01', end_date: '2025-12-31' });
  });

  it('refuses unknown periods as a usage error', () => {
    expect(() => expandPeriod('2025-13', today)).toThrow(TxaError);
    expect(() => expandPeriod('someday', today)).toThrow(/--period must be one of/);
  });
});
