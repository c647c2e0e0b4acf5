import { describe, expect, it } from 'vitest';
import { toLocalDateTime } from '../../../src/core/event-time.js';
import { quietHoursEnd, timeZoneOfCountry } from '../../../src/domain/notifications/quiet-hours.js';

const at = (iso: string) => new Date(iso);
const endOf = (iso: string, zone: string | null, hours?: { startHour?: number; endHour?: number }) =>
  quietHoursEnd(at(iso), zone, hours)?.toISOString() ?? null;

describe('quietHoursEnd: Europe/Berlin', () => {
  const zone = 'Europe/Berlin';

  it('is null outside 21:00-08:00 local time', () => {
    expect(endOf('2026-01-15T07:00:00Z', zone)).toBeNull(); // 08:00 CET
    expect(endOf('2026-01-15T12:00:00Z', zone)).toBeNull();
    expect(endOf('2026-01-15T19:59:59Z', zone)).toBeNull(); // 20:59:59 CET
  });

  it('ends at 08:00 next morning from the evening, and the same morning after midnight', () => {
    expect(endOf('2026-01-15T20:00:00Z', zone)).toBe('2026-01-16T07:00:00.000Z'); // 21:00 CET
    expect(endOf('2026-01-15T22:59:00Z', zone)).toBe('2026-01-16T07:00:00.000Z'); // 23:59 CET
    expect(endOf('2026-01-15T23:00:00Z', zone)).toBe('2026-01-16T07:00:00.000Z'); // 00:00 CET
    expect(endOf('2026-01-16T06:59:59Z', zone)).toBe('2026-01-16T07:00:00.000Z'); // 07:59:59 CET
  });

  it('uses summer time in summer', () => {
    expect(endOf('2026-07-01T19:00:00Z', zone)).toBe('2026-07-02T06:00:00.000Z'); // 21:00 CEST
    expect(endOf('2026-07-01T18:59:00Z', zone)).toBeNull();
  });

  it('spans the March change: 21:00 CET to 08:00 CEST is one hour shorter', () => {
    // Clocks go from 02:00 CET to 03:00 CEST on 29 March 2026.
    expect(endOf('2026-03-28T20:30:00Z', zone)).toBe('2026-03-29T06:00:00.000Z');
    expect(endOf('2026-03-29T00:30:00Z', zone)).toBe('2026-03-29T06:00:00.000Z'); // 01:30 CET
    expect(endOf('2026-03-29T01:30:00Z', zone)).toBe('2026-03-29T06:00:00.000Z'); // 03:30 CEST
    expect(endOf('2026-03-29T06:00:00Z', zone)).toBeNull(); // 08:00 CEST
  });

  it('spans the October change, through the repeated hour', () => {
    // Clocks go from 03:00 CEST back to 02:00 CET on 25 October 2026; 02:30 happens twice.
    expect(endOf('2026-10-24T19:00:00Z', zone)).toBe('2026-10-25T07:00:00.000Z'); // 21:00 CEST
    expect(endOf('2026-10-25T00:30:00Z', zone)).toBe('2026-10-25T07:00:00.000Z'); // 02:30 CEST
    expect(endOf('2026-10-25T01:30:00Z', zone)).toBe('2026-10-25T07:00:00.000Z'); // 02:30 CET
    expect(endOf('2026-10-25T06:59:00Z', zone)).toBe('2026-10-25T07:00:00.000Z');
    expect(endOf('2026-10-25T07:00:00Z', zone)).toBeNull();
  });

  it('moves an end that falls into the spring gap forward by the gap', () => {
    // 02:00 does not exist in Berlin on 29 March 2026: the end is 03:00 CEST.
    expect(endOf('2026-03-28T23:30:00Z', zone, { startHour: 0, endHour: 2 })).toBe('2026-03-29T01:00:00.000Z');
  });

  it('always ends later than now, at 08:00 local, every half hour of a year', () => {
    const start = Date.parse('2026-01-01T00:00:00Z');
    for (let t = start; t < start + 366 * 86_400_000; t += 30 * 60_000) {
      const end = quietHoursEnd(new Date(t), zone);
      const hour = Number(toLocalDateTime(t, zone).time.slice(0, 2));
      expect(end === null).toBe(hour >= 8 && hour < 21);
      if (end) {
        expect(end.getTime()).toBeGreaterThan(t);
        expect(end.getTime() - t).toBeLessThanOrEqual(11 * 3_600_000 + 3_600_000);
        expect(toLocalDateTime(end, zone).time).toBe('08:00:00');
      }
    }
  });
});

