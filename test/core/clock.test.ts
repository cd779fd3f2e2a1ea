import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isoSeconds, isoSecondsByDay } from '../../src/core/clock.js';

describe('isoSecondsByDay', () => {
  it('gives isoSeconds text for any sequence of times: in order, across days, backwards, before 1970, with fractions', () => {
    const DAY = 86_400;
    const time = fc.oneof(
      fc.integer({ min: -5 * DAY, max: 5 * DAY }),
      fc.integer({ min: 0, max: 4_102_444_800 }),
      fc.integer({ min: 0, max: 3 }).map((d) => d * DAY - 1),
      fc.double({ min: -1e9, max: 4e9, noNaN: true }),
    );
    fc.assert(
      fc.property(fc.array(time, { maxLength: 40 }), (times) => {
        const iso = isoSecondsByDay();
        for (const t of [...times].sort((a, b) => a - b).concat(times)) expect(iso(t)).toBe(isoSeconds(t));
      }),
    );
  });

  it('keeps the date of the day and the time of day apart at the day edges', () => {
    const iso = isoSecondsByDay();
    expect([1_700_006_399, 1_700_006_400, 1_700_092_799, -1, 0].map(iso)).toEqual([
      '2023-11-14T23:59:59Z',
      '2023-11-15T00:00:00Z',
      '2023-11-15T23:59:59Z',
      '1969-12-31T23:59:59Z',
      '1970-01-01T00:00:00Z',
    ]);
  });
});
