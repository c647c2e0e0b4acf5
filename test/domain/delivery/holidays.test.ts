import { describe, expect, it } from 'vitest';
import { isPublicHoliday, publicHolidays, publicHolidaysOf } from '../../../src/domain/delivery/holidays.js';

describe('public holidays from date-holidays', () => {
  it('counts only public holidays: 2025 in the US 11, DE 9 national, NL 9, FR 11, England 8', () => {
    expect(publicHolidays('US', 2025).size).toBe(11);
    expect(publicHolidays('DE', 2025).size).toBe(9);
    expect(publicHolidays('NL', 2025).size).toBe(9);
    expect(publicHolidays('FR', 2025).size).toBe(11);
    expect(publicHolidays('GB', 2025, 'ENG').size).toBe(8);
  });

  it('lists Germany 2025 exactly, without Heiligabend (a bank holiday) or observances', () => {
    expect([...publicHolidays('DE', 2025)].sort()).toEqual([
      '2025-01-01',
      '2025-04-18',
      '2025-04-21',
      '2025-05-01',
      '2025-05-29',
      '2025-06-09',
      '2025-10-03',
      '2025-12-25',
      '2025-12-26',
    ]);
    expect(isPublicHoliday('2025-12-24', 'DE')).toBe(false);
    expect(isPublicHoliday('2025-02-14', 'DE')).toBe(false);
  });

  it('adds a region’s holidays to the national ones, in either spelling of its code', () => {
    expect(publicHolidays('DE', 2025, 'BY').size).toBe(12);
    expect(isPublicHoliday('2025-01-06', 'DE', 'BY')).toBe(true); // Heilige Drei Könige
    expect(isPublicHoliday('2025-01-06', 'DE', 'DE-BY')).toBe(true);
    expect(isPublicHoliday('2025-01-06', 'DE')).toBe(false);
    expect(isPublicHoliday('2025-12-01', 'GB', 'SCT')).toBe(true); // St Andrew's Day (a Sunday) observed on Monday
    expect(isPublicHoliday('2025-12-01', 'GB', 'ENG')).toBe(false);
  });

  it('gives an unknown region the national holidays and shares one calendar per country and region', () => {
    expect(publicHolidaysOf('DE', 'ZZ')).toBe(publicHolidaysOf('DE'));
    expect(publicHolidaysOf('de', ' by ')).toBe(publicHolidaysOf('DE', 'DE-BY'));
    expect(publicHolidaysOf('DE', 'ZZ').region).toBeNull();
  });

  it('has no holidays for an unknown or missing country', () => {
    expect(publicHolidays('XX', 2025).size).toBe(0);
    expect(publicHolidays(null, 2025).size).toBe(0);
    expect(isPublicHoliday('2025-12-25', undefined)).toBe(false);
    expect(isPublicHoliday('2025-12-25', 'XX')).toBe(false);
  });

  it('counts substitute days and each day of a holiday lasting several', () => {
    expect(isPublicHoliday('2022-12-26', 'US')).toBe(true); // Christmas on a Sunday, observed Monday
    expect(isPublicHoliday('2021-12-31', 'US')).toBe(true); // New Year 2022 on a Saturday, observed the Friday before
    expect(publicHolidays('US', 2021).has('2021-12-31')).toBe(true);
    // Seollal is listed once, from 29 January 2025 for three days
    expect(['2025-01-29', '2025-01-30', '2025-01-31', '2025-02-01'].map((date) => isPublicHoliday(date, 'KR'))).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });

  it('carries a holiday span into the next year', () => {
    // Eswatini's Incwala, from 28 December 2025 for six days, still holds on 2 January 2026.
    expect(isPublicHoliday('2026-01-02', 'SZ')).toBe(true);
    expect(publicHolidays('SZ', 2026).has('2026-01-02')).toBe(true);
  });

  it('does not count a holiday that begins in the afternoon', () => {
    expect(isPublicHoliday('2025-12-24', 'IS')).toBe(false); // Aðfangadagur from 13:00
    expect(isPublicHoliday('2025-12-25', 'IS')).toBe(true);
  });

  it('answers the same when years are asked in any order', () => {
    const fresh = ['2026-12-25', '2024-12-25', '2025-05-01', '2024-05-01', '2026-04-03'];
    expect(fresh.map((date) => isPublicHoliday(date, 'DE'))).toEqual([true, true, true, true, true]);
    expect(isPublicHoliday('2026-04-02', 'DE')).toBe(false);
  });

  it('says no for text that is not a date', () => {
    expect(isPublicHoliday('', 'DE')).toBe(false);
    expect(isPublicHoliday('Christmas', 'DE')).toBe(false);
  });
});