describe('quietHoursEnd: other zones', () => {
  it('America/New_York, in winter, summer and across the March change', () => {
    expect(endOf('2026-01-16T02:00:00Z', 'America/New_York')).toBe('2026-01-16T13:00:00.000Z'); // 21:00 EST
    expect(endOf('2026-01-16T01:59:00Z', 'America/New_York')).toBeNull(); // 20:59 EST
    expect(endOf('2026-07-01T01:30:00Z', 'America/New_York')).toBe('2026-07-01T12:00:00.000Z'); // 21:30 EDT
    // 8 March 2026: 02:00 EST → 03:00 EDT.
    expect(endOf('2026-03-08T02:00:00Z', 'America/New_York')).toBe('2026-03-08T12:00:00.000Z'); // 21:00 EST on the 7th
  });

  it('Asia/Kolkata, half an hour off the hour', () => {
    expect(endOf('2026-01-15T15:29:00Z', 'Asia/Kolkata')).toBeNull(); // 20:59 IST
    expect(endOf('2026-01-15T15:30:00Z', 'Asia/Kolkata')).toBe('2026-01-16T02:30:00.000Z'); // 21:00 IST
    expect(endOf('2026-01-16T02:29:00Z', 'Asia/Kolkata')).toBe('2026-01-16T02:30:00.000Z'); // 07:59 IST
    expect(endOf('2026-01-16T02:30:00Z', 'Asia/Kolkata')).toBeNull();
  });

  it('treats a missing or unknown zone as not quiet', () => {
    expect(endOf('2026-01-15T23:00:00Z', null)).toBeNull();
    expect(endOf('2026-01-15T23:00:00Z', '')).toBeNull();
    expect(endOf('2026-01-15T23:00:00Z', 'Mars/Olympus_Mons')).toBeNull();
    expect(quietHoursEnd(new Date(Number.NaN), 'Europe/Berlin')).toBeNull();
  });
});

describe('quietHoursEnd: custom hours', () => {
  it('takes other overnight hours', () => {
    expect(endOf('2026-01-15T20:30:00Z', 'Europe/Berlin', { startHour: 22, endHour: 7 })).toBeNull(); // 21:30
    expect(endOf('2026-01-15T21:00:00Z', 'Europe/Berlin', { startHour: 22, endHour: 7 })).toBe('2026-01-16T06:00:00.000Z');
  });

  it('takes a window within one day', () => {
    expect(endOf('2026-01-15T11:30:00Z', 'Europe/Berlin', { startHour: 12, endHour: 14 })).toBe('2026-01-15T13:00:00.000Z');
    expect(endOf('2026-01-15T13:00:00Z', 'Europe/Berlin', { startHour: 12, endHour: 14 })).toBeNull();
  });

  it('has no quiet hours when start and end are equal, and refuses hours that are not 0-23', () => {
    expect(endOf('2026-01-15T23:00:00Z', 'Europe/Berlin', { startHour: 8, endHour: 8 })).toBeNull();
    expect(() => quietHoursEnd(new Date(), 'Europe/Berlin', { startHour: 24 })).toThrow(RangeError);
    expect(() => quietHoursEnd(new Date(), 'Europe/Berlin', { endHour: 7.5 })).toThrow(RangeError);
  });
});

describe('timeZoneOfCountry', () => {
  it.each([
    ['DE', 'Europe/Berlin'],
    ['de', 'Europe/Berlin'],
    ['FR', 'Europe/Paris'],
    ['NL', 'Europe/Amsterdam'],
    ['BE', 'Europe/Brussels'],
    ['ES', 'Europe/Madrid'],
    ['IT', 'Europe/Rome'],
    ['AT', 'Europe/Vienna'],
    ['CH', 'Europe/Zurich'],
    ['GB', 'Europe/London'],
    ['IE', 'Europe/Dublin'],
    ['PL', 'Europe/Warsaw'],
    ['DK', 'Europe/Copenhagen'],
    ['SE', 'Europe/Stockholm'],
    ['NO', 'Europe/Oslo'],
    ['FI', 'Europe/Helsinki'],
    ['PT', 'Europe/Lisbon'],
    ['CZ', 'Europe/Prague'],
    ['LU', 'Europe/Luxembourg'],
    ['IN', 'Asia/Kolkata'],
  ])('%s → %s', (country, zone) => {
    expect(timeZoneOfCountry(country)).toBe(zone);
  });

  it.each(['US', 'CA', 'AU', 'RU', 'BR', 'MX', 'ID', 'XX', '', null, undefined])('%s → null (several zones or unknown)', (country) => {
    expect(timeZoneOfCountry(country)).toBeNull();
  });
});
