import { describe, expect, it } from 'vitest';
import { anniversary, termOf } from '../../src/accounting/holding.js';

describe('holding period', () => {
  it.each([
    ['2024-03-15', '2025-03-15'],
    ['2024-02-29', '2025-02-28'], // no 29 February in 2025
    ['2023-02-28', '2024-02-28'],
    ['2027-02-28', '2028-02-28'],
    ['2099-12-31', '2100-12-31'],
    ['2099-02-28', '2100-02-28'], // 2100 is not a leap year
  ])('the anniversary of %s is %s', (day, next) => expect(anniversary(day)).toBe(next));

  it.each([
    ['2023-03-15T09:00:00Z', '2024-03-15T23:59:59Z', 'short'], // one year to the day: not more than one year
    ['2023-03-15T23:00:00Z', '2024-03-16T00:00:00Z', 'long'], // the day after the anniversary, whatever the hour
    ['2024-03-15T00:00:00Z', '2024-03-15T10:00:00Z', 'short'],
    ['2024-02-29T00:00:00Z', '2025-02-28T12:00:00Z', 'short'],
    ['2024-02-29T00:00:00Z', '2025-03-01T00:00:00Z', 'long'],
    ['2023-02-28T00:00:00Z', '2024-02-28T12:00:00Z', 'short'],
    ['2023-02-28T00:00:00Z', '2024-02-29T00:00:00Z', 'long'], // leap day after the anniversary
    ['2023-03-01T00:00:00Z', '2024-02-29T00:00:00Z', 'short'],
    ['2023-03-01T00:00:00Z', '2024-03-02T00:00:00Z', 'long'],
  ])('acquired %s, disposed of %s: %s', (acquired, disposed, term) => expect(termOf(acquired, disposed)).toBe(term));
});
