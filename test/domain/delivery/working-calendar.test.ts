import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addCalendarDays,
  addWorkingDays,
  type WorkingCalendar,
  weekdayOf,
  workingDaysAfter,
} from '../../../src/domain/delivery/working-calendar.js';

/** Monday–Friday less the listed dates. */
function weekdaysWithout(...holidays: string[]): WorkingCalendar {
  const off = new Set(holidays);
  return { isWorkingDay: (date) => weekdayOf(date) >= 1 && weekdayOf(date) <= 5 && !off.has(date) };
}

const isoDate = fc
  .integer({ min: Date.UTC(1900, 0, 1) / 86_400_000, max: Date.UTC(2200, 11, 31) / 86_400_000 })
  .map((day) => new Date(day * 86_400_000).toISOString().slice(0, 10));

describe('calendar dates', () => {
  it('adds calendar days across month, leap-day and year ends', () => {
    expect(addCalendarDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addCalendarDays('2025-02-28', 1)).toBe('2025-03-01');
    expect(addCalendarDays('2100-02-28', 1)).toBe('2100-03-01');
    expect(addCalendarDays('2000-02-28', 1)).toBe('2000-02-29');
    expect(addCalendarDays('2025-12-31', 1)).toBe('2026-01-01');
    expect(addCalendarDays('2026-01-01', -1)).toBe('2025-12-31');
    expect(addCalendarDays('2025-03-30', 0)).toBe('2025-03-30');
  });

  it('agrees with Date for every day, whatever the distance', () => {
    fc.assert(
      fc.property(isoDate, fc.integer({ min: -5000, max: 5000 }), (date, days) => {
        const expected = new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
        expect(addCalendarDays(date, days)).toBe(expected);
        expect(weekdayOf(date)).toBe(new Date(`${date}T00:00:00Z`).getUTCDay());
      }),
    );
  });

  it('numbers weekdays as Date#getUTCDay does and refuses what is not a date', () => {
    expect(weekdayOf('2025-12-25')).toBe(4); // a Thursday
    expect(weekdayOf('2025-12-28')).toBe(0); // a Sunday
    expect(weekdayOf('2025-12-27')).toBe(6);
    for (const text of ['', '2025-13-01', '2025-12-32', '2025-1-01', '25-12-2025', '2025/12/25', '2025-12-25T00:00']) {
      expect(weekdayOf(text)).toBeNaN();
    }
    expect(() => addCalendarDays('not a date', 1)).toThrow(RangeError);
  });
});

describe('workingDaysAfter', () => {
  const calendar = weekdaysWithout('2025-12-25', '2025-12-26', '2026-01-01');

  it('counts the working days after acceptance up to and including the first attempt', () => {
    expect(workingDaysAfter('2025-12-01', '2025-12-02', calendar)).toBe(1); // Monday → Tuesday
    expect(workingDaysAfter('2025-12-01', '2025-12-01', calendar)).toBe(0);
    expect(workingDaysAfter('2025-12-02', '2025-12-01', calendar)).toBe(0);
  });

  it('skips a weekend and the holidays after it', () => {
    // Accepted Tuesday 23 December; Wednesday 24 works, Thursday 25 and Friday 26 are holidays, then a weekend.
    expect(workingDaysAfter('2025-12-23', '2025-12-29', calendar)).toBe(2);
    // Accepted Friday 19 December, first attempt Monday 22: the weekend does not count.
    expect(workingDaysAfter('2025-12-19', '2025-12-22', calendar)).toBe(1);
    // Over the new year: 29, 30, 31 December and 2 January.
    expect(workingDaysAfter('2025-12-26', '2026-01-02', calendar)).toBe(4);
  });

  it('counts an acceptance on a non-working day from the next working day', () => {
    expect(workingDaysAfter('2025-12-27', '2025-12-29', calendar)).toBe(1); // Saturday → Monday
  });
});

describe('addWorkingDays', () => {
  const calendar = weekdaysWithout('2025-12-25', '2025-12-26', '2026-01-01');

  it('lands on the n-th working day after the start', () => {
    expect(addWorkingDays('2025-12-23', 0, calendar)).toBe('2025-12-23');
    expect(addWorkingDays('2025-12-23', 1, calendar)).toBe('2025-12-24');
    expect(addWorkingDays('2025-12-23', 2, calendar)).toBe('2025-12-29');
    expect(addWorkingDays('2025-12-31', 1, calendar)).toBe('2026-01-02');
  });

  it('stops two years ahead for a calendar without working days', () => {
    expect(addWorkingDays('2025-01-01', 3, { isWorkingDay: () => false })).toBe('2027-01-01');
  });

  it('is the inverse of workingDaysAfter', () => {
    const holidays = fc.uniqueArray(isoDate, { maxLength: 20 });
    fc.assert(
      fc.property(isoDate, fc.integer({ min: 0, max: 60 }), holidays, (start, days, off) => {
        const cal = weekdaysWithout(...off);
        const end = addWorkingDays(start, days, cal);
        expect(workingDaysAfter(start, end, cal)).toBe(days);
        // the end is a working day (or the start itself), and the day before it is one working day fewer
        if (days > 0) {
          expect(cal.isWorkingDay(end)).toBe(true);
          expect(workingDaysAfter(start, addCalendarDays(end, -1), cal)).toBe(days - 1);
        } else {
          expect(end).toBe(start);
        }
      }),
    );
  });
});
