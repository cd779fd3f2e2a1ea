/** The periods of scheduled reports (docs/server.md "Scheduled reports"), worked out by hand. */
import { describe, expect, it } from 'vitest';
import { dayText, dueAt, latestDue, localMidnight, nextPeriod, parseTimeZone, type Frequency } from '../../src/core/schedule-periods.js';

const at = (iso: string) => Date.parse(iso);
const text = (every: Frequency, tz: string, iso: string) => {
  const p = latestDue(every, tz, at(iso));
  return `${dayText(p.start)}..${dayText(p.end)}`;
};

describe('the last complete period', () => {
  it('in UTC: yesterday, last ISO week (Monday to Sunday), last month, last quarter', () => {
    // 2026-04-15 is a Wednesday; its ISO week starts Monday 2026-04-13.
    expect(text('daily', 'UTC', '2026-04-15T10:00:00Z')).toBe('2026-04-14..2026-04-14');
    expect(text('weekly', 'UTC', '2026-04-15T10:00:00Z')).toBe('2026-04-06..2026-04-12');
    expect(text('monthly', 'UTC', '2026-04-15T10:00:00Z')).toBe('2026-03-01..2026-03-31');
    expect(text('quarterly', 'UTC', '2026-04-15T10:00:00Z')).toBe('2026-01-01..2026-03-31');
    // Across a year: on 2026-01-01 the last quarter is Q4 2025, the last month December.
    expect(text('quarterly', 'UTC', '2026-01-01T00:00:00Z')).toBe('2025-10-01..2025-12-31');
    expect(text('monthly', 'UTC', '2026-01-01T00:00:00Z')).toBe('2025-12-01..2025-12-31');
    // A Sunday belongs to the week that started six days before it; on a Monday that week is complete.
    expect(text('weekly', 'UTC', '2026-04-12T23:59:59Z')).toBe('2026-03-30..2026-04-05');
    expect(text('weekly', 'UTC', '2026-04-13T00:00:00Z')).toBe('2026-04-06..2026-04-12');
    // February of a leap year.
    expect(text('monthly', 'UTC', '2028-03-02T00:00:00Z')).toBe('2028-02-01..2028-02-29');
  });

  it('west of UTC: the local day decides, and the period is due at local midnight', () => {
    // 2026-04-01T03:00Z is still 2026-03-31 (23:00) in New York (UTC-4 in summer time): March is not complete there.
    expect(text('monthly', 'America/New_York', '2026-04-01T03:00:00Z')).toBe('2026-02-01..2026-02-28');
    expect(text('monthly', 'America/New_York', '2026-04-01T04:00:00Z')).toBe('2026-03-01..2026-03-31');
    expect(new Date(dueAt(latestDue('monthly', 'America/New_York', at('2026-04-01T04:00:00Z')), 'America/New_York')).toISOString()).toBe(
      '2026-04-01T04:00:00.000Z',
    );
  });

  it("east of UTC: ended locally, the period waits for its last UTC day's end", () => {
    // 2026-04-01T00:30 in Tokyo is 2026-03-31T15:30Z: March has ended in Tokyo but its last UTC day runs until 2026-04-01T00:00Z.
    expect(text('monthly', 'Asia/Tokyo', '2026-03-31T15:30:00Z')).toBe('2026-02-01..2026-02-28');
    expect(text('monthly', 'Asia/Tokyo', '2026-04-01T00:00:00Z')).toBe('2026-03-01..2026-03-31');
  });

  it('local midnight across a change of summer time (Berlin, 2026-03-29: UTC+1 → UTC+2)', () => {
    const day = Date.UTC(2026, 2, 29) / 86_400_000;
    expect(new Date(localMidnight(day, 'Europe/Berlin')).toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(new Date(localMidnight(day + 1, 'Europe/Berlin')).toISOString()).toBe('2026-03-29T22:00:00.000Z');
  });

  it('the period after one: the next day, week, month, quarter', () => {
    const p = latestDue('quarterly', 'UTC', at('2026-04-15T00:00:00Z'));
    const n = nextPeriod('quarterly', p);
    expect(`${dayText(n.start)}..${dayText(n.end)}`).toBe('2026-04-01..2026-06-30');
    expect(new Date(dueAt(n, 'UTC')).toISOString()).toBe('2026-07-01T00:00:00.000Z');
  });
});

describe('time zone names', () => {
  it('takes current IANA names in any case, and UTC', () => {
    expect(parseTimeZone('europe/berlin', 'time_zone')).toBe('Europe/Berlin');
    expect(parseTimeZone('UTC', 'time_zone')).toBe('UTC');
    expect(parseTimeZone('Etc/UTC', 'time_zone')).toBe('UTC');
  });

  it('refuses a name that does not exist, and a past-only one, naming the current name', () => {
    expect(() => parseTimeZone('Mars/Olympus_Mons', 'time_zone')).toThrow(/not a time zone of the IANA database/);
    expect(() => parseTimeZone('US/Pacific-New', 'time_zone')).toThrow(/its current name is America\/Los_Angeles/);
    try {
      parseTimeZone('Mars/Olympus_Mons', 'time_zone');
    } catch (e) {
      expect((e as { code: string; field: string }).code).toBe('INVALID_FIELD');
      expect((e as { field: string }).field).toBe('time_zone');
    }
  });
});
